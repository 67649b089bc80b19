#include "fixtures.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>

namespace tessel::kernels::testing {

models::Graph smallGraph(const std::string& workload, int64_t seq, int64_t layers,
                         const std::string& phase) {
  models::WorkloadOptions o;
  o.seq = seq;
  o.layers = workload == "resnet50" ? 0 : layers;
  o.image = 32;
  o.phase = phase;
  o.dtype = DType::FP32;
  return models::build(workload, o);
}

models::Graph manyRows(const std::string& workload) {
  models::WorkloadOptions o;
  o.seq = 16;
  o.layers = workload == "resnet50" ? 0 : 1;
  o.image = 32;
  o.batch = workload == "resnet50" ? 4 : 1;
  o.all_logits = workload != "resnet50";
  o.dtype = DType::FP32;
  return models::build(workload, o);
}

WeightStore& store() {
  static WeightStore s{SyntheticData(1)};
  return s;
}

const ReferenceRun& reference(const models::Graph& graph) {
  static std::map<std::string, std::unique_ptr<ReferenceRun>> cache;
  // The name does not say everything (all_logits): add the output's shape and the op count.
  std::string key = graph.name + "|" + std::to_string(graph.ops().size());
  for (int64_t d : graph.tensor(graph.ops().back().outputs.at(0)).shape)
    key += "," + std::to_string(d);
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<ReferenceRun>(runReference(graph, store()));
  return *slot;
}

std::unordered_map<std::string, std::shared_ptr<const Tensor>> runAll(
    const models::Graph& lowered, const ExecutorOptions& options, const ReferenceRun& ref) {
  std::unordered_map<std::string, std::shared_ptr<const Tensor>> out;
  Executor exec(lowered, store(), options, &ref.ranges);
  exec.run([&](const models::Op& op, const std::shared_ptr<const Tensor>& t) {
    out[lowered.tensor(op.outputs.at(0)).name] = t;
  });
  return out;
}

::testing::AssertionResult sameBits(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    return ::testing::AssertionFailure() << "dtype or shape differs";
  if (a.quant.scale != b.quant.scale || a.quant.zero_point != b.quant.zero_point)
    return ::testing::AssertionFailure() << "quantization params differ";
  const size_t n = static_cast<size_t>(a.numel());
  const bool same = a.dtype() == DType::Int8    ? std::memcmp(a.i8(), b.i8(), n) == 0
                    : a.dtype() == DType::Int32 ? std::memcmp(a.i32(), b.i32(), 4 * n) == 0
                                                : std::memcmp(a.f32(), b.f32(), 4 * n) == 0;
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "values differ";
}

}  // namespace tessel::kernels::testing
