// The subcommands of the tessel CLI. main.cpp parses arguments (CLI11 stays in that one file)
// into these option structs; each command writes its output to `out` and returns an exit code.
// Errors propagate as exceptions that main.cpp turns into messages and exit codes.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

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
};

struct RunArgs {
  std::string arch;
  WorkloadArgs workload;
  std::string dataflow;  // empty = the array's first supported dataflow
  std::string engine = "analytical";
  std::string mapper = "gemmini-auto";
  std::vector<std::string> overrides;  // -p key=value
  std::string precision_plan;          // per-op dtype plan (YAML/JSON), from `tessel precision`
  std::string json_path;
  std::string csv_path;
  bool ideal_memory = false;
  bool no_fuse = false;
  int top = 10;
  bool quiet = false;  // no table on stdout
};

int runCommand(const RunArgs& args, std::ostream& out);
int archCheckCommand(const std::string& path, const std::vector<std::string>& overrides,
                     std::ostream& out);
int archSchemaCommand(std::ostream& out);
int workloadCommand(const WorkloadArgs& args, const std::string& json_path, std::ostream& out);
int dataflowsCommand(std::ostream& out);

// Writes `text` to `path` through a temporary file and a rename, so a reader never sees a
// half-written report. Throws tessel::Error if the file cannot be written.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace tessel::app
