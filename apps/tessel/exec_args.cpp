#include "apps/tessel/exec_args.h"

#include "arch/load.h"
#include "dataflows/plan.h"
#include "kernels/validation/memory_estimate.h"
#include "util/budget.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::app {

std::string fusionMode(const ExecArgs& e) {
  if (e.fuse && e.fusion_given && e.fusion != "epilogue")
    throw ConfigError({"", 0, 0, "--fuse"},
                      "the older spelling of --fusion epilogue contradicts --fusion " + e.fusion);
  const std::string mode = e.fuse ? "epilogue" : e.fusion;
  if (!e.fuse_like.empty() && mode == "none")
    throw ConfigError({"", 0, 0, "--fuse-like"},
                      "--fuse-like chooses what to fuse; it contradicts --fusion none");
  return mode;
}

kernels::ExecutorOptions executorOptions(const ExecArgs& e) {
  if (e.percentile_given && e.calibration != "percentile") {
    throw ConfigError({"", 0, 0, "--percentile"},
                      "--percentile applies to --calibration percentile (calibration is '" +
                          e.calibration + "')");
  }
  const std::string mode = fusionMode(e);
  kernels::ExecutorOptions o;
  o.fuse = mode != "none";
  o.fuse_attention = mode == "auto";
  o.integer_nonlinear = e.integer_nonlinear;
  o.low_precision_accumulate = e.low_precision_accumulate;
  if (!e.fuse_like.empty()) {
    const arch::Accelerator acc = arch::loadFile(e.fuse_like);
    o.fuse_kinds = dataflows::fuseRulesFor(acc).epilogue_kinds;
    // An accelerator that fuses nothing still must not fall back to "fuse everything".
    if (o.fuse_kinds.empty()) o.fuse = false;
    // Attention runs as one kernel only where the softmax runs beside the array, not on the host.
    o.fuse_attention = o.fuse_attention && acc.sfu && acc.sfu->supports("softmax");
  }
  return o;
}

}  // namespace tessel::app

namespace tessel::app {

void checkMemory(const models::Graph& graph, const std::string& command) {
  const auto need = static_cast<uint64_t>(kernels::estimateMemoryBytes(graph));
  const uint64_t have = budget::memoryBytes();  // the machine, or TESSEL_MEMORY_BUDGET
  if (have == 0 || need <= have) return;
  throw ConfigError({"", 0, 0, "--workload"},
                    command + " of " + graph.name + " would need about " +
                        units::formatBytes(need) + " of memory; " + budget::memoryText() +
                        ". Use a smaller --seq, --batch, --layers or workload");
}

}  // namespace tessel::app
