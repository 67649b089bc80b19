#include "reports/html/markdown.h"

#include <sstream>

namespace tessel::reports::html {

std::string markdownReport(const Report& r) {
  std::ostringstream os;
  os << "# " << r.title << "\n\n";
  for (const auto& [k, v] : r.metadata) os << "- **" << k << "**: " << v << "\n";
  os << "\n| headline | value | exact |\n| --- | ---: | ---: |\n";
  for (const Headline& h : r.headlines) {
    os << "| " << h.label << " | " << h.text << " | " << h.exact << " |\n";
  }
  for (const Section& s : r.sections) {
    os << "\n## " << s.heading << "\n\n";
    for (const Note& n : s.notes) os << n.text << "\n\n";
    for (const Chart& c : s.charts) {
      os << "- Chart *" << c.title << "* (in the HTML report)";
      if (!c.caption.empty()) os << ": " << c.caption;
      os << "\n";
    }
    if (!s.charts.empty()) os << "\n";
    for (const std::string& name : s.tables) {
      const Table* t = r.table(name);
      if (!t) continue;
      os << "### " << t->title << " (`" << t->name << "`)\n\n" << tableMarkdown(*t) << "\n";
    }
  }
  return os.str();
}

}  // namespace tessel::reports::html
