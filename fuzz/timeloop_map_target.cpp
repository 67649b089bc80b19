// Pinned mappings (`tessel run --mapping FILE`), in Timeloop's map.yaml form or tessel's: the file
// (written to a per-process temp file, since the reader takes a path) pins the one op of a GEMM
// on the shipped Gemmini default (ws), of a conv on the Eyeriss-like design (rs) and of Timeloop's
// tutorial Conv1D on its design (tests/dataflows/data/timeloop), each then simulated. A finding is
// any exception but ConfigError / InfeasibleError, a run's impossible number (run_checks.h), or an
// accepted pin the op was not mapped with.
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/pinned_mapping.h"
#include "fuzz/fuzz_one.h"
#include "fuzz/run_checks.h"
#include "models/workload.h"
#include "sim/run.h"
#include "util/error.h"

namespace {

namespace t = tessel;

struct Setup {
  t::arch::Accelerator acc;
  t::dataflows::Dataflow dataflow;
  t::models::Graph graph;
};

// The op in the array's input dtype, as `tessel run` builds it (else the host would run it).
Setup setup(const std::string& arch, const std::string& dataflow, const std::string& workload) {
  const t::arch::Accelerator acc = t::arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/" + arch);
  t::models::WorkloadOptions o;
  o.dtype = acc.array.input_dtype;
  return {acc, t::dataflows::loadDataflow(dataflow), t::models::build(workload, o)};
}

void run(const Setup& s, const std::shared_ptr<const t::dataflows::PinnedMapping>& pin) {
  t::sim::RunOptions o;
  o.plan.pinned = pin;
  bool pinned = false;
  o.on_plans = [&](const std::vector<t::dataflows::OpPlan>& plans) {
    for (const auto& p : plans) pinned = pinned || p.mapping.mapper == "pinned";
  };
  t::fuzz::checkRun(t::sim::simulate(s.graph, s.acc, s.dataflow, o));
  t::fuzz::require(pinned);
}

}  // namespace

int fuzzOne(const uint8_t* data, size_t size) {
  static const std::vector<Setup> setups = {
      setup("configs/arch/gemmini-default.yaml", "ws", "gemm:M=64,N=64,K=64"),
      setup("configs/arch/eyeriss-like.yaml", "rs",
            "conv:H=16,W=16,R=3,S=3,C=16,K=32,stride=1,pad=1"),
      // Timeloop's tutorial design with a fan-out above cluster buffers (its maps are seeds).
      setup("tests/dataflows/data/timeloop/04-model-conv1d+oc-3levelspatial/arch.yaml", "rs",
            "conv:H=1,W=18,C=32,K=32,R=1,S=3")};
  static const std::string path = "/tmp/tessel_fuzz_map_" + std::to_string(getpid()) + ".yaml";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::shared_ptr<const t::dataflows::PinnedMapping> pin;
  try {
    pin = t::dataflows::loadPinnedMapping(path);
  } catch (const t::ConfigError&) {
    return 0;
  }
  for (const Setup& s : setups) {
    try {
      run(s, pin);
    } catch (const t::ConfigError&) {
    } catch (const t::InfeasibleError&) {
    }
  }
  return 0;
}
