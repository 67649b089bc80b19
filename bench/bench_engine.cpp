// Whole-workload analytical simulation on the shipped Gemmini default, mapping included.
// Target (issue): each well under 50 ms on one core.
#include <benchmark/benchmark.h>

#include "arch/load.h"
#include "models/workload.h"
#include "sim/run.h"

namespace {

using namespace tessel;

const arch::Accelerator& gemmini() {
  static const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  return acc;
}

void runWorkload(benchmark::State& state, const std::string& name, int64_t seq) {
  models::WorkloadOptions o;
  o.seq = seq;
  const auto df = dataflows::loadDataflow("ws");
  const models::Graph g = models::build(name, o);
  double cycles = 0;
  for (auto _ : state) {
    const sim::RunStats run = sim::simulate(g, gemmini(), df, sim::RunOptions{});
    cycles = run.totalCycles();
    benchmark::DoNotOptimize(cycles);
  }
  state.counters["ops"] = static_cast<double>(g.ops().size());
  state.counters["sim_cycles"] = cycles;
}

void BM_Gpt2SmallPrefill1024(benchmark::State& s) { runWorkload(s, "gpt2-small", 1024); }
void BM_Resnet50(benchmark::State& s) { runWorkload(s, "resnet50", 512); }
void BM_Gpt2XlPrefill1024(benchmark::State& s) { runWorkload(s, "gpt2-xl", 1024); }

// Building the graph too: what `tessel run` pays apart from YAML and printing.
void BM_Gpt2SmallBuildAndSimulate(benchmark::State& state) {
  models::WorkloadOptions o;
  o.seq = 1024;
  const auto df = dataflows::loadDataflow("ws");
  for (auto _ : state) {
    const models::Graph g = models::build("gpt2-small", o);
    benchmark::DoNotOptimize(sim::simulate(g, gemmini(), df, sim::RunOptions{}).totalCycles());
  }
}

// The mapper's growth is in closed form: a 1x1 array with 1 TiB memories on m = 2^34 once took
// 83 s growing one block at a time.
void BM_MapHugeCapacity(benchmark::State& state) {
  const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml",
                     {"array.rows=1", "array.cols=1", "scratchpad.capacity=1TiB",
                      "accumulator.capacity=1TiB", "dram.capacity=0B"});
  const auto df = dataflows::loadDataflow("ws");
  const models::Graph g = models::build("gemm:M=17179869184,K=1,N=1", models::WorkloadOptions{});
  for (auto _ : state) {
    benchmark::DoNotOptimize(sim::simulate(g, acc, df, sim::RunOptions{}).totalCycles());
  }
}

BENCHMARK(BM_Gpt2SmallPrefill1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet50)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gpt2XlPrefill1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gpt2SmallBuildAndSimulate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MapHugeCapacity)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
