// Number and text formatting shared by the report writers. Locale-independent and
// deterministic: the same value always gives the same characters.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/stats.h"

namespace tessel::reports {

// Rounding policy of the machine-readable writers (see reports/SCHEMA.md):
// quantities (cycles, seconds, picojoules, hertz) keep 12 significant digits,
// ratios (fractions, utilization) keep 6 decimal places. -0 becomes 0; NaN/inf pass through.
double roundQuantity(double v);
double roundRatio(double v);
// The same values as text, as CSV writes them: like printf "%.12g" and "%.6f", in any locale.
std::string quantityText(double v);
std::string ratioText(double v);

// "12.34 ms", "2.00 us" (base unit seconds; ps up to s).
std::string engSeconds(double seconds);
// "3.05 nJ" (input in picojoules; pJ up to J).
std::string engEnergyPj(double picojoules);
// "2.51 mW" (input in watts; pW up to W).
std::string engWatts(double watts);
// "1.00 GHz".
std::string engHertz(double hz);
// "512 B", "6.77 KiB", "1.50 MiB" (binary prefixes, step 1024).
std::string binaryBytes(int64_t bytes);
// "1,234,567" (negative values keep their sign).
std::string withCommas(int64_t v);
// Cycles rounded to a whole number, with commas.
std::string cyclesText(double cycles);
// fraction 0.125 -> "12.50" (percent, two decimals, no sign).
std::string percentText(double fraction);
// Fixed-point with the given decimals.
std::string fixedText(double v, int decimals);
// `digits` significant digits, fixed-point (no exponent): 0.000123 -> "0.000123", 1234.5 -> "1235"
// with 3 digits and more shown for large integers parts ("1235", not "1.23e+03").
std::string significant(double v, int digits);

// Text cut to `width` characters, ending in "..." when cut.
std::string cut(std::string_view s, int width);
// Left-aligned in `width` (cut to fit), then one space: a table cell.
std::string padRight(std::string_view s, int width);
// Right-aligned in `width`; never cut, so numbers stay whole.
std::string padLeft(std::string_view s, int width);

// The cause with the most cycles (the first in Cause order on a tie).
sim::Cause dominantCause(const sim::OpStats& op);
// Mapping as the table shows it: the dataflow, then tile_* entries without the prefix
// ("ws i=4 j=4 k=12"); when there are no tile_* entries, every other entry as k=v but the
// bound's (gap_to_bound, array_shape_cost, ...: the table's columns and the JSON carry them).
std::string mappingShort(const sim::OpStats& op);
// The value of one mapping entry, "" when the op's mapping has none.
std::string mappingValue(const sim::OpStats& op, std::string_view key);
// Mapping as "k=v;k=v" in the engine's order (CSV).
std::string mappingKv(const sim::OpStats& op);

}  // namespace tessel::reports
