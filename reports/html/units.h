// What a value axis measures, and the unit prefix that suits its range: an energy axis whose
// ticks read in millijoules says "mJ". Tick labels are the value divided by the shown unit's
// factor, so a label and its axis title always agree.
#pragma once

#include <string>

namespace tessel::reports::html {

// How a unit takes prefixes.
enum class UnitKind {
  Count,    // SI multipliers as words: "cycles", "k cycles", "M cycles"
  Si,       // SI prefixes on a symbol: "pJ", "nJ", "mJ", "ms", "W"
  Bytes,    // binary prefixes: "B", "KiB", "MiB"
  Percent,  // a ratio in [0, 1] shown in %
  Fixed,    // no prefix: "mm²", "TOPS/W"
};

struct Unit {
  std::string noun;  // "energy"; the axis title starts with it
  std::string base;  // the unit of the data as given: "pJ", "cycles", "s", "B", "ratio"
  UnitKind kind = UnitKind::Count;
  // Si: the symbol the prefixes attach to ("J"), what follows it ("·s") and the data's own
  // power of ten (-12 for pJ); the data are in base units = symbol x 10^power + suffix.
  std::string symbol, suffix;
  int power = 0;
};

// The unit a reader sees: its name and how many base units one of it is ("mJ", 1e9 from pJ).
struct ShownUnit {
  std::string name;
  double factor = 1;
};

// The unit of a metric by its name in run, compare and sweep documents: cycles, seconds,
// energy_pj (and the other *_pj), power_w, area_mm2, tops, *_bytes, utilization, ...; a metric it
// does not know counts in plain numbers, its noun its name.
Unit metricUnit(const std::string& metric);
Unit countUnit(const std::string& noun, const std::string& what);  // "throughput", "requests/s"
Unit siUnit(const std::string& noun, const std::string& symbol, int power);

// The prefix under which `magnitude` (base units; the largest absolute value on the axis) reads
// between 1 and 1000, within the prefixes the kind allows (seconds stop at s, bytes at B).
ShownUnit showUnit(const Unit& u, double magnitude);
// "energy (mJ)"; just the noun when the shown unit is empty.
std::string axisTitle(const Unit& u, const ShownUnit& s);
// One value for readers, three significant digits in its own prefix: "3.05 mJ", "1.52 G cycles",
// "0.0812 mm²".
std::string unitText(const Unit& u, double v);

}  // namespace tessel::reports::html
