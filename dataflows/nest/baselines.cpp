#include "dataflows/nest/baselines.h"

#include <algorithm>

#include "dataflows/nest/candidates.h"
#include "dataflows/nest/cost.h"

namespace tessel::dataflows::nest {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The DRAM level's factors cover what the spatial and PE factors leave of every dim.
void coverRest(Mapping& m, const Problem& p, const Hardware& hw) {
  for (Dim d : kAllDims) {
    const int64_t below = m.allSpatial(d) * m.levels[size_t(hw.pe())].factor[at(d)];
    m.levels[0].factor[at(d)] = ceilDiv(p.of(d), std::min(p.of(d), below));
  }
}

// Halves the PEs' longest stream loop (the rest moves off chip); false when none is left.
bool shortenStream(Mapping& m, const Problem& p, const Hardware& hw) {
  Factors& pe = m.levels[size_t(hw.pe())].factor;
  Dim longest = Dim::G;
  for (Dim d : kAllDims) {
    if (pe[at(d)] > pe[at(longest)]) longest = d;
  }
  if (pe[at(longest)] <= 1) return false;
  pe[at(longest)] = ceilDiv(pe[at(longest)], 2);
  coverRest(m, p, hw);
  return true;
}

}  // namespace

std::vector<Mapping> foldAfterFold(const Problem& p, const Hardware& hw, const Constraints& c) {
  std::vector<Mapping> out;
  const auto splits = spatialSplits(p, hw, c);
  if (splits.empty()) return out;
  const auto& [rows, cols] = splits.front();  // the fullest fold
  Mapping m = skeleton(p, hw, c, rows, cols, true);
  for (Dim d : c.pe_loops) {
    m.levels[size_t(hw.pe())].factor[at(d)] = ceilDiv(p.of(d), std::min(p.of(d), m.spatial(d)));
  }
  coverRest(m, p, hw);
  for (int t = 0; t < kTensors; ++t) {
    Mapping x = withOrders(m, p, hw, static_cast<Operand>(t), Operand::Output);
    conformOrders(x, c, hw);
    while (!checkCapacity(p, x, hw).empty()) {
      if (!shortenStream(x, p, hw)) break;
      x = withOrders(x, p, hw, static_cast<Operand>(t), Operand::Output);
      conformOrders(x, c, hw);
    }
    if (checkCapacity(p, x, hw).empty() && checkShape(x, p, hw).empty() && violation(x, c, hw, p).empty()) {
      out.push_back(std::move(x));
    }
  }
  return out;
}

}  // namespace tessel::dataflows::nest
