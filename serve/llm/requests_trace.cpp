// Recorded request streams: a CSV or JSONL trace of arrival times and token counts.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "serve/llm/request_budget.h"
#include "serve/llm/requests.h"
#include "serve/llm/table_text.h"
#include "util/error.h"
#include "util/input_file.h"

namespace tessel::serve::llm {

namespace {

constexpr double kMaxTokens = 1e9;

// The three columns a trace must have, each under one of its names.
struct Column {
  const char* canonical;
  std::array<const char*, 3> names;
};
constexpr std::array<Column, 3> kColumns = {{
    {"arrival", {"arrival", "arrival_time", "timestamp"}},
    {"prompt_tokens", {"prompt_tokens", "prompt", "input_tokens"}},
    {"output_tokens", {"output_tokens", "output", "completion_tokens"}},
}};

std::string namesOf(const Column& c) {
  return std::string(c.names[0]) + ", " + c.names[1] + " or " + c.names[2];
}

// One value of a line: where it is and what it holds.
struct Cell {
  double value = 0;
  int column = 0;
  std::string name;  // the column or key as written in the file
};

// A line's shared prefix: the prefix_id and prefix_tokens columns (keys), both or neither.
struct PrefixCell {
  std::string id;      // empty: no prefix
  Cell tokens;
  bool given = false;  // tokens.value was read
};
constexpr const char* kPrefixId = "prefix_id";
constexpr const char* kPrefixTokens = "prefix_tokens";

// Which of kColumns `name` is (case-insensitive), or -1.
int columnIndex(std::string_view name) {
  const std::string key = lower(trim(name));
  for (size_t c = 0; c < kColumns.size(); ++c) {
    for (const char* alias : kColumns[c].names) {
      if (key == alias) return static_cast<int>(c);
    }
  }
  return -1;
}

// Checks one line's three cells and turns them into the next request.
class Builder {
 public:
  Builder(const std::string& path, bool sorted)
      : path_(path), file_(std::make_shared<const std::string>(path)), sorted_(sorted) {}

  void add(int line, const std::array<Cell, 3>& cells, const PrefixCell& prefix = {}) {
    const Cell& arrival = cells[0];
    if (arrival.value < 0) {
      fail(line, arrival, "negative arrival time " + shortest(arrival.value) + " s");
    }
    if (sorted_ && !reqs_.empty() && arrival.value < reqs_.back().arrival) {
      fail(line, arrival,
           "arrival " + shortest(arrival.value) + " s is before the previous line's " +
               shortest(reqs_.back().arrival) + " s (line " + std::to_string(previous_line_) +
               "); a trace must be sorted by time");
    }
    Request r;
    r.id = static_cast<int64_t>(reqs_.size());
    r.arrival = arrival.value;
    r.prompt = tokens(line, cells[1]);
    r.output = tokens(line, cells[2]);
    r.file = file_;
    r.line = line;
    r.column = cells[1].column;
    if (prefix.given) {
      r.prefix_tokens = prefixTokens(line, prefix.tokens, r.prompt);
      if (prefix.id.empty()) r.prefix_tokens = 0;
    }
    if (!prefix.id.empty()) {
      r.prefix_id = ids_.emplace(prefix.id, static_cast<int64_t>(ids_.size()) + 1).first->second;
    }
    reqs_.push_back(std::move(r));
    previous_line_ = line;
  }

  [[noreturn]] void fail(int line, const Cell& cell, const std::string& message) const {
    throw ConfigError({path_, line, cell.column, cell.name}, message);
  }

  std::vector<Request> take() {
    if (reqs_.empty()) throw ConfigError({path_, 0, 0, ""}, "the trace has no requests");
    return std::move(reqs_);
  }

 private:
  int64_t tokens(int line, const Cell& cell) const {
    const std::string shown = cell.name + " " + shortest(cell.value);
    if (cell.value < 1) fail(line, cell, shown + ": a request has at least 1 token");
    if (cell.value != std::floor(cell.value)) fail(line, cell, shown + " is not a whole number");
    if (cell.value > kMaxTokens) fail(line, cell, shown + " is more than 1e9 tokens");
    return static_cast<int64_t>(cell.value);
  }

  int64_t prefixTokens(int line, const Cell& cell, int64_t prompt) const {
    const std::string shown = cell.name + " " + shortest(cell.value);
    if (cell.value < 0) fail(line, cell, shown + " is negative");
    if (cell.value != std::floor(cell.value)) fail(line, cell, shown + " is not a whole number");
    if (cell.value > static_cast<double>(prompt)) {
      fail(line, cell, shown + " is more than the prompt's " + std::to_string(prompt) + " tokens");
    }
    return static_cast<int64_t>(cell.value);
  }

  const std::string& path_;
  std::shared_ptr<const std::string> file_;  // shared by the requests, for later checks
  std::unordered_map<std::string, int64_t> ids_;  // prefix ids, numbered from 1
  bool sorted_ = true;  // arrivals must not decrease
  std::vector<Request> reqs_;
  int previous_line_ = 0;
};

// The header's prefix_id and prefix_tokens columns (-1: none); both or neither.
std::array<int, 2> prefixColumns(const Fields& header, int line, const std::string& path) {
  std::array<int, 2> at = {-1, -1};
  const std::array<const char*, 2> names = {kPrefixId, kPrefixTokens};
  for (size_t f = 0; f < header.size(); ++f) {
    for (size_t k = 0; k < 2; ++k) {
      if (lower(trim(header[f].first)) != names[k]) continue;
      if (at[k] >= 0) {
        throw ConfigError({path, line, header[f].second, names[k]},
                          std::string("a second ") + names[k] + " column");
      }
      at[k] = static_cast<int>(f);
    }
  }
  for (size_t k = 0; k < 2; ++k) {
    if (at[k] < 0 || at[1 - k] >= 0) continue;
    throw ConfigError({path, line, header[static_cast<size_t>(at[k])].second, names[k]},
                      std::string("a ") + names[k] + " column without a " + names[1 - k] +
                          " column: give both (requests of one prefix_id share their first "
                          "prefix_tokens prompt tokens) or neither");
  }
  return at;
}

// One row's prefix: an empty prefix_id cell is none; otherwise prefix_tokens is a number.
PrefixCell csvPrefix(const Fields& fields, const Fields& header, std::array<int, 2> at,
                     int number, const Builder& builder) {
  PrefixCell p;
  if (at[0] < 0) return p;
  p.id = std::string(trim(fields[static_cast<size_t>(at[0])].first));
  const auto& [field, column] = fields[static_cast<size_t>(at[1])];
  p.tokens.column = column;
  p.tokens.name = std::string(trim(header[static_cast<size_t>(at[1])].first));
  const std::string_view value = trim(field);
  if (value.empty() && p.id.empty()) return p;
  if (!csvNumber(value, p.tokens.value)) {
    builder.fail(number, p.tokens, "'" + std::string(value) + "' is not a number");
  }
  p.given = true;
  return p;
}

std::vector<Request> readCsv(const std::string& path, std::string_view text, bool sorted) {
  const auto rows = lines(text);
  if (rows.empty()) throw ConfigError({path, 0, 0, ""}, "the trace is empty");
  auto header = csvFields(rows[0].second, rows[0].first, path);
  if (header.size() > 1 && trim(header.back().first).empty()) header.pop_back();
  std::array<int, 3> index = {-1, -1, -1};
  std::string names;
  for (size_t f = 0; f < header.size(); ++f) {
    const std::string name(trim(header[f].first));
    names += (f ? ", " : "") + name;
    const int c = columnIndex(name);
    if (c < 0) continue;
    if (index[c] >= 0) {
      throw ConfigError({path, rows[0].first, header[f].second, name},
                        "a second " + std::string(kColumns[c].canonical) + " column (after '" +
                            std::string(trim(header[index[c]].first)) + "')");
    }
    index[c] = static_cast<int>(f);
  }
  for (size_t c = 0; c < kColumns.size(); ++c) {
    if (index[c] >= 0) continue;
    throw ConfigError(
        {path, rows[0].first, 0, kColumns[c].canonical},
        "no " + std::string(kColumns[c].canonical) + " column (" + namesOf(kColumns[c]) +
            "); the first line must be a header naming the columns, it reads: " + names);
  }
  const std::array<int, 2> prefix = prefixColumns(header, rows[0].first, path);
  Builder builder(path, sorted);
  for (size_t r = 1; r < rows.size(); ++r) {
    const int number = rows[r].first;
    auto fields = csvFields(rows[r].second, number, path);
    if (fields.size() == header.size() + 1 && trim(fields.back().first).empty()) fields.pop_back();
    if (fields.size() != header.size()) {
      throw ConfigError({path, number, 0, ""}, std::to_string(fields.size()) +
                                                   " fields, but the header has " +
                                                   std::to_string(header.size()));
    }
    std::array<Cell, 3> cells;
    for (size_t c = 0; c < cells.size(); ++c) {
      const auto& [field, column] = fields[static_cast<size_t>(index[c])];
      cells[c].column = column;
      cells[c].name = std::string(trim(header[static_cast<size_t>(index[c])].first));
      const std::string_view value = trim(field);
      if (!csvNumber(value, cells[c].value)) {
        builder.fail(number, cells[c], "'" + std::string(value) + "' is not a number");
      }
    }
    builder.add(number, cells, csvPrefix(fields, header, prefix, number, builder));
  }
  return builder.take();
}

// The cell of column c in one JSON object, under whichever of its names the line uses.
Cell jsonCell(const nlohmann::json& object, size_t c, std::string_view line, int number,
              const std::string& path) {
  Cell cell;
  for (const char* alias : kColumns[c].names) {
    if (!object.contains(alias)) continue;
    const int column = keyColumn(line, alias);
    if (!cell.name.empty()) {
      throw ConfigError({path, number, column, alias}, "both '" + cell.name + "' and '" + alias +
                                                           "' give the " + kColumns[c].canonical);
    }
    cell.name = alias;
    cell.column = column;
    const auto& value = object.at(alias);
    if (!value.is_number()) {
      throw ConfigError({path, number, cell.column, alias},
                        std::string("is a ") + value.type_name() + ", expected a number");
    }
    cell.value = value.get<double>();
  }
  if (cell.name.empty()) {
    throw ConfigError(
        {path, number, 0, kColumns[c].canonical},
        "no " + std::string(kColumns[c].canonical) + " key (" + namesOf(kColumns[c]) + ")");
  }
  return cell;
}

// One line's prefix: the prefix_id key (a string, or an integer; "" is none) and the
// prefix_tokens key (a number), both or neither.
PrefixCell jsonPrefix(const nlohmann::json& object, std::string_view line, int number,
                      const std::string& path) {
  PrefixCell p;
  const bool id = object.contains(kPrefixId), tokens = object.contains(kPrefixTokens);
  auto where = [&](const char* key) {
    return SourceLocation{path, number, keyColumn(line, key), key};
  };
  if (!id && !tokens) return p;
  if (id != tokens) {
    const char* given = id ? kPrefixId : kPrefixTokens;
    throw ConfigError(where(given), std::string(given) + " without " +
                                        (id ? kPrefixTokens : kPrefixId) +
                                        ": give both keys or neither");
  }
  const auto& value = object.at(kPrefixId);
  if (value.is_string()) {
    p.id = value.get<std::string>();
  } else if (value.is_number_integer()) {
    p.id = value.dump();
  } else {
    throw ConfigError(where(kPrefixId), std::string("is a ") + value.type_name() +
                                            ", expected a string (or an integer)");
  }
  p.tokens.name = kPrefixTokens;
  p.tokens.column = where(kPrefixTokens).column;
  const auto& count = object.at(kPrefixTokens);
  if (!count.is_number()) {
    throw ConfigError(where(kPrefixTokens),
                      std::string("is a ") + count.type_name() + ", expected a number");
  }
  p.tokens.value = count.get<double>();
  p.given = true;
  return p;
}

std::vector<Request> readJsonl(const std::string& path, std::string_view text, bool sorted) {
  Builder builder(path, sorted);
  for (const auto& [number, line] : lines(text)) {
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      const std::string what = e.what();
      const size_t reason = what.find("error while");
      throw ConfigError(
          {path, number, static_cast<int>(e.byte), ""},
          "not valid JSON" + (reason == std::string::npos ? "" : ": " + what.substr(reason)));
    } catch (const nlohmann::json::out_of_range& e) {  // a number beyond a double (1e999)
      const std::string what = e.what();  // "[json.exception.out_of_range.406] number overflow..."
      throw ConfigError({path, number, 0, ""},
                        "not valid JSON: " + what.substr(what.find(']') + 2));
    }
    if (!object.is_object()) {
      throw ConfigError({path, number, 1, ""}, "expected a JSON object {...} on each line");
    }
    builder.add(number,
                {jsonCell(object, 0, line, number, path), jsonCell(object, 1, line, number, path),
                 jsonCell(object, 2, line, number, path)},
                jsonPrefix(object, line, number, path));
  }
  return builder.take();
}

}  // namespace

std::vector<Request> readTrace(const std::string& path, bool sorted) {
  const std::string text = readTable(path, "a request trace (CSV or JSONL)");
  const bool jsonl = isJsonl(path, text);
  // Every line may be a request (with its place in the line index): the memory first, then,
  // once the lengths are known, the time its simulation would take (request_budget.h).
  const int64_t lines = lineCount(text);
  const SourceLocation last{path, static_cast<int>(std::min<int64_t>(lines, INT_MAX)), 0, ""};
  checkRequests(lines - (jsonl ? 0 : 1), sizeof(std::pair<int, std::string_view>), 0, 1, last);
  std::vector<Request> reqs = jsonl ? readJsonl(path, text, sorted) : readCsv(path, text, sorted);
  double output = 0;
  for (const Request& r : reqs) output += static_cast<double>(r.output);
  checkRequests(static_cast<int64_t>(reqs.size()), 0, output / std::max<double>(1, reqs.size()), 1,
                last);
  return reqs;
}

}  // namespace tessel::serve::llm
