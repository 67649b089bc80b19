// What decides a GPU kernel's time beyond the roofline (configs/arch/h100-sxm-like.yaml): output
// tiles in waves over the SMs (fanout.split_reduction: false), the HBM bandwidth a kernel
// sustains (dram.efficiency) and a launch per kernel (controller.launch_latency); and the GPU
// design never faster than its compute or bandwidth bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "arch/bandwidth.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"
#include "tests/sim/tiny_arch.h"
#include "util/error.h"

namespace tessel {
namespace {

// Four instances (SMs) under one buffer, each a 2 x 2 output-stationary array (a tile of
// 2 x 2 outputs per pass over K). Memory is ideal in these runs: only the array's passes count.
const char* kWaves = R"(name: waves
clock: 1 GHz
dram: {bandwidth: 1024 B/cycle, latency: 10 cycles}
global_buffer:
  capacity: 1 MiB
  banks: 16
  row_width: 64 B
  fanout: {instances: 4, multicast: true, split_reduction: SPLIT}
cluster_buffer: {capacity: 64 KiB, bandwidth: 1024 B/cycle}
dma: {bus_width: 4096 B/cycle, max_request: 64 B, max_inflight: 4096}
array: {kind: spatial, rows: 2, cols: 2, dataflows: [os], register_file: {outputs: 4 B}}
noc: {kind: bus, multicast: true, reduction: true}
)";

arch::Accelerator wavesArch(bool split_reduction) {
  std::string yaml = kWaves;
  yaml.replace(yaml.find("SPLIT"), 5, split_reduction ? "true" : "false");
  return arch::loadString(yaml, "waves.yaml");
}

sim::RunStats runOf(const arch::Accelerator& a, const std::string& workload, bool ideal,
                    const std::string& dataflow = "os") {
  models::WorkloadOptions o;
  o.dtype = a.array.input_dtype;  // as the command line builds it: the design's dtype
  const models::Graph g = models::build(workload, o);
  sim::RunOptions r;
  r.engine_options.ideal_memory = ideal;
  r.plan.mapper = "search";  // as the command line maps
  r.plan.fusion = dataflows::FusionMode::Auto;
  return sim::simulate(g, a, dataflows::loadDataflow(dataflow), r);
}

// M x 2 outputs are M / 2 tiles of 2 x 2; each instance takes whole tiles, 4 at a time, and a
// tile is K = 512 cycles of MACs. Tiles 4 -> 1 wave (512), 5 -> 2 (1,024), 8 -> 2, 9 -> 3
// (1,536): ceil(tiles / 4) x 512.
TEST(GpuMechanisms, OutputTilesRunInWavesOverTheInstances) {
  const arch::Accelerator a = wavesArch(false);
  for (int64_t m : {8, 10, 16, 18}) {
    const int64_t tiles = m / 2;
    const double waves = static_cast<double>((tiles + 3) / 4);
    const auto run = runOf(a, "gemm:M=" + std::to_string(m) + ",K=512,N=2", true);
    EXPECT_DOUBLE_EQ(run.totalCycles(), waves * 512) << "M=" << m;
  }
}

// Allowed to share K, the four instances split it (each sums a quarter of every output):
// 5 tiles x 512 / 4 = 640 cycles, no wave left over.
TEST(GpuMechanisms, SplittingTheReductionHidesTheWaves) {
  const auto run = runOf(wavesArch(true), "gemm:M=10,K=512,N=2", true);
  EXPECT_DOUBLE_EQ(run.totalCycles(), 640);
}

// A mapping that splits K over instances that compute whole outputs is refused by name.
TEST(GpuMechanisms, AReductionSplitIsInvalidWhenInstancesOwnOutputs) {
  const arch::Accelerator a = wavesArch(false);
  EXPECT_EQ(a.levels[1].fanout.split_reduction, false);
  EXPECT_THROW(arch::loadString(std::string(kWaves).replace(std::string(kWaves).find("SPLIT"), 5, "maybe"),
                                "waves.yaml"),
               ConfigError);
}

// dram.efficiency scales the off-chip rate: 1,024 B/cycle x 0.5 = 512, named as the limit.
TEST(GpuMechanisms, DramEfficiencyScalesTheOffChipRate) {
  arch::Accelerator a = wavesArch(false);
  a.levels[0].efficiency = 0.5;
  const arch::OffChipBandwidth bw = arch::offChipBandwidth(a);
  EXPECT_DOUBLE_EQ(bw.bytes_per_cycle, 512);
  EXPECT_EQ(bw.limit, "dram.efficiency");
  std::string yaml = kWaves;
  yaml.replace(yaml.find("SPLIT"), 5, "false");
  for (const char* bad : {"0", "1.5", "-0.2"}) {
    EXPECT_THROW(arch::loadString(yaml, "waves.yaml", {std::string("dram.efficiency=") + bad}),
                 ConfigError)
        << bad;
  }
}

// One kernel per op the device runs: a GEMM is one launch (its relu an epilogue in the same
// kernel), so the launch adds exactly 1,000 cycles, charged as host time.
TEST(GpuMechanisms, ALaunchPerKernel) {
  arch::Accelerator a = testing::tinyArch(4);
  const auto base = runOf(a, "gemm:M=64,K=64,N=64", false, "ws");
  a.controller.launch_cycles = 1000;
  const auto launched = runOf(a, "gemm:M=64,K=64,N=64", false, "ws");
  EXPECT_DOUBLE_EQ(launched.totalCycles() - base.totalCycles(), 1000);
  const auto host = static_cast<size_t>(sim::Cause::Host);
  EXPECT_DOUBLE_EQ(launched.cyclesByCause()[host] - base.cyclesByCause()[host], 1000);
}

// Neither faster than the tensor cores at their peak nor than moving each operand through the
// HBM once at the bandwidth it sustains (bf16: 2 B an element), and within 2.5x of the larger.
TEST(GpuMechanisms, H100LikeNeverBeatsItsRoofline) {
  const arch::Accelerator a =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/h100-sxm-like.yaml");
  const double bw = arch::offChipBandwidth(a).bytes_per_cycle;
  EXPECT_NEAR(bw, 3.35e12 / 1.83e9 * 0.9, 1e-6);
  struct Gemm { int64_t m, k, n; };
  for (const Gemm g : {Gemm{16, 4096, 4096}, Gemm{4096, 4096, 4096}, Gemm{1, 4096, 11008},
                       Gemm{8448, 4096, 128}}) {
    const std::string w = "gemm:M=" + std::to_string(g.m) + ",K=" + std::to_string(g.k) +
                          ",N=" + std::to_string(g.n);
    const auto run = runOf(a, w, false);
    const double compute = static_cast<double>(g.m * g.k * g.n) / a.peakMacsPerCycle();
    const double bytes = 2.0 * static_cast<double>(g.m * g.k + g.k * g.n + g.m * g.n);
    const double bound = std::max(compute, bytes / bw) + a.controller.launch_cycles;
    EXPECT_GE(run.totalCycles(), bound) << w;
    EXPECT_LE(run.totalCycles(), 2.5 * bound) << w;
  }
  // Attention (the fused schedule): scores and context are 2 x S x T x H x D MACs; Q and the
  // output S x H x D each, K and V T x KV x D each, at least once through the HBM.
  struct Attention { int64_t s, t, h, kv, d; };
  for (const Attention at : {Attention{2048, 2048, 32, 32, 128}, Attention{1, 4096, 32, 32, 128},
                             Attention{16, 2048, 64, 8, 128}}) {
    const std::string w = "attention:S=" + std::to_string(at.s) + ",T=" + std::to_string(at.t) +
                          ",H=" + std::to_string(at.h) + ",KV=" + std::to_string(at.kv) +
                          ",D=" + std::to_string(at.d) + ",causal=0";
    const auto run = runOf(a, w, false);
    const double macs = 2.0 * static_cast<double>(at.s * at.t * at.h * at.d);
    EXPECT_EQ(static_cast<double>(run.totalMacs()), macs) << w;
    const double bytes = 2.0 * static_cast<double>(2 * at.s * at.h * at.d + 2 * at.t * at.kv * at.d);
    const double bound = std::max(macs / a.peakMacsPerCycle(), bytes / bw) + a.controller.launch_cycles;
    EXPECT_GE(run.totalCycles(), bound) << w;
  }
}

}  // namespace
}  // namespace tessel
