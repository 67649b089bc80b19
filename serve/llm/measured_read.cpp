// A measured run's table: the trace reader's request columns, then the measured times and the
// stage of every row, each checked where it was written.
#include <array>
#include <nlohmann/json.hpp>
#include <string_view>

#include "serve/llm/measured.h"
#include "serve/llm/table_text.h"
#include "util/error.h"

namespace tessel::serve::llm {
namespace {

// A measured column under its names, each with seconds per unit (0: text, the stage).
struct Column {
  const char* canonical;
  std::vector<std::pair<std::string, double>> names;
  bool required;
};

const std::array<Column, 3>& columns() {
  static const std::array<Column, 3> c = {{
      {"ttft", {{"ttft", 1}, {"ttft_s", 1}, {"time_to_first_token", 1}, {"ttft_ms", 1e-3}}, true},
      {"e2e",
       {{"e2e", 1},
        {"e2e_s", 1},
        {"latency", 1},
        {"e2e_latency", 1},
        {"e2e_ms", 1e-3},
        {"latency_ms", 1e-3}},
       true},
      {"stage", {{"stage", 0}}, false},
  }};
  return c;
}
constexpr size_t kTtft = 0, kE2e = 1, kStage = 2;

std::string namesOf(const Column& c) {
  std::string out;
  for (size_t i = 0; i < c.names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == c.names.size() ? " or " : ", ") + c.names[i].first;
  }
  return out;
}

// One measured value of a row: where it is and what it says.
struct Cell {
  std::string name;  // the column or key as written; empty when the row has none
  int column = 0;
  std::string text;  // a CSV field; the stage of a JSON line
  double value = 0;  // a time, in the column's unit
  double scale = 1;  // seconds per unit
};

struct Row {
  int line = 0;
  std::array<Cell, 3> cells;  // ttft, e2e, stage
};

// Which column `name` is (case-insensitive) and its unit, or -1.
std::pair<int, double> columnOf(std::string_view name) {
  const std::string key = lower(trim(name));
  for (size_t c = 0; c < columns().size(); ++c) {
    for (const auto& [alias, scale] : columns()[c].names) {
      if (key == alias) return {static_cast<int>(c), scale};
    }
  }
  return {-1, 0};
}

// The header's measured columns: each one's field index (-1: none) and unit.
std::array<std::pair<int, double>, 3> csvHeader(const std::string& path, int line, Fields header) {
  if (header.size() > 1 && trim(header.back().first).empty()) header.pop_back();
  std::array<std::pair<int, double>, 3> index = {{{-1, 0}, {-1, 0}, {-1, 0}}};
  for (size_t f = 0; f < header.size(); ++f) {
    const auto [c, scale] = columnOf(header[f].first);
    if (c < 0) continue;
    auto& at = index[static_cast<size_t>(c)];
    if (at.first >= 0) {
      throw ConfigError({path, line, header[f].second, std::string(trim(header[f].first))},
                        "a second " + std::string(columns()[c].canonical) + " column (after '" +
                            std::string(trim(header[at.first].first)) + "')");
    }
    at = {static_cast<int>(f), scale};
  }
  for (size_t c = 0; c < columns().size(); ++c) {
    if (index[c].first >= 0 || !columns()[c].required) continue;
    throw ConfigError({path, line, 0, columns()[c].canonical},
                      "no " + std::string(columns()[c].canonical) + " column (" +
                          namesOf(columns()[c]) + ") in the header");
  }
  return index;
}

std::vector<Row> csvRows(const std::string& path, std::string_view text) {
  const auto all = lines(text);
  auto header = csvFields(all.at(0).second, all[0].first, path);
  const auto index = csvHeader(path, all[0].first, header);
  std::vector<Row> rows;
  for (size_t r = 1; r < all.size(); ++r) {
    const auto fields = csvFields(all[r].second, all[r].first, path);
    Row row{all[r].first, {}};
    for (size_t c = 0; c < index.size(); ++c) {
      const auto [f, scale] = index[c];
      if (f < 0) continue;
      Cell& cell = row.cells[c];
      cell.name = std::string(trim(header[static_cast<size_t>(f)].first));
      cell.column = fields.at(static_cast<size_t>(f)).second;
      cell.text = std::string(trim(fields[static_cast<size_t>(f)].first));
      cell.scale = scale;
      if (c == kStage) continue;
      if (!csvNumber(cell.text, cell.value)) {
        throw ConfigError({path, row.line, cell.column, cell.name},
                          "'" + cell.text + "' is not a number");
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The cell of column c in one JSON object, under whichever of its names the line uses.
Cell jsonCell(const nlohmann::json& object, size_t c, std::string_view line, int number,
              const std::string& path) {
  Cell cell;
  for (const auto& [alias, scale] : columns()[c].names) {
    if (!object.contains(alias)) continue;
    const int column = keyColumn(line, alias);
    if (!cell.name.empty()) {
      throw ConfigError({path, number, column, alias}, "both '" + cell.name + "' and '" + alias +
                                                           "' give the " + columns()[c].canonical);
    }
    cell.name = alias;
    cell.column = column;
    cell.scale = scale;
    const nlohmann::json& value = object.at(alias);
    if (c == kStage && (value.is_string() || value.is_number())) {
      cell.text = value.is_string() ? value.get<std::string>() : value.dump();
    } else if (c != kStage && value.is_number()) {
      cell.value = value.get<double>();
    } else {
      throw ConfigError({path, number, column, alias},
                        std::string("is a ") + value.type_name() + ", expected " +
                            (c == kStage ? "text or a number" : "a number"));
    }
  }
  if (cell.name.empty() && columns()[c].required) {
    throw ConfigError(
        {path, number, 0, columns()[c].canonical},
        "no " + std::string(columns()[c].canonical) + " key (" + namesOf(columns()[c]) + ")");
  }
  return cell;
}

// The trace reader has parsed every line: each is a JSON object.
std::vector<Row> jsonRows(const std::string& path, std::string_view text) {
  std::vector<Row> rows;
  for (const auto& [number, line] : lines(text)) {
    const nlohmann::json object = nlohmann::json::parse(line);
    rows.push_back(
        {number,
         {jsonCell(object, kTtft, line, number, path), jsonCell(object, kE2e, line, number, path),
          jsonCell(object, kStage, line, number, path)}});
  }
  return rows;
}

// The row's request with its times in seconds and its stage, checked.
MeasuredRequest measuredOf(const Request& request, const Row& row, const std::string& path) {
  const Cell& ttft = row.cells[kTtft];
  const Cell& e2e = row.cells[kE2e];
  auto fail = [&](const Cell& cell, const std::string& message) {
    throw ConfigError({path, row.line, cell.column, cell.name}, message);
  };
  if (ttft.value < 0) fail(ttft, "negative " + ttft.name + " " + shortest(ttft.value));
  if (e2e.value <= 0) fail(e2e, e2e.name + " " + shortest(e2e.value) + ": must be positive");
  MeasuredRequest m;
  m.request = request;
  m.ttft = ttft.value * ttft.scale;
  m.e2e = e2e.value * e2e.scale;
  if (m.ttft > m.e2e) {
    fail(ttft, "a first token after the last: " + ttft.name + " " + shortest(ttft.value) +
                   " is more than " + e2e.name + " " + shortest(e2e.value));
  }
  const Cell& stage = row.cells[kStage];
  m.stage = stage.name.empty() ? "all" : stage.text;
  if (m.stage.empty()) fail(stage, "an empty stage: give every row its stage");
  return m;
}

}  // namespace

std::vector<MeasuredRequest> readMeasured(const std::string& path) {
  // The requests first: the reader checks the columns it knows, the file's size and its syntax.
  const std::vector<Request> requests = readTrace(path, false);
  const std::string text = readTable(path, "a measured run (CSV or JSONL)");
  const std::vector<Row> rows = isJsonl(path, text) ? jsonRows(path, text) : csvRows(path, text);
  if (rows.size() != requests.size()) {
    throw Error("readMeasured: " + std::to_string(rows.size()) + " rows against " +
                std::to_string(requests.size()) + " requests");
  }
  const Row* staged = nullptr;  // the first row with a stage: then every row needs one
  for (const Row& row : rows) {
    if (!staged && !row.cells[kStage].name.empty()) staged = &row;
  }
  std::vector<MeasuredRequest> out;
  out.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (staged && rows[i].cells[kStage].name.empty()) {
      throw ConfigError({path, rows[i].line, 0, "stage"},
                        "no stage, while line " + std::to_string(staged->line) + " has one");
    }
    out.push_back(measuredOf(requests[i], rows[i], path));
  }
  return out;
}

}  // namespace tessel::serve::llm
