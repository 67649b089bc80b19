// SCALE-Sim's two inputs: a topology CSV, then optionally a line "#--cfg" and a SCALE-Sim .cfg.
// The topology is imported as `--workload FILE.csv` is and timed by the scalesim engine (all of
// SCALE-Sim's assumptions, as `--engine scalesim`) on the design the .cfg converts to, else on
// the shipped Gemmini default. A finding is any exception but ConfigError / InfeasibleError, an
// imported layer whose MACs are not its GEMM view's, or a run's impossible number (run_checks.h).
#include <optional>
#include <string>

#include "apps/tessel/commands.h"
#include "arch/load.h"
#include "arch/scalesim_config.h"
#include "fuzz/fuzz_one.h"
#include "fuzz/run_checks.h"
#include "models/scalesim/topology.h"
#include "sim/run.h"
#include "util/error.h"

using tessel::fuzz::require;

int fuzzOne(const uint8_t* data, size_t size) {
  namespace t = tessel;
  static const t::arch::Accelerator gemmini =
      t::arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n#--cfg\n";
  const size_t cut = text.find(marker);
  try {
    std::optional<t::arch::Accelerator> imported;
    if (cut != std::string::npos) {
      const t::arch::ScalesimImport cfg =
          t::arch::convertScalesimConfig(text.substr(cut + marker.size()), "fuzz.cfg");
      imported = t::arch::loadString(cfg.yaml, "fuzz.cfg (as imported)", {});
    }
    const t::arch::Accelerator& acc = imported ? *imported : gemmini;
    t::models::WorkloadOptions o;
    o.dtype = acc.array.input_dtype;
    const t::models::Graph g =
        t::models::scalesim::parseTopology(text.substr(0, cut), "fuzz.csv", o);
    require(!g.ops().empty());
    for (const auto& op : g.ops())
      require(op.isGemmLike() && op.macs == op.gemm.macs() && op.macs > 0);
    t::sim::RunOptions r;
    r.engine = "scalesim";
    r.plan.mapper = "gemmini-auto";  // what `tessel run --engine scalesim` plans with
    t::fuzz::checkRun(t::sim::simulate(g, acc, t::app::pickDataflow("", acc), r));
  } catch (const t::ConfigError&) {
  } catch (const t::InfeasibleError&) {
  }
  return 0;
}
