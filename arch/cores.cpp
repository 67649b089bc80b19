#include "arch/cores.h"

#include <climits>
#include <string>

#include "util/error.h"

namespace tessel::arch {
namespace {

void widenLevel(StorageLevel& l, int k, const std::string& source) {
  if (l.kind == LevelKind::DRAM || l.kind == LevelKind::L2) return;  // shared
  l.capacity_bytes *= static_cast<uint64_t>(k);
  for (uint64_t& pool : l.tensor_capacity) pool *= static_cast<uint64_t>(k);
  if (l.kind == LevelKind::GlobalBuffer) {
    l.banks *= k;
  } else if (l.row_bytes > INT_MAX / k) {
    throw ConfigError({source, 0, 0, l.name + ".row_width"},
                      "row_width x cores.count does not fit a row of the fused device");
  } else {
    l.row_bytes *= k;  // one row of the wider array: the cores' rows side by side
  }
  l.bandwidth *= k;
}

}  // namespace

Accelerator fusedDevice(const Accelerator& acc) {
  const int k = acc.cores.count;
  if (k == 1) return acc;
  Accelerator f = acc;
  for (auto& l : f.levels) widenLevel(l, k, acc.source);
  ComputeArray& a = f.array;
  if (a.kind == ArrayKind::Systolic && a.pipeline_latency < 0) {
    a.pipeline_latency = a.rows + a.cols - 2;
  }
  a.cols *= k;
  f.dma.bus_bytes_per_cycle *= k;
  f.dma.max_inflight *= k;
  f.noc.bandwidth *= k;  // 0 (unlimited) stays 0
  if (f.sfu) f.sfu->lanes *= k;
  f.cores.count = 1;
  return f;
}

Accelerator coreSharing(const Accelerator& acc, int busy) {
  if (busy < 1 || busy > acc.cores.count) {
    throw ConfigError({acc.source, 0, 0, "cores.count"},
                      std::to_string(busy) + " busy cores on an accelerator with " +
                          std::to_string(acc.cores.count) +
                          (acc.cores.count == 1 ? " core" : " cores") + ": give 1.." +
                          std::to_string(acc.cores.count));
  }
  Accelerator s = acc;
  for (auto& l : s.levels) {
    if (l.kind == LevelKind::DRAM || l.kind == LevelKind::L2) l.bandwidth /= busy;
  }
  return s;
}

}  // namespace tessel::arch
