// The options of the commands on systems of many chips.
#include "apps/tessel/cli_options.h"

namespace tessel::app::cli {

void addTarget(CLI::App* cmd, std::string& arch, std::string& system, const char* system_what,
               const std::vector<SplitOption>& splits) {
  cmd->add_option("--arch", arch, "accelerator YAML file (or --system)");
  cmd->add_option("--system", system, system_what);
  for (const SplitOption& o : splits) {
    cmd->add_option(o.name, *o.value, o.what)
        ->check(CLI::Range(int64_t{1}, int64_t{65536}))
        ->capture_default_str();
  }
}

void checkTarget(CLI::App* cmd, const std::vector<const char*>& splits, const std::string& why) {
  const bool system = cmd->count("--system") > 0;
  if ((cmd->count("--arch") > 0) == system)
    throw CLI::ValidationError("--arch, --system", "give one of --arch (one chip) and --system (many)");
  for (const char* split : splits) {
    if (!system && cmd->count(split) > 0) throw CLI::ValidationError(split, why);
  }
}

void addRunSplit(CLI::App* cmd, RunArgs& run) {
  addTarget(cmd, run.arch, run.system,
            "system YAML (chips, topology, links): a Hugging Face decoder split over its chips by "
            "--tp, --pp, --ep, --dp; -p then overrides the system's YAML",
            {{"--tp", &run.tp, "tensor-parallel chips (--system)"},
             {"--pp", &run.pp, "pipeline stages (--system)"},
             {"--ep", &run.ep, "expert-parallel chips: dividing --tp, or with --tp 1 (--system)"},
             {"--dp", &run.dp, "replicas (--system)"}});
  cmd->add_option("--parallel", run.parallel,
                  "manual (the split --tp, --pp, --ep, --dp give) or auto (every split the chips "
                  "allow that fits, the best under --objective)")
      ->check(CLI::IsMember({"manual", "auto"}))
      ->capture_default_str();
  cmd->add_option("--overlap", run.overlap,
                  "none (every collective exposed) or collective-matmul (tensor-parallel "
                  "all-reduces split and hidden behind the GEMMs around them) (--system)")
      ->check(CLI::IsMember({"none", "collective-matmul"}))
      ->capture_default_str();
}

void checkRunSplit(CLI::App* cmd, const RunArgs& run) {
  checkTarget(cmd, {"--tp", "--pp", "--ep", "--dp", "--parallel", "--overlap"},
              "splits a model over a system's chips: add --system");
  for (const char* split : {"--tp", "--pp", "--ep", "--dp"}) {
    if (run.parallel == "auto" && cmd->count(split) > 0)
      throw CLI::ValidationError(split, "--parallel auto searches the split; give no " + std::string(split));
  }
}

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
