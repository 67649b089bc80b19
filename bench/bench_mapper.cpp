// The searching mapper over whole networks: every layer of ResNet-50 and GPT-2 small (prefill
// 512) searched and simulated, on both cores. Target (issue): under 1 s each, within 1% of the
// best a 10x larger budget finds. `array_cycles` sums the ops mapped on the array; `vs_10x` is
// that sum over the 10x budget's (1.00 = as good; below 1 the larger budget's walk ended
// elsewhere).
#include <benchmark/benchmark.h>

#include <filesystem>

#include "arch/cores.h"
#include "arch/load.h"
#include "models/workload.h"
#include "sim/run.h"

namespace {

using namespace tessel;

// Cycles of the ops the mapper placed on the array (host-run ops would dilute the comparison).
double simulate(const models::Graph& g, const arch::Accelerator& acc,
                const dataflows::Dataflow& df, int64_t budget) {
  sim::RunOptions o;
  o.plan.mapper = "search";
  o.plan.mapper_options.budget = budget;
  double cycles = 0;
  for (const sim::OpStats& op : sim::simulate(g, acc, df, o).ops) {
    if (op.macs > 0 && op.placement == sim::Placement::Array) cycles += op.cycles;
  }
  return cycles;
}

void searchWorkload(benchmark::State& state, const std::string& config, const std::string& dataflow,
                    const std::string& workload) {
  const std::string path = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + config + ".yaml";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("no " + path).c_str());
    return;
  }
  const arch::Accelerator acc = arch::loadFile(path);
  const auto df = dataflows::loadDataflow(dataflow);
  models::WorkloadOptions wo;
  wo.seq = 512;
  wo.dtype = acc.array.input_dtype;
  const models::Graph g = models::build(workload, wo);
  const int64_t budget = dataflows::MapperOptions{}.budget;
  double cycles = 0;
  for (auto _ : state) {
    cycles = simulate(g, acc, df, budget);
    benchmark::DoNotOptimize(cycles);
  }
  state.counters["array_cycles"] = cycles;
  state.counters["vs_10x"] = cycles / simulate(g, acc, df, 10 * budget);
}

void BM_SearchResnet50GemminiWs(benchmark::State& s) {
  searchWorkload(s, "gemmini-default", "ws", "resnet50");
}
void BM_SearchGpt2SmallGemminiWs(benchmark::State& s) {
  searchWorkload(s, "gemmini-default", "ws", "gpt2-small");
}
void BM_SearchResnet50EyerissRs(benchmark::State& s) {
  searchWorkload(s, "eyeriss-like", "rs", "resnet50");
}
void BM_SearchGpt2SmallEyerissRs(benchmark::State& s) {
  searchWorkload(s, "eyeriss-like", "rs", "gpt2-small");
}
void BM_SearchResnet50ShiDianNaoOs(benchmark::State& s) {
  searchWorkload(s, "shidiannao-like", "os", "resnet50");
}

// Hierarchies: spatial factors searched at every fan-out too.
void BM_SearchResnet50SimbaWs(benchmark::State& s) {
  searchWorkload(s, "simba-like", "ws", "resnet50");
}
void BM_SearchGpt2SmallTpuV4iWs(benchmark::State& s) {
  searchWorkload(s, "tpu-v4i-like", "ws", "gpt2-small");
}

// Fusion across ops (--fusion auto): the whole network searched, then every attention and FFN
// chain's fused schedules searched and compared with the unfused plan. Target (issue): ≤ 2 s
// each. `dram_gib` is the run's DRAM traffic; `groups` the chains fused.
void fusedNetwork(benchmark::State& state, const std::string& config, const std::string& workload,
                  int64_t seq, bool fused_cores) {
  const std::string path = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + config + ".yaml";
  arch::Accelerator acc = arch::loadFile(path);
  if (fused_cores) acc = arch::fusedDevice(acc);
  const auto df = dataflows::loadDataflow(acc.array.dataflows.front());
  models::WorkloadOptions wo;
  wo.seq = seq;
  wo.dtype = acc.array.input_dtype;
  const models::Graph g = models::build(workload, wo);
  sim::RunOptions o;
  o.plan.mapper = "search";
  o.plan.fusion = dataflows::FusionMode::Auto;
  sim::RunStats run;
  for (auto _ : state) {
    run = sim::simulate(g, acc, df, o);
    benchmark::DoNotOptimize(run);
  }
  state.counters["dram_gib"] = static_cast<double>(run.bytesAt(run.level_names.front())) / (1 << 30);
  state.counters["groups"] = static_cast<double>(run.fusion_groups.size());
}

void BM_FusionLlama8bPrefill8192TpuV4(benchmark::State& s) {
  fusedNetwork(s, "tpu-v4-like", "llama-3.1-8b", 8192, true);
}
void BM_FusionResnet50Eyeriss(benchmark::State& s) {
  fusedNetwork(s, "eyeriss-like", "resnet50", 512, false);
}

}  // namespace

BENCHMARK(BM_FusionLlama8bPrefill8192TpuV4)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_FusionResnet50Eyeriss)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchResnet50GemminiWs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchGpt2SmallGemminiWs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchResnet50EyerissRs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchGpt2SmallEyerissRs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchResnet50ShiDianNaoOs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchResnet50SimbaWs)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SearchGpt2SmallTpuV4iWs)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
