#include "reports/html/tables.h"

#include <cmath>
#include <sstream>

#include "reports/csv.h"
#include "reports/format.h"
#include "reports/html/text.h"

namespace tessel::reports::html {

Cell textCell(const std::string& s) { return {s, s}; }

Cell numberCell(double v, const std::string& text) { return {text, exactNumber(v)}; }

Cell countCell(double v) {
  return {std::isfinite(v) ? withCommas(static_cast<int64_t>(std::llround(v))) : exactNumber(v),
          exactNumber(v)};
}

std::string tableCsv(const Table& t) {
  std::ostringstream os;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    os << (i ? "," : "") << csvField(t.columns[i].name);
  }
  os << "\n";
  for (const auto& row : t.rows) {
    for (size_t i = 0; i < row.size(); ++i) os << (i ? "," : "") << csvField(row[i].exact);
    os << "\n";
  }
  return os.str();
}

namespace {

// Pipes would end a Markdown cell and newlines the row.
std::string mdCell(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string tableMarkdown(const Table& t) {
  std::ostringstream os;
  os << "|";
  for (const Column& c : t.columns) os << " " << mdCell(c.name) << " |";
  os << "\n|";
  for (const Column& c : t.columns) os << (c.numeric ? " ---: |" : " --- |");
  os << "\n";
  for (const auto& row : t.rows) {
    os << "|";
    for (const Cell& c : row) os << " " << mdCell(c.text) << " |";
    os << "\n";
  }
  return os.str();
}

}  // namespace tessel::reports::html
