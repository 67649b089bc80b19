// The assumptions SCALE-Sim v2 times an array op with, one knob each, so a user can reproduce a
// SCALE-Sim number and then turn its assumptions off one at a time (docs/scalesim.md).
// Parsed from EngineOptions::params (tessel run --scalesim-timing KEY=VALUE,...).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tessel::sim::scalesim {

struct Knobs {
  // off: a fold starts after the previous one drained (SCALE-Sim); on: folds issue back to back
  // as tessel's array does (dataflows/nest/tile_timing.h issue periods).
  bool fold_overlap = false;
  // scalesim: a fold costs its demand lines (OS T+R+C-2, WS/IS T+2R+C-2); tessel: the clocked
  // grid's tile (OS adds the R-cycle drain chain, all add the edge input register).
  bool tessel_drain = false;
  // ideal: no memory stalls (SCALE-Sim's InterfaceBandwidth CALC mode); tessel: add the
  // analytical engine's DRAM/NoC stall cycles for the same op.
  bool memory_stalls = false;
  // zero: ops other than conv/GEMM cost nothing (SCALE-Sim has none); tessel: the analytical
  // engine times them.
  bool other_ops_zero = true;
};

// The option the knobs come from, for error messages.
inline constexpr const char* kOption = "--scalesim-timing";

// Knobs from key=value pairs; ConfigError naming --scalesim-timing, the key and the values it
// takes for an unknown key or value.
Knobs parseKnobs(const std::vector<std::pair<std::string, std::string>>& params);

// "fold_overlap=on,drain=tessel" -> pairs; ConfigError naming --scalesim-timing on a piece
// without '='. Empty text: no pairs (all of SCALE-Sim's assumptions).
std::vector<std::pair<std::string, std::string>> splitKnobs(const std::string& text);

// "fold_overlap=off,drain=scalesim,memory=ideal,other_ops=zero": every knob, for labels.
std::string describe(const Knobs& k);

}  // namespace tessel::sim::scalesim
