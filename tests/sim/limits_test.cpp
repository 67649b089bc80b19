// The numbers a run reports are always possible ones: utilization against the real peak, no
// wrapped counts, no NaN, and a design that cannot hold the workload is refused with the numbers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/footprint.h"
#include "sim/run.h"
#include "tech/technology.h"
#include "tests/util/error_of.h"
#include "util/error.h"

namespace tessel {
namespace {

using tessel::testing::errorOf;
using ::testing::HasSubstr;

arch::Accelerator gemmini(const std::vector<std::string>& overrides = {}) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml",
                        overrides);
}

sim::RunStats run(const arch::Accelerator& acc, const std::string& workload,
                  DType dtype = DType::Int8, int64_t seq = 64) {
  models::WorkloadOptions o;
  o.seq = seq;
  o.dtype = dtype;
  const models::Graph g = models::build(workload, o);
  return sim::simulate(g, acc, dataflows::loadDataflow("ws"), {});
}

TEST(SimLimits, UtilizationIsAgainstTheDtypesRealPeak) {
  // Two int8 MACs per PE per cycle: the peak is 2 x 256 MACs/cycle, and the op's utilization is
  // its MACs over cycles x that peak, never above 1.
  const auto acc = gemmini({"array.throughput={int8: 2}"});
  const sim::RunStats r = run(acc, "gemm:M=512,K=512,N=512");
  ASSERT_EQ(r.ops.size(), 1u);
  const sim::OpStats& op = r.ops[0];
  EXPECT_NEAR(op.utilization, static_cast<double>(op.macs) / (op.cycles * 256 * 2), 1e-12);
  EXPECT_LE(op.utilization, 1.0);
  EXPECT_LE(r.utilization(), 1.0);
  // A host-run op leaves the array idle: utilization 0 (fp32 has no MACs on this array).
  const sim::RunStats host = run(gemmini(), "gemm:M=64,K=64,N=64", DType::FP32);
  EXPECT_EQ(host.ops[0].utilization, 0.0);
}

TEST(SimLimits, CountsThatWouldWrapAreBadInputNamingTheValue) {
  // 2^31 x 2^31 inputs are 2^62 bytes (countable) but the re-reads pass 2^62: refused, not
  // printed negative.
  EXPECT_THAT(errorOf([] { run(gemmini(), "gemm:M=2147483648,K=2147483648,N=1"); }),
              HasSubstr("beyond what tessel's 64-bit counters hold"));
  // 2^63 - 1 fp32 elements cannot even be a tensor.
  EXPECT_THAT(errorOf([] { run(gemmini(), "gemm:M=9223372036854775807,K=1,N=1", DType::FP32); }),
              HasSubstr("the bytes of tensor 'input' [1x9223372036854775807x1]"));
}

TEST(SimLimits, AHugeArrayGivesFiniteNumbers) {
  // 65536 x 65536 PEs: rows x cols overflows 32 bits; every figure must stay finite.
  const auto acc = gemmini({"array.rows=65536", "array.cols=65536", "scratchpad.capacity=64GiB",
                            "accumulator.capacity=64GiB"});
  const sim::RunStats r = run(acc, "gemm:M=64,K=64,N=64");
  EXPECT_EQ(r.pes, int64_t{1} << 32);
  EXPECT_TRUE(std::isfinite(r.totalCycles()));
  EXPECT_GT(r.totalCycles(), 0);
  EXPECT_TRUE(std::isfinite(r.utilization()));
  EXPECT_LE(r.utilization(), 1.0);
}

TEST(SimLimits, ADramSmallerThanTheWorkloadIsInfeasible) {
  // gemm M=4, K=8, N=2 in int8: weight 8 x 2 = 16 B, graph input 4 x 8 = 32 B, one activation
  // (the output) 4 x 2 = 8 B alive at the end: 56 B in all.
  models::WorkloadOptions o;
  o.dtype = DType::Int8;
  const models::Graph g = models::build("gemm:M=4,K=8,N=2", o);
  const sim::Footprint f = sim::dramFootprint(g);
  EXPECT_EQ(f.weights, 16);
  EXPECT_EQ(f.inputs, 32);
  EXPECT_EQ(f.peak_activations, 8);
  EXPECT_NO_THROW(sim::checkFitsDram(g, gemmini({"dram.capacity=56B"})));
  try {
    sim::checkFitsDram(g, gemmini({"dram.capacity=55B"}));
    FAIL() << "55 B of DRAM accepted";
  } catch (const InfeasibleError& e) {
    EXPECT_THAT(e.what(), HasSubstr("needs 56 B of DRAM (weights 16 B, inputs 32 B, peak live "
                                    "activations 8 B); dram.capacity is 55 B"));
  }
}

TEST(SimLimits, OnlyActivationsAliveAtOnceCount) {
  // GPT-2's peak live set is far below the sum of all its activations: the liveness scan frees
  // each one after its last reader.
  models::WorkloadOptions o;
  o.seq = 64;
  const models::Graph g = models::build("gpt2-small", o);
  int64_t all = 0;
  for (const auto& t : g.tensors()) {
    if (t.role == models::TensorRole::Activation) all += t.bytes();
  }
  const sim::Footprint f = sim::dramFootprint(g);
  EXPECT_GT(f.peak_activations, 0);
  EXPECT_LT(f.peak_activations * 10, all);
}

TEST(SimLimits, HostEnergyIsCharged) {
  // fp32 on an int8 array: the GEMM runs on the host; 2 x 64^3 FLOPs at host.energy_per_flop
  // (6.7 pJ) plus its bytes at host.energy_per_byte (the DRAM's read energy: 8 x ddr3's pJ/bit,
  // gemmini-default's memory type).
  const sim::RunStats r = run(gemmini(), "gemm:M=64,K=64,N=64", DType::FP32);
  double host = -1;
  for (const auto& [component, pj] : r.ops[0].energy_pj) {
    if (component == "host") host = pj;
  }
  const double flops = 2.0 * 64 * 64 * 64;
  const double bytes = 4.0 * (64 * 64 + 64 * 64 + 64 * 64);  // inputs + weights + output
  EXPECT_NEAR(host, flops * 6.7 + bytes * 8 * tech::dramPjPerBit("ddr3"), 1e-6 * host);
}

TEST(SimLimits, AnOverrideOfAnAnchoredValueLeavesItsAliasesAlone) {
  const std::string yaml =
      "name: t\nclock: 1 GHz\n"
      "dram: {bandwidth: &bw 16 B/cycle, latency: 100 ns}\n"
      "scratchpad: {capacity: 256 KiB, banks: 4}\n"
      "accumulator: {capacity: 64 KiB, banks: 2}\n"
      "dma: {bus_width: *bw}\n"
      "array: {rows: 16, cols: 16, dataflows: [ws]}\n";
  const auto acc = arch::loadString(yaml, "t.yaml", {"dram.bandwidth=64 B/cycle"});
  EXPECT_EQ(acc.levels[0].bandwidth, 64);
  EXPECT_EQ(acc.dma.bus_bytes_per_cycle, 16);
}

}  // namespace
}  // namespace tessel
