// The SystemC transaction engine's speed: whole workloads planned once, then timed by
// `--engine systemc`; simulated accelerator cycles per wall second, one core. Target (issue):
// GPT-2 small prefill 512 on gemmini-default under 30 s, and at least 1,000x the cycles per
// second of the clocked PE grid (bench_pe_grid).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/host_conversions.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "sim/run.h"
#include "sim/systemc/systemc_engine.h"

namespace {

using namespace tessel;

void timeOne(const std::string& config, const std::string& workload, int64_t seq) {
  const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + config + ".yaml");
  const auto df = dataflows::loadDataflow(acc.array.dataflows.front());
  models::WorkloadOptions wo;
  wo.seq = seq;
  wo.dtype = acc.array.input_dtype;
  const models::Graph g = dataflows::withHostConversions(models::build(workload, wo), acc);
  sim::RunOptions o;
  o.plan.mapper = "search";
  const auto plans = dataflows::plan(g, acc, df, o.plan);
  o.engine = "systemc";
  const auto t0 = std::chrono::steady_clock::now();
  const sim::RunStats run = sim::evaluatePlans(g, acc, df, plans, o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-22s %-12s seq %-5lld %8.2f s  %16.0f cycles  %12.3g cycles/s\n", config.c_str(),
              workload.c_str(), static_cast<long long>(seq), wall, run.totalCycles(),
              run.totalCycles() / wall);
}

}  // namespace

namespace {
// SystemC prints its banner before sc_main runs unless this is set.
const bool kQuietSystemc = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

extern "C" int sc_main(int, char**) {
  tessel::sim::systemc::registerEngine();
  std::printf("SystemC engine, plans made beforehand (mapping time excluded), one core\n");
  timeOne("gemmini-default", "gpt2-small", 512);
  timeOne("gemmini-default", "resnet50", 512);
  timeOne("eyeriss-like", "resnet50", 512);
  timeOne("gemmini-survey-model", "gpt2-small", 512);
  return 0;
}
