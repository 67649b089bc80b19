// Need::Derived parameters the user left out. Each rule here is the one its schema row states.
#include <algorithm>

#include "arch/building.h"
#include "arch/schema.h"
#include "arch/silicon.h"

namespace tessel::arch {
namespace {

bool isLocal(LevelKind k) {
  return k == LevelKind::Scratchpad || k == LevelKind::Accumulator || k == LevelKind::GlobalBuffer ||
         k == LevelKind::ClusterBuffer;
}

void deriveLevel(const Building& b, StorageLevel& l) {
  const ComputeArray& a = b.acc.array;
  const std::string p = l.name + ".";
  if (!b.isGiven(p + "dtype")) {
    l.dtype = l.kind == LevelKind::Accumulator ? a.accum_dtype : a.input_dtype;
  }
  if (l.kind == LevelKind::DRAM) l.holds = {true, true, true};
  const bool pooled = l.kind == LevelKind::ClusterBuffer || l.kind == LevelKind::GlobalBuffer ||
                      l.kind == LevelKind::Scratchpad;
  if (pooled && !b.isGiven(p + "holds")) {
    const auto& c = l.tensor_capacity;
    const bool outputs = l.kind != LevelKind::Scratchpad;  // a scratchpad's go to the accumulator
    l.holds = l.partitioned ? Holds{c[0] > 0, c[1] > 0, c[2] > 0} : Holds{true, true, outputs};
  }
  if (!b.isGiven(p + "row_width") && l.kind == LevelKind::Scratchpad) {
    l.row_bytes = static_cast<int>(storageBytes(a.input_dtype, a.cols));
  }
  if (!b.isGiven(p + "row_width") && l.kind == LevelKind::Accumulator) {
    l.row_bytes = static_cast<int>(storageBytes(a.accum_dtype, a.cols));
  }
  if (!b.isGiven(p + "bandwidth") && isLocal(l.kind)) {
    l.bandwidth = static_cast<double>(l.banks) * l.row_bytes;
  }
}

// Host costs in sfuOpNames() order, so equal specs serialize (and hash) equally.
void sortHostCosts(Host& h) {
  const auto& order = sfuOpNames();
  auto rank = [&](const std::string& op) {
    return std::find(order.begin(), order.end(), op) - order.begin();
  };
  std::sort(h.cycles_per_element.begin(), h.cycles_per_element.end(),
            [&](const auto& x, const auto& y) { return rank(x.first) < rank(y.first); });
}

}  // namespace

void deriveDefaults(Building& b) {
  Accelerator& acc = b.acc;
  ComputeArray& a = acc.array;
  for (auto& l : acc.levels) deriveLevel(b, l);
  if (!b.isGiven("array.throughput")) a.macs_per_cycle = {{a.input_dtype, 1.0}};
  sortHostCosts(acc.host);
  deriveSilicon(b);
}

}  // namespace tessel::arch
