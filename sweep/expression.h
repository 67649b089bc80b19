// Arithmetic over a point's keys, for derived keys and constraints:
//   "scratchpad.capacity + accumulator.capacity <= 320KiB"
//   "2 * scratchpad.capacity"      "array.rows == array.cols && dram.bandwidth >= 8"
// Numbers may carry a unit (KiB, MB, GHz, B/cycle, ...: see quantity()); identifiers are key
// paths; operators: + - * / ( ), comparisons == != < <= > >=, && || !, min(a, b), max(a, b).
// Comparisons and logic give 1 or 0. Errors are ConfigErrors at the expression's location.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace tessel::sweep {

// A key's value as a number; throws ConfigError when the key has none.
using Lookup = std::function<double(const std::string& key)>;

double evaluate(std::string_view expression, const Lookup& lookup, const SourceLocation& where);

// The identifiers (keys, metric names) `expression` reads, in order of appearance, each once;
// units after a number and min/max/true/false are not identifiers. ConfigError when the text
// does not parse.
std::vector<std::string> identifiers(std::string_view expression, const SourceLocation& where);

// "64KiB" -> 65536, "1 GHz" -> 1e9, "16 B/cycle" -> 16, "12" -> 12, "true" -> 1; nullopt when
// the text is not a number with a known unit (e.g. "ws").
std::optional<double> quantity(std::string_view text);

}  // namespace tessel::sweep
