// The subcommands of the tessel CLI. main.cpp parses arguments (CLI11 stays in that one file)
// into these option structs; each command writes its output to `out` and returns an exit code.
// Errors propagate as exceptions that main.cpp turns into messages and exit codes.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace tessel::arch {
struct Accelerator;
}
namespace tessel::dataflows {
struct Dataflow;
}

namespace tessel::app {

// Options that pick and shape a workload.
struct WorkloadArgs {
  std::string name;
  int64_t seq = 512;
  int64_t batch = 1;
  std::string phase = "prefill";
  int64_t image = 224;
  std::string dtype;  // empty = the array's input dtype (run) or int8 (workload)
  bool all_logits = false;
  int64_t layers = 0;              // gpt2/bert: only blocks 0..layers-1 (0 = all)
  std::vector<std::string> dims;   // .onnx: "NAME=VALUE" bindings of symbolic dimensions
  bool strict = false;             // .onnx: an op without a model is an error
  std::string expert_load;         // MoE configs: "W,W,..." share of tokens per expert
  std::string sparsity;            // "weights=2:4,inputs=0.4" (models/sparsity.h); "" = dense
  bool sparsity_given = false;     // --sparsity written (an empty value is then an error)
  std::vector<std::string> given;  // the options above the user gave ("--seq", ...)
};

struct RunArgs {
  std::string arch;
  WorkloadArgs workload;
  std::string dataflow;  // empty = the array's first supported dataflow
  std::string engine = "analytical";
  std::string mapper = "search";
  bool mapper_given = false;  // --mapper written (else --scalesim-timing plans with gemmini-auto)
  std::string objective = "latency";   // what the searching mapper minimizes
  std::string fusion = "auto";         // --fusion none|epilogue|auto
  double latency_tolerance = 0.01;     // dataflows::MapperOptions::tolerance
  int64_t budget = 20000;              // its cost evaluations per distinct layer; 0 = exhaustive
  std::string mapping_path;            // a pinned mapping for one op (YAML)
  std::string emit_mapping_path;       // write the chosen loop-nest mappings, Timeloop's form
  std::vector<std::string> overrides;  // -p key=value
  std::string cores = "one";  // one (a core alone) | fused (every core as one device)
  std::string system;         // a system YAML instead of --arch: the model split over its chips
  int64_t tp = 1, pp = 1, ep = 1, dp = 1;  // the split (--system)
  std::string parallel = "manual";          // manual (--tp ...) | auto (searched)
  std::string overlap = "none";             // none | collective-matmul (--system)
  std::string precision_plan;          // per-op dtype plan (YAML/JSON), from `tessel precision`
  std::string json_path;
  std::string csv_path;
  std::string trace_path;  // Chrome trace-event JSON of the commands (--engine systemc)
  bool ideal_memory = false;
  bool no_fuse = false;
  std::string top = "10";  // ops in the top-ops table: a count, 0 = none, or "all"
  bool quiet = false;      // no table on stdout
  bool accesses = false;   // after the table, each array op's accesses by level and tensor
  // --scalesim-timing [KNOBS]: engine "scalesim" with these knobs (sim/scalesim/knobs.h).
  bool scalesim_timing_given = false;
  std::string scalesim_timing;      // "fold_overlap=on,..."; empty = all of SCALE-Sim's
  std::string scalesim_report_dir;  // --scalesim-report: COMPUTE_/BANDWIDTH_REPORT.csv here
};

// Options of the functional executor shared by `validate` and `precision`.
struct ExecArgs {
  bool integer_nonlinear = false;  // I-BERT integer GELU/softmax/LayerNorm on INT8 tensors
  std::string fusion = "auto";     // none | epilogue | auto (epilogues + FlashAttention)
  bool fusion_given = false;       // --fusion written: --fuse and --fuse-like must agree with it
  bool fuse = false;               // the older spelling of --fusion epilogue
  std::string fuse_like;           // an accelerator YAML: fuse what its hardware fuses
  bool low_precision_accumulate = false;
  std::string calibration = "minmax";  // minmax | percentile
  double percentile = 99.99;
  bool percentile_given = false;  // --percentile only means something with percentile calibration
  uint64_t seed = 1;              // synthetic weights and inputs
};

struct ValidateArgs {
  WorkloadArgs workload;
  std::string precision = "int8";  // dtypes, plan files, mixed (needs plan): comma-separated
  std::string plan;                // precision plan YAML/JSON (from `tessel precision`)
  ExecArgs exec;
  std::string json_path;
  bool quiet = false;
};

struct PrecisionArgs {
  WorkloadArgs workload;
  double tolerance = 0.0;
  std::string metric = "rel_l2";  // rel_l2 | kl
  std::string to = "int8";        // candidates, cheapest first: "mxfp4,fp8_e4m3,bf16/int4"
  std::string from = "fp32";      // what ops not lowered compute in
  std::string arch;               // time the plan on this design (optional)
  std::vector<std::string> overrides;  // -p KEY=VALUE on the design
  int64_t budget = 1000;          // mapper evaluations per op when timing
  ExecArgs exec;
  std::string out_path;  // the plan YAML; stdout when empty
  bool quiet = false;
};

int runCommand(const RunArgs& args, std::ostream& out);
// The named dataflow (a name or a YAML file), else the array's first; either way one the design
// can run (ConfigError saying why not).
dataflows::Dataflow pickDataflow(const std::string& given, const arch::Accelerator& acc);

struct XvalArgs {
  std::string arch;
  WorkloadArgs workload;
  std::string dataflow;
  std::string mapper = "search";
  std::string objective = "latency";
  std::string fusion = "auto";         // --fusion none|epilogue|auto
  double latency_tolerance = 0.01;
  int64_t budget = 20000;
  std::vector<std::string> overrides;
  double tolerance = 0.10;  // |systemc / analytical - 1| an op may reach
  std::string json_path;
  std::string top = "10";
  bool quiet = false;
  bool strict = false;  // exit 1 when an op is beyond the tolerance or a byte count differs
};
int xvalCommand(const XvalArgs& args, std::ostream& out);
// "--top" values: a count of ops, 0 = none, "all" = -1; ConfigError otherwise.
int topCount(const std::string& text);
int validateCommand(const ValidateArgs& args, std::ostream& out);
int precisionCommand(const PrecisionArgs& args, std::ostream& out);
int archCheckCommand(const std::string& path, const std::vector<std::string>& overrides,
                     std::ostream& out);
int archSchemaCommand(std::ostream& out);
// tessel arch import: a SCALE-Sim .cfg -> a tessel design YAML at `out_path` (never the input);
// prints the assumptions it made.
int archImportCommand(const std::string& cfg_path, const std::string& out_path,
                      std::ostream& out);
int workloadCommand(const WorkloadArgs& args, const std::string& json_path, std::ostream& out);
int dataflowsCommand(std::ostream& out);

struct CompareArgs {
  std::string arch;
  std::vector<std::string> dataflows{"ws", "os", "is", "rs", "nlr"};
  std::vector<std::string> workload_items;       // --workload as given, each maybe a list
  std::string workloads_text = "resnet50,gpt2";  // joined; see splitWorkloads
  std::vector<std::string> workloads;             // split from workloads_text
  WorkloadArgs workload;  // options; --seq and --phase apply to the transformers
  std::string objective = "latency";
  std::string fusion = "auto";         // --fusion none|epilogue|auto
  double latency_tolerance = 0.01;
  int64_t budget = 4000;
  std::vector<std::string> overrides;
  std::string json_path;
  std::string csv_path;
  bool quiet = false;
};
int compareCommand(const CompareArgs& args, std::ostream& out);
// "resnet50,gemm:M=64,K=96,N=80,gpt2" -> resnet50, gemm:M=64,K=96,N=80, gpt2: a piece with '='
// and no ':' continues the single layer before it.
std::vector<std::string> splitWorkloads(const std::string& text);

struct SweepArgs {
  std::string spec;     // the sweep spec YAML
  std::string out_dir;  // -o: where points.jsonl, results.jsonl and sweep.json go
  int workers = 0;      // worker processes; 0 = one per core
  bool resume = false;  // continue a sweep already in out_dir
  bool dry_run = false; // list the points, run none
  bool quiet = false;
};
int sweepCommand(const SweepArgs& args, std::ostream& out);

struct StudyArgs {
  std::string study;    // a name under configs/studies/ or a file
  std::string out_dir;  // DIR/<sweep>/ for each sweep, DIR/report.html and DIR/report.md
  int workers = 0;
  bool resume = false;
  bool quiet = false;
};
int studyCommand(const StudyArgs& args, std::ostream& out);
struct ReportArgs {
  std::string input;   // a run, compare, serve or LLM serve JSON, or a sweep directory
  std::string output;  // its extension picks the format: .html, .md or .csv
  std::string title;   // replaces the title taken from the input
  std::string table;   // .csv: which table (classes, causes, layers, points, pareto, dataflows)
  std::vector<std::string> metrics;  // a sweep's charted metrics (--metric a,b); empty: defaults
};
// tessel report: renders what run, compare or sweep wrote as HTML, Markdown or one CSV table.
int reportCommand(const ReportArgs& args, std::ostream& out);

// tessel collective: one collective on a system (systems/collective.h).
struct CollectiveArgs {
  std::string system;                  // the system YAML
  std::vector<std::string> overrides;  // -p on the system's YAML
  std::string op = "all-reduce";
  std::string bytes = "1MiB";          // a size, or FROM..TO doubling
  int64_t group = 0;                   // chips taking part (0 = all)
  std::string algorithm;               // empty: the cheapest
  std::string engine = "analytical";   // analytical | systemc | both
  std::string json_path;
  bool quiet = false;
};
int collectiveCommand(const CollectiveArgs& args, std::ostream& out);
// tessel run --system: runCommand hands over (cmd_run_system.cpp).
int systemRunCommand(const RunArgs& args, std::ostream& out);

struct ServeArgs {
  std::string arch;
  std::string system;                // a system YAML instead of --arch (an LLM service)
  int64_t tp = 1, ep = 1, dp = 1;    // with --system: chips per replica, experts over them, replicas
  WorkloadArgs workload;  // its batch is unused: --batch is a list here
  std::string dataflow;
  std::string mapper = "search";
  std::string objective = "latency";
  std::string fusion = "auto";         // --fusion none|epilogue|auto
  int64_t budget = 20000;
  std::vector<std::string> overrides;
  std::vector<int> workers{1, 2, 4, 8};
  std::vector<int> batches{1};
  std::vector<std::string> cores;  // single, fused; empty = both on a multi-core design
  std::vector<double> rates;       // requests/s: open loop (one; an LLM service: a list)
  bool closed_loop = false;
  std::string arrivals = "poisson";  // poisson | uniform (| gamma:CV | a trace file for an LLM)
  int64_t requests = 2000;
  // An LLM service (a decoder workload without --phase): serve/llm/.
  std::string prompt_len = "lognormal:1024:0.5";
  std::string output_len = "lognormal:256:0.5";
  std::vector<int64_t> max_batches{256};
  int64_t max_tokens = 2048;
  std::vector<int64_t> chunks;  // empty = max_tokens
  int64_t kv_block = 16;
  std::string kv_budget;  // "4 GiB"; empty = the DRAM left
  std::string slo;
  std::string priority = "decode-first";
  std::string preemption = "recompute";
  bool exact = false;
  int prefill_cores = 0;  // disaggregated LLM service: cores that prefill (0 = half)
  std::string compare_measured;  // an LLM service: a measured run's requests, replayed and scored
  std::string prefix_caching = "on";  // on | off
  // Host time of every iteration and of each sequence in it ("3ms"); empty: not given (the
  // design's default).
  std::string step_overhead, sequence_overhead;
  double jitter = 0;
  uint64_t seed = 1;
  int submit_queue = 4;
  int receive_queue = 4;
  int host_cpus = 0;
  std::string input_dtype = "float32";
  std::string output_dtype = "float32";
  std::string layout = "nchw";
  std::vector<std::string> given;  // the serve options the user gave (--rate, --layout...)
  bool no_variants = false;
  std::string json_path;
  bool quiet = false;
};
// tessel serve: the deployed service on a discrete-event timeline (serve/).
int serveCommand(const ServeArgs& args, std::ostream& out);
// The LLM service (serveCommand calls it for a decoder workload without --phase).
int llmServeCommand(const ServeArgs& args, std::ostream& out);

// One output a command was asked to write: the option that named it ("--json") and its path.
struct OutputPath {
  std::string option;
  std::string path;
};

// Checks every non-empty output before any long work starts: "-" is stdout; an existing FIFO,
// device or symlink is written through in place; a regular file must be writable in a directory
// that exists. No two outputs may share a path and none may name an input of the command.
// ConfigError naming the option, the path and the reason otherwise.
void checkOutputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs);

// "-", /dev/stdout and its /dev/fd, /proc/self/fd spellings: the report is standard output, and
// the table that would corrupt it is not printed.
bool isStandardOutput(const std::string& path);

// Writes `text` to `path`: "-" writes to `stdout_stream`; special files are written in place;
// a regular file (or a symlink's target) is replaced through a temporary file and a rename, so
// a reader never sees half a report. Every write is checked: ConfigError naming the path and
// the reason (e.g. "No space left on device").
void writeOutput(const std::string& path, const std::string& text, std::ostream& stdout_stream);

}  // namespace tessel::app
