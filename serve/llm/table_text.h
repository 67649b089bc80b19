// The text of a request table (a trace, a measured run) as both readers split it: its form (CSV
// or JSONL), its non-blank lines, a CSV line's fields and a JSON key's column, each with the
// 1-based place that messages cite.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::serve::llm {

// The largest table read: 4 GiB.
inline constexpr size_t kMaxTableBytes = size_t{1} << 32;

// A CSV line's fields, each with the column it starts at.
using Fields = std::vector<std::pair<std::string, int>>;

// The file at `path` (readInputFile: `expected` completes "expected ..."), a UTF-8 byte order
// mark dropped.
std::string readTable(const std::string& path, const std::string& expected);

// Whether the table is JSON lines: a .jsonl name or a first '{'; otherwise CSV.
bool isJsonl(const std::string& path, std::string_view text);

// `text` without leading and trailing white space.
std::string_view trim(std::string_view text);

// `text` in lower case (ASCII).
std::string lower(std::string_view text);

// The lines of `text` with their 1-based numbers, CR stripped, blank ones skipped.
std::vector<std::pair<int, std::string_view>> lines(std::string_view text);

// A CSV line's fields with their 1-based columns; "double quotes" may hide commas. A quote that
// is not closed is a ConfigError at path:number:column.
Fields csvFields(std::string_view line, int number, const std::string& path);

// The whole of `text` as a finite number.
bool csvNumber(std::string_view text, double& value);

// The 1-based column of "key" in a JSON line, or 0.
int keyColumn(std::string_view line, const std::string& key);

// `v` in the fewest digits that read back as it.
std::string shortest(double v);

}  // namespace tessel::serve::llm
