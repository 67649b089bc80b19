// A report as data: headline numbers, sections of charts, notes and tables. Built once from a
// run, compare, serve or sweep document; the HTML, Markdown and CSV writers all render this one
// value, so every format shows the same numbers.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/html/svg.h"
#include "reports/html/tables.h"

namespace tessel::reports::html {

// One headline number: its label, the text a reader sees and the exact value for scripts.
struct Headline {
  std::string key;    // machine name, e.g. "cycles" (the data-* attribute)
  std::string label;  // "Latency"
  std::string text;   // "1.23 M cycles"
  std::string exact;  // "1234567.0"
};

// A chart already rendered as inline SVG, with the sentence that explains it.
struct Chart {
  std::string id;
  std::string title;
  std::string svg;
  std::string caption;
};

// A sentence in a section; `id` and `data` let a test find it and read its numbers.
struct Note {
  std::string text;
  std::string id;
  Attrs data;
};

struct Section {
  std::string id;
  std::string heading;
  std::vector<Note> notes;
  std::vector<Chart> charts;
  std::vector<std::string> tables;  // names of tables in Report::tables shown here
};

struct Report {
  std::string title;
  std::string kind;                                           // run, compare, serve or sweep
  std::string source;                                         // the input path
  std::vector<std::pair<std::string, std::string>> metadata;  // label -> value
  std::vector<Headline> headlines;
  std::vector<Section> sections;
  std::vector<Table> tables;

  // The table named `name`, or nullptr.
  const Table* table(const std::string& name) const;
  // "classes, causes, layers": the names --table accepts for this report.
  std::string tableNames() const;
};

}  // namespace tessel::reports::html
