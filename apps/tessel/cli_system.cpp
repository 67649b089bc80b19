// The options of the commands on systems of many chips.
#include "apps/tessel/cli_options.h"

namespace tessel::app::cli {

void addCollective(CLI::App& app, CollectiveArgs& c, std::function<int()>& action, std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "collective", "time one collective on a system's interconnect: algorithm, steps, bytes per link");
  cmd->add_option("--system", c.system, "system YAML (chips, topology, links)")->required();
  cmd->add_option("-p,--param", c.overrides, "override a key of the system's YAML");
  cmd->add_option("--op", c.op,
                  "all-reduce, all-gather, reduce-scatter, all-to-all, send-recv or broadcast")
      ->capture_default_str();
  cmd->add_option("--bytes", c.bytes,
                  "each rank's buffer (nccl-tests' size), or FROM..TO for a curve doubling from FROM")
      ->capture_default_str();
  cmd->add_option("--group", c.group, "chips taking part, the first in the topology's order (default all)")
      ->check(CLI::Range(int64_t{1}, int64_t{65536}));
  cmd->add_option("--algorithm", c.algorithm,
                  "ring, bidirectional-ring, double-binary-tree, tree, halving-doubling, direct, "
                  "pairwise, scatter-allgather, dimension-ordered, hierarchical (default: the cheapest)");
  cmd->add_option("--engine", c.engine,
                  "analytical (the step model), systemc (the steps executed on the SystemC fabric, "
                  "messages on a link waiting their turn) or both (side by side, the ratio)")
      ->check(CLI::IsMember({"analytical", "systemc", "both"}))
      ->capture_default_str();
  cmd->add_option("--json", c.json_path, "write the result as JSON");
  cmd->add_flag("-q,--quiet", c.quiet, "no table on stdout");
  cmd->callback([&] { action = [&] { return tessel::app::collectiveCommand(c, out); }; });
}

}  // namespace tessel::app::cli
