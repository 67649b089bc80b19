#include "reports/html/report_doc.h"

namespace tessel::reports::html {

const Table* Report::table(const std::string& name) const {
  for (const Table& t : tables) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string Report::tableNames() const {
  std::string s;
  for (const Table& t : tables) s += (s.empty() ? "" : ", ") + t.name;
  return s;
}

}  // namespace tessel::reports::html
