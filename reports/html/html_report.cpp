#include "reports/html/html_report.h"

#include <sstream>

#include "reports/html/html_assets.h"
#include "reports/html/tables.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

void header(const Report& r, std::ostringstream& os) {
  os << "<header>\n<h1>" << escape(r.title) << "</h1>\n<dl class=\"meta\">\n";
  os << "<dt>input</dt><dd>" << escape(r.source) << "</dd>\n";
  for (const auto& [k, v] : r.metadata) {
    os << "<dt>" << escape(k) << "</dt><dd>" << escape(v) << "</dd>\n";
  }
  os << "</dl>\n</header>\n<section id=\"totals\" class=\"headlines\"";
  for (const Headline& h : r.headlines) os << " data-" << h.key << "=\"" << escape(h.exact) << "\"";
  os << ">\n";
  for (const Headline& h : r.headlines) {
    os << "<div class=\"headline\" data-key=\"" << escape(h.key) << "\" data-value=\""
       << escape(h.exact) << "\"><div class=\"value\">" << escape(h.text)
       << "</div><div class=\"label\">" << escape(h.label) << "</div></div>\n";
  }
  os << "</section>\n";
}

void table(const Table& t, std::ostringstream& os) {
  os << "<div class=\"table-wrap\">\n<h3>" << escape(t.title) << " <a class=\"csv\" download=\""
     << escape(t.name) << ".csv\" href=\"data:text/csv;charset=utf-8," << uriEncode(tableCsv(t))
     << "\">download CSV</a></h3>\n<table id=\"table-" << escape(t.name)
     << "\" class=\"sortable\" data-table=\"" << escape(t.name) << "\">\n<thead><tr>";
  for (const Column& c : t.columns) {
    os << "<th" << (c.numeric ? " class=\"num\" data-numeric=\"1\"" : "")
       << " title=\"click to sort\">" << escape(c.name) << "</th>";
  }
  os << "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    os << "<tr>";
    for (size_t i = 0; i < row.size(); ++i) {
      const bool num = i < t.columns.size() && t.columns[i].numeric;
      os << "<td" << (num ? " class=\"num\"" : "") << " data-value=\"" << escape(row[i].exact)
         << "\">" << escape(row[i].text) << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</tbody>\n</table>\n</div>\n";
}

void section(const Report& r, const Section& s, std::ostringstream& os) {
  os << "<section id=\"" << escape(s.id) << "\">\n<h2>" << escape(s.heading) << "</h2>\n";
  for (const Note& n : s.notes) {
    os << "<p class=\"note\"";
    if (!n.id.empty()) os << " id=\"" << escape(n.id) << "\"";
    for (const auto& [k, v] : n.data) os << " data-" << k << "=\"" << escape(v) << "\"";
    os << ">" << escape(n.text) << "</p>\n";
  }
  for (const Chart& c : s.charts) {
    os << "<figure id=\"fig-" << escape(c.id) << "\">\n<figcaption>" << escape(c.title)
       << "</figcaption>\n"
       << c.svg;
    if (!c.caption.empty()) os << "<p class=\"caption\">" << escape(c.caption) << "</p>\n";
    os << "</figure>\n";
  }
  for (const std::string& name : s.tables) {
    if (const Table* t = r.table(name)) table(*t, os);
  }
  os << "</section>\n";
}

}  // namespace

std::string htmlReport(const Report& r) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"generator\" content=\"tessel report\">\n<title>" << escape(r.title)
     << "</title>\n<style>\n"
     << kReportCss << "</style>\n</head>\n<body data-kind=\"" << escape(r.kind) << "\">\n";
  header(r, os);
  os << "<nav><ul>\n";
  for (const Section& s : r.sections) {
    os << "<li><a href=\"#" << escape(s.id) << "\">" << escape(s.heading) << "</a></li>\n";
  }
  os << "</ul></nav>\n<main>\n";
  for (const Section& s : r.sections) section(r, s, os);
  os << "</main>\n<script>\n" << kReportScript << "</script>\n</body>\n</html>\n";
  return os.str();
}

}  // namespace tessel::reports::html
