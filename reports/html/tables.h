// Tables as data: built once from the input, rendered alike as HTML, Markdown and CSV.
#pragma once

#include <string>
#include <vector>

namespace tessel::reports::html {

// One cell: what a reader sees and the exact value (CSV, sorting, data attributes).
struct Cell {
  std::string text;
  std::string exact;
};

struct Column {
  std::string name;      // CSV header and HTML heading, e.g. "cycles"
  bool numeric = false;  // sorts by number, aligns right
};

struct Table {
  std::string name;   // what --table names, e.g. "layers"
  std::string title;  // "Per-layer results"
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;

  void addRow(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

// A text cell: shown and exact alike.
Cell textCell(const std::string& s);
// A number shown as `text` whose exact value is `v` (shortest text that reads back as v).
Cell numberCell(double v, const std::string& text);
// An integer shown with thousands separators.
Cell countCell(double v);

// RFC 4180 CSV of the exact values, header first, "\n" line ends.
std::string tableCsv(const Table& t);
// A GitHub-flavoured Markdown table of the shown values.
std::string tableMarkdown(const Table& t);

}  // namespace tessel::reports::html
