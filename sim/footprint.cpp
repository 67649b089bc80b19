#include "sim/footprint.h"

#include <algorithm>
#include <vector>

#include "util/checked.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::sim {

std::vector<bool> fusedTensors(const models::Graph& g,
                               const std::vector<dataflows::OpPlan>& plans) {
  std::vector<bool> on_chip(g.tensors().size(), false);
  for (const dataflows::OpPlan& p : plans) {
    if (!p.group || p.op->id == p.group->chain.last()) continue;
    for (int t : p.op->outputs) on_chip[static_cast<size_t>(t)] = true;
  }
  return on_chip;
}

Footprint dramFootprint(const models::Graph& g, const std::vector<bool>& on_chip) {
  Footprint f;
  const int n = static_cast<int>(g.ops().size());
  // delta[i]: bytes that become live at op i (+) or die after it (-, at i + 1).
  std::vector<int64_t> born(static_cast<size_t>(n) + 1, 0), dies(static_cast<size_t>(n) + 1, 0);
  for (const models::Tensor& t : g.tensors()) {
    auto what = [&] { return "the DRAM footprint of " + g.name; };
    if (t.role == models::TensorRole::Weight) f.weights = checked::add(f.weights, t.bytes(), what);
    if (t.role == models::TensorRole::Input) f.inputs = checked::add(f.inputs, t.bytes(), what);
    if (t.role != models::TensorRole::Activation) continue;
    if (static_cast<size_t>(t.id) < on_chip.size() && on_chip[static_cast<size_t>(t.id)]) continue;
    const int from = g.producerOf(t.id);
    if (from < 0) continue;
    const std::vector<int> readers = g.consumersOf(t.id);
    const int last = readers.empty() ? n - 1 : *std::max_element(readers.begin(), readers.end());
    born[static_cast<size_t>(from)] += t.bytes();
    dies[static_cast<size_t>(last) + 1] += t.bytes();
  }
  int64_t live = 0;
  for (int i = 0; i < n; ++i) {
    live = live - dies[static_cast<size_t>(i)] + born[static_cast<size_t>(i)];
    f.peak_activations = std::max(f.peak_activations, live);
  }
  checked::add(checked::add(f.weights, f.inputs, "the DRAM footprint"), f.peak_activations,
               "the DRAM footprint");
  return f;
}

namespace {

uint64_t nextPowerOfTwo(uint64_t v) {
  uint64_t p = 1;
  while (p < v && p < (uint64_t{1} << 63)) p <<= 1;
  return p;
}

}  // namespace

void checkFitsDram(const models::Graph& g, const arch::Accelerator& acc,
                   const std::vector<dataflows::OpPlan>* plans) {
  const uint64_t capacity = acc.levels.at(0).capacity_bytes;
  if (capacity == 0) return;
  const Footprint f = dramFootprint(g, plans ? fusedTensors(g, *plans) : std::vector<bool>{});
  if (static_cast<uint64_t>(f.total()) <= capacity) return;
  using units::formatBytes;
  throw InfeasibleError("workload " + g.name + " needs " +
                        formatBytes(static_cast<uint64_t>(f.total())) + " of DRAM (weights " +
                        formatBytes(static_cast<uint64_t>(f.weights)) + ", inputs " +
                        formatBytes(static_cast<uint64_t>(f.inputs)) + ", peak live activations " +
                        formatBytes(static_cast<uint64_t>(f.peak_activations)) +
                        "); dram.capacity is " + formatBytes(capacity) +
                        " (to time it anyway on a larger memory: -p 'dram.capacity=" +
                        formatBytes(nextPowerOfTwo(static_cast<uint64_t>(f.total()))) + "')");
}

}  // namespace tessel::sim
