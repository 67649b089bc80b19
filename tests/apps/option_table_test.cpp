// One spelling per option: every subcommand's options checked against one table of canonical
// names and meanings. A concept spelled two ways (compare's --workloads beside everyone's
// --workload) or an option with no help text fails here.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "apps/tessel/cli.h"
#include "apps/tessel/cli_options.h"

namespace {

// Canonical long name -> (meaning, aliases accepted beside it). A meaning appears once.
struct Canonical {
  const char* meaning;
  std::set<std::string> aliases;
};

const std::map<std::string, Canonical>& table() {
  static const std::map<std::string, Canonical> t = {
      {"--arch", {"accelerator YAML file", {}}},
      {"--workload", {"the workload(s) to run", {"--workloads"}}},
      {"--dataflow", {"the dataflow(s): a name or a YAML file", {"--dataflows"}}},
      {"--mapper", {"the mapper", {}}},
      {"--budget", {"cost evaluations per layer for the search", {}}},
      {"--objective", {"what the mapper minimizes", {}}},
      {"--latency-tolerance", {"latency slack the objective may trade", {}}},
      {"--engine", {"the timing engine", {}}},
      {"--param", {"override a YAML key", {}}},
      {"--json", {"write JSON", {}}},
      {"--csv", {"write CSV", {}}},
      {"--output", {"the file or folder a command writes", {"--out"}}},
      {"--quiet", {"no table on stdout", {}}},
      {"--seq", {"sequence / KV length", {}}},
      {"--batch", {"batch size (or requests per job)", {}}},
      {"--phase", {"prefill or decode", {}}},
      {"--image", {"image height = width", {}}},
      {"--dtype", {"tensor dtype", {}}},
      {"--all-logits", {"LM head on every position", {}}},
      {"--layers", {"blocks 0..N-1 only", {}}},
      {"--dim", {"bind an ONNX symbolic dimension", {}}},
      {"--strict", {"an unmodeled op is an error", {}}},
      {"--expert-load", {"share of routed tokens per expert", {}}},
      {"--sparsity", {"sparse weights and inputs of matmuls and convolutions", {}}},
      {"--precision-plan", {"a per-op dtype plan file", {"--plan"}}},
      {"--precision", {"the number formats to validate", {}}},
      {"--seed", {"random seed", {}}},
      {"--tolerance", {"allowed error", {}}},
      {"--top", {"rows or points to show", {}}},
      {"--resume", {"continue an interrupted run", {}}},
      {"--percentile", {"error percentile", {}}},
      {"--metric", {"error metric", {}}},
      {"--calibration", {"calibration inputs", {}}},
      {"--from", {"the precision searched from", {}}},
      {"--to", {"the precisions searched", {}}},
      {"--integer-nonlinear", {"integer-only nonlinear kernels", {}}},
      {"--fusion", {"what to fuse: none, epilogue or auto", {}}},
      {"--fuse", {"run fusion groups as one kernel", {}}},
      {"--fuse-like", {"fuse what a design fuses", {}}},
      {"--no-fuse", {"no fusion", {}}},
      {"--low-precision-accumulate", {"accumulate in the low precision", {}}},
      {"--accesses", {"per-level access counts", {}}},
      {"--dry-run", {"list what would run", {}}},
      {"--emit-mapping", {"write the mappings as map.yaml", {}}},
      {"--mapping", {"a pinned mapping file", {}}},
      {"--ideal-memory", {"no memory stalls", {}}},
      {"--scalesim-report", {"SCALE-Sim style reports", {}}},
      {"--scalesim-timing", {"SCALE-Sim's timing", {}}},
      {"--trace", {"write a Chrome trace", {}}},
      {"--table", {"which table to print", {}}},
      {"--title", {"report title", {}}},
      {"--workers", {"host worker counts", {}}},
      {"--cores", {"how cores serve", {}}},
      {"--prefill-cores", {"cores that prefill", {}}},
      {"--rate", {"arrival rate(s)", {}}},
      {"--closed-loop", {"closed-loop arrivals", {}}},
      {"--arrivals", {"arrival process or trace", {}}},
      {"--prompt-len", {"prompt tokens", {}}},
      {"--output-len", {"output tokens", {}}},
      {"--max-batch", {"sequences per iteration", {}}},
      {"--max-tokens", {"new tokens per iteration", {}}},
      {"--chunk", {"prompt tokens per iteration", {}}},
      {"--kv-block", {"tokens per KV block", {}}},
      {"--kv-budget", {"KV cache size", {}}},
      {"--slo", {"service objectives", {}}},
      {"--priority", {"scheduler priority", {}}},
      {"--preemption", {"what a full KV cache does", {}}},
      {"--prefix-caching", {"reuse of shared prompt prefixes' KV blocks", {}}},
      {"--step-overhead", {"host time per iteration", {}}},
      {"--sequence-overhead", {"host time per sequence of an iteration", {}}},
      {"--exact", {"simulate every shape", {}}},
      {"--compare-measured", {"score the model against a measured run", {}}},
      {"--requests", {"requests per configuration", {}}},
      {"--jitter", {"service-time variation", {}}},
      {"--submit-queue", {"submit queue depth", {}}},
      {"--receive-queue", {"receive queue depth", {}}},
      {"--host-cpus", {"host CPUs", {}}},
      {"--input-dtype", {"request input dtype", {}}},
      {"--output-dtype", {"response output dtype", {}}},
      {"--layout", {"request image layout", {}}},
      {"--no-variants", {"skip the dtype variants", {}}},
      {"--system", {"system YAML (chips and their interconnect)", {}}},
      {"--tp", {"tensor-parallel chips", {}}},
      {"--pp", {"pipeline stages", {}}},
      {"--ep", {"expert-parallel chips", {}}},
      {"--dp", {"replicas", {}}},
      {"--parallel", {"the split given or searched", {}}},
      {"--overlap", {"what communication hides behind compute", {}}},
      {"--op", {"the collective", {}}},
      {"--bytes", {"message size or range", {}}},
      {"--group", {"chips in a collective", {}}},
      {"--algorithm", {"the collective algorithm", {}}},
      {"--help", {"help", {}}},
      {"--version", {"version", {}}},
  };
  return t;
}

// tessel's whole command line, built as runCli builds it.
struct Cli {
  CLI::App app{"tessel"};
  tessel::app::cli::CliArgs args;
  std::function<int()> action;
  std::ostringstream out;
  Cli() {
    app.set_version_flag("--version", "tessel");
    tessel::app::cli::addCommands(app, args, action, out);
  }
};

struct Seen {
  std::string command, option;
};

void walk(const CLI::App& app, const std::string& path, std::vector<Seen>& out,
          std::vector<std::string>& problems) {
  for (const CLI::Option* o : app.get_options()) {
    const std::vector<std::string>& longs = o->get_lnames();
    if (longs.empty()) continue;  // positionals
    const std::string name = "--" + longs.front();
    out.push_back({path, name});
    if (o->get_description().empty() && name != "--help" && name != "--version") {
      problems.push_back(path + " " + name + " has no help text");
    }
    const auto it = table().find(name);
    if (it == table().end()) {
      problems.push_back(path + " " + name +
                         ": not in the option table (a new concept gets a row; a concept "
                         "already there keeps its spelling)");
      continue;
    }
    for (size_t i = 1; i < longs.size(); ++i) {
      if (!it->second.aliases.count("--" + longs[i])) {
        problems.push_back(path + " " + name + ": alias --" + longs[i] + " is not in the table");
      }
    }
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    walk(*sub, path + " " + sub->get_name(), out, problems);
  }
}

TEST(OptionTable, EverySubcommandSpellsEachConceptOneWayWithHelp) {
  std::set<std::string> meanings;
  std::set<std::string> aliases;
  for (const auto& [name, c] : table()) {
    EXPECT_TRUE(meanings.insert(c.meaning).second) << "meaning listed twice: " << c.meaning;
    for (const std::string& a : c.aliases) {
      EXPECT_EQ(table().count(a), 0u) << a << " is both an alias and a canonical name";
      EXPECT_TRUE(aliases.insert(a).second) << a << " aliases two options";
    }
  }
  Cli cli;
  CLI::App& app = cli.app;
  std::vector<Seen> seen;
  std::vector<std::string> problems;
  walk(app, "tessel", seen, problems);
  EXPECT_GT(seen.size(), 100u);  // the walk reached every subcommand
  for (const std::string& p : problems) ADD_FAILURE() << p;
}

// compare takes the spelling every other command uses, the plural as an alias.
TEST(OptionTable, CompareTakesTheSingularRepeatedOrCommaSeparated) {
  Cli cli;
  CLI::App& app = cli.app;
  tessel::app::cli::CliArgs& args = cli.args;
  app.parse("compare --arch a.yaml --dataflow ws --workload gpt2 --workloads resnet50,bert", false);
  EXPECT_EQ(args.compare.workloads_text, "gpt2,resnet50,bert");
  EXPECT_EQ(args.compare.dataflows, std::vector<std::string>{"ws"});
}

// An error blaming an option the user did not write says so and gives the default it came from.
TEST(OptionTable, AnErrorOnAnOptionNotGivenSaysItWasTheDefault) {
  Cli cli;
  CLI::App& app = cli.app;
  app.parse("run --arch a.yaml --workload gpt2 --batch 2", false);
  const tessel::ConfigError seq({"", 0, 0, "--seq"}, "seq 4096 exceeds the context");
  const std::string blamed = tessel::app::cli::blameGiven(app, seq).what();
  EXPECT_EQ(blamed.rfind("--seq (not given; the default ", 0), 0u) << blamed;
  EXPECT_NE(blamed.find("): seq 4096 exceeds the context"), std::string::npos) << blamed;
  const tessel::ConfigError batch({"", 0, 0, "--batch"}, "too large");
  EXPECT_EQ(std::string(tessel::app::cli::blameGiven(app, batch).what()), "--batch: too large");
}

// A misspelled option that leaves a required one missing is reported as what it is, with the
// spelling the subcommand takes, not as the required option missing.
TEST(OptionTable, AMisspelledRequiredOptionIsNamedNotReportedMissing) {
  const char* argv[] = {"tessel", "xval", "--arch", "a.yaml", "--workloads", "gpt2"};
  std::ostringstream out, err;
  EXPECT_EQ(tessel::app::runCli(6, argv, out, err), 2);
  EXPECT_NE(err.str().find("xval: unknown option '--workloads'; did you mean '--workload'?"),
            std::string::npos)
      << err.str();
  EXPECT_EQ(err.str().find("is required"), std::string::npos) << err.str();
}

}  // namespace
