// The tessel CLI: argument parsing only (CLI11 is confined to cli*.cpp and cli_options.h); each
// subcommand lives in its own cmd_*.cpp. Exit codes: 0 ok, 2 bad input (config, workload, options, outputs),
// 3 infeasible design (no mapping fits), 1 an internal error.
#include "apps/tessel/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <ostream>

#include "apps/tessel/cli_options.h"
#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "util/error.h"
#include "util/suggest.h"

namespace {

using namespace tessel::app::cli;
using tessel::app::RunArgs;
using tessel::app::WorkloadArgs;

// The functional executor's options, shared by validate and precision.
void addExecOptions(CLI::App* cmd, tessel::app::ExecArgs& e) {
  cmd->add_flag("--integer-nonlinear", e.integer_nonlinear,
                "INT8 GELU/softmax/LayerNorm with the I-BERT integer kernels");
  cmd->add_option("--fusion", e.fusion,
                  "none (every op alone), epilogue (a GEMM with the elementwise and row-wise ops "
                  "after it as one kernel), auto (epilogues, plus each attention chain as one "
                  "FlashAttention kernel)")
      ->check(CLI::IsMember({"none", "epilogue", "auto"}))
      ->capture_default_str();
  cmd->add_flag("--fuse", e.fuse, "the older spelling of --fusion epilogue");
  cmd->add_option("--fuse-like", e.fuse_like,
                  "accelerator YAML: fuse the epilogues `tessel run` fuses on it (and, with "
                  "--fusion auto, attention when its SFU runs softmax)");
  cmd->add_flag("--low-precision-accumulate", e.low_precision_accumulate,
                "FP16/BF16 GEMMs accumulate in their own format (slow)");
  cmd->add_option("--calibration", e.calibration, "INT8 activation ranges: minmax | percentile")
      ->capture_default_str();
  cmd->add_option("--percentile", e.percentile, "percentile of |x| for --calibration percentile")
      ->capture_default_str();
  cmd->add_option("--seed", e.seed, "seed of the synthetic weights and inputs (0 .. 2^64-1)")
      ->check(kSeed)
      ->capture_default_str();
}

void addValidate(CLI::App& app, tessel::app::ValidateArgs& v, std::function<int()>& action,
                 std::ostream& out) {
  CLI::App* cmd = app.add_subcommand("validate", "run a workload's numerics against FP32");
  cmd->add_option("--workload", v.workload.name,
                  "gpt2[-size], bert[-size], resnet50, gemm:.., conv:..")
      ->required();
  v.workload.seq = 128;  // short by default: the executor really computes every value
  addWorkloadOptions(cmd, v.workload, false);
  cmd->add_option("--precision", v.precision,
                  "a dtype (int8, bf16, fp8_e4m3, mxfp4, int4_g128_fp16 ...), a plan file "
                  "(.yaml/.yml/.json), mixed (with --plan), or a comma-separated list of them")
      ->capture_default_str();
  cmd->add_option("--precision-plan,--plan", v.plan, "per-op dtype plan (YAML/JSON from `tessel precision`)");
  addExecOptions(cmd, v.exec);
  cmd->add_option("--json", v.json_path, "write the per-op and output metrics as JSON");
  cmd->add_flag("-q,--quiet", v.quiet, "no table on stdout");
  cmd->callback([&, cmd] {
    v.workload.given = givenOptions(cmd);
    v.exec.percentile_given = cmd->count("--percentile") > 0;
    v.exec.fusion_given = cmd->count("--fusion") > 0;
    action = [&] { return tessel::app::validateCommand(v, out); };
  });
}

void addPrecision(CLI::App& app, tessel::app::PrecisionArgs& p, std::function<int()>& action,
                  std::ostream& out) {
  CLI::App* cmd = app.add_subcommand("precision", "search a per-op precision plan by sensitivity");
  cmd->add_option("--workload", p.workload.name,
                  "gpt2[-size], bert[-size], resnet50, gemm:.., conv:..")
      ->required();
  p.workload.seq = 128;
  addWorkloadOptions(cmd, p.workload, false);
  cmd->add_option("--tolerance", p.tolerance, "largest end-to-end output error allowed")
      ->required();
  cmd->add_option("--metric", p.metric, "rel_l2 | kl")->capture_default_str();
  cmd->add_option("--to", p.to,
                  "the lower formats, cheapest first: DTYPE or ACT/WEIGHTS, +SPARSITY prunes the weights (e.g. mxfp4,bf16+2:4,fp8_e4m3,bf16/int4_g128_fp16)")
      ->capture_default_str();
  cmd->add_option("--from", p.from, "what ops not lowered compute in")->capture_default_str();
  cmd->add_option("--arch", p.arch, "accelerator YAML: time the plan and each uniform format on it");
  cmd->add_option("-p,--param", p.overrides, "override a YAML key of --arch (repeatable)");
  cmd->add_option("--budget", p.budget, "mapper evaluations per op for --arch")->capture_default_str();
  addExecOptions(cmd, p.exec);
  cmd->add_option("-o,--output,--out", p.out_path, "write the plan YAML here (default: stdout)");
  cmd->add_flag("-q,--quiet", p.quiet, "no table on stdout");
  cmd->callback([&, cmd] {
    p.workload.given = givenOptions(cmd);
    p.exec.percentile_given = cmd->count("--percentile") > 0;
    p.exec.fusion_given = cmd->count("--fusion") > 0;
    action = [&] { return tessel::app::precisionCommand(p, out); };
  });
}

void addObjective(CLI::App* cmd, std::string& objective, double& latency_tolerance) {
  cmd->add_option("--objective", objective, "what the search minimizes: latency, energy, edp")
      ->check(CLI::IsMember({"latency", "energy", "edp"}))
      ->capture_default_str();
  cmd->add_option("--latency-tolerance", latency_tolerance,
                  "latency objective: mappings within this fraction of the fastest compete on energy")
      ->check(CLI::Validator(
          [](std::string& v) {  // CLI::Range lets nan through: every comparison with it is false
            return std::isfinite(std::strtod(v.c_str(), nullptr)) ? std::string()
                                                                  : "not a number: " + v;
          },
          "FINITE"))
      ->check(CLI::Range(0.0, 10.0))
      ->capture_default_str();
}

void addRun(CLI::App& app, RunArgs& run, std::function<int()>& action, std::ostream& out) {
  CLI::App* cmd = app.add_subcommand("run", "simulate a workload on an accelerator or a system of them");
  addRunSplit(cmd, run);  // --arch or --system, and the split (cli_system.cpp)
  cmd->add_option("--workload", run.workload.name,
                  "gpt2[-small|-medium|-large|-xl], bert[-base|-large], resnet50, "
                  "gemm:M=..,K=..,N=.., conv:H=..,W=..,C=..,K=..,R=..,S=..")
      ->required();
  addWorkloadOptions(cmd, run.workload);
  cmd->add_option("--dataflow", run.dataflow, "ws | os | is | rs | nlr | a dataflow YAML file");
  cmd->add_option("--cores", run.cores,
                  "a multi-core design: one (a core alone) or fused (every core as one device, "
                  "as tessel serve runs an LLM)")
      ->check(CLI::IsMember({"one", "fused"}))
      ->capture_default_str();
  cmd->add_option("--engine", run.engine,
                  "analytical (closed forms) or systemc (commands through SystemC modules)")
      ->capture_default_str();
  cmd->add_option("--mapper", run.mapper,
                  "search (explores the mappings the dataflow allows) or gemmini-auto (Gemmini's "
                  "tiling heuristic; the default under --scalesim-timing unless memory=tessel)")
      ->check(CLI::IsMember({"search", "gemmini-auto"}))
      ->capture_default_str();
  addObjective(cmd, run.objective, run.latency_tolerance);
  cmd->add_option("--budget", run.budget,
                  "cost evaluations per distinct layer for the search (0 = the whole space)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--mapping", run.mapping_path,
                  "a YAML file pinning one op's mapping: tessel's form or Timeloop's map.yaml "
                  "(docs/dataflows.md)");
  cmd->add_option("--emit-mapping", run.emit_mapping_path,
                  "write the pinned op's mapping, else every loop-nest mapping (one YAML document "
                  "per op), as Timeloop map.yaml; - = standard output, no table");
  cmd->add_option("-p,--param", run.overrides,
                  "override a YAML key: -p accumulator.capacity=256KiB");
  cmd->add_option("--precision-plan", run.precision_plan,
                  "per-op dtypes (YAML/JSON from `tessel precision`); converts where they change");
  cmd->add_option("--json", run.json_path,
                  "write the JSON report (reports/SCHEMA.md); - = standard output, no table");
  cmd->add_option("--csv", run.csv_path, "write one CSV row per op; - = standard output, no table");
  cmd->add_option("--trace", run.trace_path,
                  "write a Chrome trace-event JSON of every command (Perfetto); needs --engine "
                  "systemc");
  cmd->add_flag("--ideal-memory", run.ideal_memory, "infinite bandwidth, zero latency");
  cmd->add_option("--scalesim-timing", run.scalesim_timing,
                  "time conv/GEMM ops as SCALE-Sim v2 does (engine scalesim); optional knobs "
                  "change one assumption each: fold_overlap=off|on, drain=scalesim|tessel, "
                  "memory=ideal|tessel, other_ops=zero|tessel (docs/scalesim.md)")
      ->expected(0, 1);
  cmd->add_option("--scalesim-report", run.scalesim_report_dir,
                  "write SCALE-Sim's COMPUTE_REPORT.csv and BANDWIDTH_REPORT.csv (one row per "
                  "conv/GEMM layer) into this directory");
  addFusion(cmd, run.fusion);
  cmd->add_flag("--no-fuse", run.no_fuse, "the older spelling of --fusion none");
  cmd->add_option("--top", run.top, "ops in the top-ops table: a count (0 = none) or all")
      ->capture_default_str();
  cmd->add_flag("--accesses", run.accesses,
                "after the table, each array op's reads, fills and updates per level and tensor "
                "(words, as Timeloop counts them) and the bytes each network carried");
  cmd->add_flag("-q,--quiet", run.quiet, "no table on stdout");
  cmd->callback([&, cmd] {
    checkRunSplit(cmd, run);
    run.workload.given = givenOptions(cmd);
    run.scalesim_timing_given = cmd->count("--scalesim-timing") > 0;
    run.mapper_given = cmd->count("--mapper") > 0;
    action = [&] { return tessel::app::runCommand(run, out); };
  });
}

void addCompare(CLI::App& app, tessel::app::CompareArgs& c, std::function<int()>& action,
                std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "run several dataflows on several workloads and compare them");
  cmd->add_option("--arch", c.arch, "accelerator YAML file")->required();
  // Lists: the singular (the name every command uses) repeated or comma-separated; the plural
  // is an alias.
  cmd->add_option("--dataflow,--dataflows", c.dataflows,
                  "dataflow names or YAML files, comma-separated or repeated")
      ->delimiter(',')
      ->capture_default_str();
  // Not split here: a single layer's own parameters are comma-separated (gemm:M=..,K=..).
  cmd->add_option("--workload,--workloads", c.workload_items,
                  "workloads, comma-separated or repeated (default resnet50,gpt2)");
  addWorkloadOptions(cmd, c.workload);
  addObjective(cmd, c.objective, c.latency_tolerance);
  addFusion(cmd, c.fusion);
  cmd->add_option("--budget", c.budget,
                  "cost evaluations per distinct layer for the search (0 = the whole space)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("-p,--param", c.overrides, "override a YAML key (repeatable)");
  cmd->add_option("--json", c.json_path, "write the comparison as JSON; - = standard output");
  cmd->add_option("--csv", c.csv_path, "write one CSV row per workload and dataflow");
  cmd->add_flag("-q,--quiet", c.quiet, "no table on stdout");
  cmd->callback([&, cmd] {
    c.workload.given = givenOptions(cmd);
    if (!c.workload_items.empty()) {
      c.workloads_text.clear();
      for (const std::string& w : c.workload_items) c.workloads_text += (c.workloads_text.empty() ? "" : ",") + w;
    }
    action = [&] { return tessel::app::compareCommand(c, out); };
  });
}

void addXval(CLI::App& app, tessel::app::XvalArgs& x, std::function<int()>& action,
             std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "xval", "time the same plans with the analytical and the SystemC engine, op by op");
  cmd->add_option("--arch", x.arch, "accelerator YAML file")->required();
  cmd->add_option("--workload", x.workload.name, "a workload, as for run")->required();
  addWorkloadOptions(cmd, x.workload, true, true, false);
  cmd->add_option("--dataflow", x.dataflow, "ws | os | is | rs | nlr | a dataflow YAML file");
  cmd->add_option("--mapper", x.mapper, "search or gemmini-auto")
      ->check(CLI::IsMember({"search", "gemmini-auto"}))
      ->capture_default_str();
  addObjective(cmd, x.objective, x.latency_tolerance);
  addFusion(cmd, x.fusion);
  cmd->add_option("--budget", x.budget, "cost evaluations per distinct layer for the search")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("-p,--param", x.overrides, "override a YAML key (repeatable)");
  cmd->add_option("--tolerance", x.tolerance,
                  "largest |systemc / analytical - 1| an op may show (0.10 = 10%)")
      ->capture_default_str();
  cmd->add_option("--json", x.json_path, "write the cross-check as JSON; - = standard output");
  cmd->add_option("--top", x.top, "ops listed with the largest gaps: a count (0 = none) or all")
      ->capture_default_str();
  cmd->add_flag("--strict", x.strict,
                "exit 1 if an op is beyond the tolerance or a byte count differs");
  cmd->add_flag("-q,--quiet", x.quiet, "no table on stdout");
  cmd->callback([&, cmd] {
    x.workload.given = givenOptions(cmd);
    // --strict also makes an imported model's ops without a model errors.
    x.workload.given.erase(
        std::remove(x.workload.given.begin(), x.workload.given.end(), "--strict"),
        x.workload.given.end());
    const std::string& name = x.workload.name;
    x.workload.strict = x.strict && name.size() > 5 && name.substr(name.size() - 5) == ".onnx";
    action = [&] { return tessel::app::xvalCommand(x, out); };
  });
}

void addSweep(CLI::App& app, tessel::app::SweepArgs& s, std::function<int()>& action,
              std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "sweep", "run every point of a sweep spec in parallel (or under mpirun), as JSON lines");
  cmd->add_option("spec", s.spec, "sweep spec YAML (see configs/sweeps/)")->required();
  cmd->add_option("-o,--output,--out", s.out_dir, "output folder: sweep.json, points.jsonl, results.jsonl");
  cmd->add_option("--workers", s.workers, "worker processes (0 = one per core)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  cmd->add_flag("--resume", s.resume, "continue the sweep in the folder: skip its finished points");
  cmd->add_flag("--dry-run", s.dry_run, "list the points and run none");
  cmd->add_flag("-q,--quiet", s.quiet, "no progress bar and no summary");
  cmd->callback([&] { action = [&] { return tessel::app::sweepCommand(s, out); }; });
}

void addStudy(CLI::App& app, tessel::app::StudyArgs& s, std::function<int()>& action,
              std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "study", "run a design study (its sweeps) and write its report: DIR/report.html, .md");
  cmd->add_option("study", s.study,
                  "a study name (configs/studies/NAME.yaml, e.g. transformer-codesign) or file")
      ->required();
  cmd->add_option("-o,--output,--out", s.out_dir, "output folder")->required();
  cmd->add_option("--workers", s.workers, "worker processes (0 = one per core)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  cmd->add_flag("--resume", s.resume, "continue a study already in the folder");
  cmd->add_flag("-q,--quiet", s.quiet, "no progress bar and no summary");
  cmd->callback([&] { action = [&] { return tessel::app::studyCommand(s, out); }; });
}

void addReport(CLI::App& app, tessel::app::ReportArgs& r, std::function<int()>& action,
               std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "report",
      "render a run, compare, serve or LLM serve JSON or a sweep directory as HTML, Markdown or CSV");
  cmd->add_option("input", r.input, "run, compare, serve or LLM serve JSON, or sweep directory")
      ->required();
  cmd->add_option("-o,--output,--out", r.output,
                  "the report; its extension picks the format: .html, .md or .csv")
      ->required();
  cmd->add_option("--title", r.title, "the report's title (default: from the input)");
  cmd->add_option("--table", r.table,
                  "the table a .csv holds: classes, causes, layers (run), dataflows (compare), "
                  "points, pareto (sweep)");
  cmd->add_option("--metric", r.metrics,
                  "a sweep's metrics to chart, one set of charts each, e.g. cycles,energy_pj "
                  "(default: latency, energy, and area when recorded)")
      ->delimiter(',');
  cmd->callback([&] { action = [&] { return tessel::app::reportCommand(r, out); }; });
}

}  // namespace

namespace tessel::app::cli {

void addCommands(CLI::App& app, CliArgs& a, std::function<int()>& action, std::ostream& out) {
  RunArgs& run = a.run;
  addRun(app, run, action, out);
  tessel::app::CompareArgs& compare = a.compare;
  addCompare(app, compare, action, out);
  XvalArgs& xval = a.xval;
  addXval(app, xval, action, out);
  tessel::app::SweepArgs& sweep_args = a.sweep;
  addSweep(app, sweep_args, action, out);
  tessel::app::StudyArgs& study_args = a.study;
  addStudy(app, study_args, action, out);
  tessel::app::ReportArgs& report = a.report;
  addReport(app, report, action, out);
  tessel::app::ServeArgs& serve_args = a.serve;
  addServe(app, serve_args, action, out);
  addCollective(app, a.collective, action, out);

  CLI::App* arch = app.add_subcommand("arch", "accelerator descriptions");
  arch->require_subcommand(1);
  std::string& arch_file = a.arch_file;
  std::vector<std::string>& arch_overrides = a.arch_overrides;
  CLI::App* check = arch->add_subcommand("check", "validate a YAML file and summarize it");
  check->add_option("file", arch_file, "accelerator YAML file")->required();
  check->add_option("-p,--param", arch_overrides, "override a YAML key");
  check->callback([&] {
    action = [&] { return tessel::app::archCheckCommand(arch_file, arch_overrides, out); };
  });
  std::string& import_cfg = a.import_cfg;
  std::string& import_out = a.import_out;
  CLI::App* import = arch->add_subcommand("import", "convert a SCALE-Sim .cfg to a design YAML");
  import->add_option("cfg", import_cfg, "SCALE-Sim config (.cfg)")->required();
  import->add_option("-o,--output,--out", import_out, "design YAML to write ('-' = stdout)")->required();
  import->callback([&] {
    action = [&] { return tessel::app::archImportCommand(import_cfg, import_out, out); };
  });
  CLI::App* schema = arch->add_subcommand("schema", "print every YAML parameter");
  schema->callback([&] { action = [&] { return tessel::app::archSchemaCommand(out); }; });

  WorkloadArgs& wl = a.wl;
  std::string& wl_json = a.wl_json;
  CLI::App* workload = app.add_subcommand("workload", "print a workload's ops, shapes and MACs");
  workload->add_option("name", wl.name, "workload name")->required();
  addWorkloadOptions(workload, wl);
  workload->add_option("--json", wl_json, "write the op list as JSON");
  workload->callback([&, workload] {
    wl.given = givenOptions(workload);
    action = [&] { return tessel::app::workloadCommand(wl, wl_json, out); };
  });

  tessel::app::ValidateArgs& validate = a.validate;
  addValidate(app, validate, action, out);
  tessel::app::PrecisionArgs& precision = a.precision;
  addPrecision(app, precision, action, out);

  CLI::App* dfs = app.add_subcommand("dataflows", "list the shipped dataflows");
  dfs->callback([&] { action = [&] { return tessel::app::dataflowsCommand(out); }; });
}

}  // namespace tessel::app::cli

namespace tessel::app {

namespace {

CliFailure failureOf(const std::string& kind, const std::string& message,
                     const std::string& text = "", const SourceLocation& at = {}) {
  CliFailure f;
  f.kind = kind;
  f.message = message;
  f.text = text.empty() ? message : text;
  f.file = at.file;
  f.line = at.line;
  f.column = at.column;
  f.yaml_path = at.yaml_path;
  return f;
}

}  // namespace

// "unknown option --x; did you mean '--y'?" for the first argument the chosen subcommand left
// unparsed, or "" when it parsed everything.
static std::string unexpectedArguments(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    const std::vector<std::string> extra = sub->remaining();
    if (extra.empty()) continue;
    std::vector<std::string> names;
    for (const CLI::Option* o : sub->get_options()) {
      for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
    }
    return sub->get_name() + ": unknown option '" + extra.front() + "'" +
           didYouMean(extra.front(), names) + " (tessel " + sub->get_name() + " --help lists them)";
  }
  return "";
}

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
           CliFailure* failure) {
  CliFailure ignored;
  CliFailure& why = failure != nullptr ? *failure : ignored;
  CLI::App app{"tessel: model and simulate DNN accelerators"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tessel 0.1.0");
  std::function<int()> action;

  tessel::app::cli::CliArgs args;
  addCommands(app, args, action, out);

  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& e) {
    // A misspelled option leaves a required one missing: name what was not understood first
    // (`xval --workloads gpt2` is about --workloads, not a missing --workload).
    if (const std::string unknown = unexpectedArguments(app); !unknown.empty()) {
      err << unknown << "\n";
      why = failureOf("usage", unknown);
      return 2;
    }
    const int code = app.exit(e, out, err) == 0 ? 0 : 2;
    if (code != 0) why = failureOf("usage", e.what());
    return code;
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err) == 0 ? 0 : 2;
    if (code != 0) why = failureOf("usage", e.what());
    return code;
  }
  // The workloads' warnings (ops costed generically, ...) go to stderr whatever the outcome.
  struct WarningsOnExit {
    std::ostream& err;
    ~WarningsOnExit() {
      for (const std::string& w : tessel::app::takeWarnings()) err << "warning: " << w << "\n";
    }
  } warnings_on_exit{err};
  try {
    return action ? action() : 0;
  } catch (const tessel::ConfigError& thrown) {
    const tessel::ConfigError e = cli::blameGiven(app, thrown);
    err << "error: " << e.what() << "\n";
    why = failureOf("config", e.message(), e.what(), thrown.where());
    return 2;
  } catch (const tessel::InfeasibleError& e) {
    err << "infeasible: " << e.what() << "\n";
    why = failureOf("infeasible", e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    const char* text =
        "out of memory: the workload needs more memory than this machine has; try a smaller "
        "--seq, --batch or workload";
    err << "error: " << text << "\n";
    why = failureOf("out_of_memory", text);
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    err << "error: " << e.path1().string() << ": " << e.code().message() << "\n";
    why = failureOf("filesystem", e.code().message(),
                    e.path1().string() + ": " + e.code().message(), {e.path1().string(), 0, 0, ""});
    return 2;
  } catch (const std::exception& e) {
    // Anything else is a defect of tessel, not of the input: say so.
    err << "internal error: " << e.what() << "\n";
    why = failureOf("internal", e.what());
    return 1;
  }
}

}  // namespace tessel::app
