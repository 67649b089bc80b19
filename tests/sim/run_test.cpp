// Whole-graph properties of simulate(): breakdowns add up, fusion and ideal memory behave.
#include "sim/run.h"

#include <gtest/gtest.h>

#include <numeric>

#include "models/precision.h"
#include "models/workload.h"
#include "tests/sim/tiny_arch.h"
#include "util/error.h"

namespace tessel {
namespace {

arch::Accelerator withSfu(int dim = 16) {
  auto a = testing::tinyArch(dim);
  a.levels[1].capacity_bytes = 256 * 1024;
  a.levels[2].capacity_bytes = 64 * 1024;
  a.array.epilogue_ops = {"relu", "residual_add", "maxpool"};
  a.sfu = arch::Sfu{{"softmax", "layernorm", "gelu", "add", "avgpool"}, 16, true, 1, 0};
  a.host.cycles_per_element.emplace_back("batchnorm", 2);  // when not folded into the conv
  return a;
}

sim::RunStats runOf(const arch::Accelerator& a, const std::string& w, bool ideal = false,
                    bool fuse = true, int64_t seq = 64) {
  models::WorkloadOptions o;
  o.seq = seq;
  o.image = 64;
  const models::Graph g = models::build(w, o);
  sim::RunOptions r;
  r.engine_options.ideal_memory = ideal;
  r.plan.fusion = fuse ? dataflows::FusionMode::Epilogue : dataflows::FusionMode::None;
  return sim::simulate(g, a, dataflows::loadDataflow("ws"), r);
}

TEST(SimRun, CausesSumToCyclesForEveryOp) {
  for (const char* w : {"gpt2-small", "bert-base", "resnet50"}) {
    const auto run = runOf(withSfu(), w);
    double total = 0;
    for (const auto& op : run.ops) {
      const double sum = std::accumulate(op.cycles_by_cause.begin(), op.cycles_by_cause.end(), 0.0);
      EXPECT_NEAR(sum, op.cycles, 1e-6 * std::max(1.0, op.cycles)) << w << " " << op.name;
      for (double c : op.cycles_by_cause) EXPECT_GE(c, -1e-9) << w << " " << op.name;
      total += op.cycles;
    }
    EXPECT_NEAR(total, run.totalCycles(), 1e-6 * total);
    EXPECT_EQ(run.totalMacs(), models::build(w,
                                             [] {
                                               models::WorkloadOptions o;
                                               o.seq = 64;
                                               o.image = 64;
                                               return o;
                                             }())
                                   .totalMacs());
  }
}

TEST(SimRun, IdealMemoryIsALowerBound) {
  const auto a = withSfu();
  const auto real = runOf(a, "gpt2-small");
  const auto ideal = runOf(a, "gpt2-small", true);
  EXPECT_LT(ideal.totalCycles(), real.totalCycles());
  EXPECT_DOUBLE_EQ(ideal.cyclesByCause()[static_cast<size_t>(sim::Cause::MemoryStall)], 0.0);
}

TEST(SimRun, FusionRemovesRoundTrips) {
  // ResNet-50: batch norm folds and relu fuses into the convs; unfused they run as separate
  // accumulator-path ops that each read and write their tensor.
  const auto a = withSfu();
  const auto fused = runOf(a, "resnet50");
  const auto unfused = runOf(a, "resnet50", false, false);
  EXPECT_LT(fused.totalCycles(), unfused.totalCycles());
  EXPECT_LT(fused.bytesAt("dram"), unfused.bytesAt("dram"));
  int fused_ops = 0;
  for (const auto& op : fused.ops) fused_ops += op.placement == sim::Placement::Fused;
  EXPECT_GE(fused_ops, 53);  // every conv's batch norm at least
}

TEST(SimRun, DeterministicAcrossRuns) {
  const auto a = withSfu();
  const auto r1 = runOf(a, "bert-base");
  const auto r2 = runOf(a, "bert-base");
  ASSERT_EQ(r1.ops.size(), r2.ops.size());
  for (size_t i = 0; i < r1.ops.size(); ++i) EXPECT_EQ(r1.ops[i].cycles, r2.ops[i].cycles);
}

TEST(SimRun, PrecisionPlansRunAtTheArraysRateForEachDtype) {
  // An array with INT8 at 1 MAC/PE/cycle and FP16 at 0.5: the same GEMM planned in FP16 has
  // exactly twice the ideal compute cycles; in FP32, which the array lacks, it runs on the host
  // at 2 FLOPs per MAC of host.flops (here 32 GFLOP/s on a 1 GHz accelerator clock).
  auto a = withSfu();
  a.array.macs_per_cycle = {{DType::Int8, 1.0}, {DType::FP16, 0.5}};
  a.host.flops = 32e9;
  const models::Graph g = models::build("gemm:M=256,K=256,N=256", models::WorkloadOptions{});
  auto timed = [&](DType d) {
    models::PrecisionPlan plan;
    plan.default_dtype = d;
    return sim::simulate(models::applyPrecision(g, plan), a, dataflows::loadDataflow("ws"),
                         sim::RunOptions{});
  };
  const auto int8 = timed(DType::Int8), fp16 = timed(DType::FP16), fp32 = timed(DType::FP32);
  const auto compute = [](const sim::RunStats& r) {
    return r.cyclesByCause()[static_cast<size_t>(sim::Cause::Compute)];
  };
  EXPECT_DOUBLE_EQ(compute(int8), 256.0 * 256 * 256 / 256);  // 65,536
  EXPECT_DOUBLE_EQ(compute(fp16), 2 * compute(int8));
  ASSERT_EQ(fp32.ops[0].placement, sim::Placement::Host);
  // 2 * 16.8M FLOPs / 32 GFLOP/s = 1.048576 ms = 1,048,576 cycles, plus the call overhead
  // (1000) and the link: 2 x 500 + (256 KiB of weights in + 256 KiB out) / 16 B/cycle = 33,768.
  // The input A, a graph input only the host reads, starts in host memory and crosses no link.
  EXPECT_DOUBLE_EQ(fp32.ops[0].cycles, 1048576.0 + 1000 + 1000 + 2.0 * 262144 / 16);
}

TEST(SimRegistry, EveryEngineIsRegistered) {
  const auto a = withSfu();
  const auto df = dataflows::loadDataflow("ws");
  ASSERT_FALSE(sim::engineNames().empty());
  for (const auto& name : sim::engineNames()) {
    EXPECT_EQ(sim::makeEngine(name, a, df, {})->name(), name);
  }
  EXPECT_THROW(sim::makeEngine("cycle-exact", a, df, {}), ConfigError);
}

}  // namespace
}  // namespace tessel
