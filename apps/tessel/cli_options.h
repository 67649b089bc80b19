// Internal to apps/tessel: the CLI11 pieces the subcommands' option setup shares.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "apps/tessel/commands.h"
#include "util/error.h"

namespace tessel::app::cli {

// A whole number that fits int64, as written: CLI11 alone would clamp 99999999999999999999.
extern const CLI::Validator kInt64;
// A seed is 0 .. 2^64-1 written in decimal: CLI11 alone would wrap "-1" to 2^64-1.
extern const CLI::Validator kSeed;

// --seq, --batch, --phase, --dtype... on `cmd`, into `w`.
void addWorkloadOptions(CLI::App* cmd, WorkloadArgs& w, bool with_dtype = true,
                        bool with_batch = true, bool with_strict = true);
// --fusion none|epilogue|auto (default auto) on `cmd`, into `fusion`.
void addFusion(CLI::App* cmd, std::string& fusion);
// The workload options the user gave on `cmd`, so that one a workload does not use is an error.
std::vector<std::string> givenOptions(CLI::App* cmd);

// An error blaming option `error` ("--seq") of the command run: when the user did not write that
// option, the text says so and gives the default the value came from, "--seq (not given; the
// default 1024)", so an error never reads as if the user had written what they did not.
// `e` itself when the option was given or is no option of the command.
ConfigError blameGiven(const CLI::App& app, const ConfigError& e);

// Everything the subcommands parse into (one object, so the options can outlive their setup).
struct CliArgs {
  RunArgs run;
  CompareArgs compare;
  XvalArgs xval;
  SweepArgs sweep;
  StudyArgs study;
  ReportArgs report;
  ServeArgs serve;
  CollectiveArgs collective;
  std::string arch_file;
  std::vector<std::string> arch_overrides;
  std::string import_cfg, import_out;
  WorkloadArgs wl;
  std::string wl_json;
  ValidateArgs validate;
  PrecisionArgs precision;
};

// Every subcommand of tessel and its options on `app`, parsing into `a`; the subcommand given
// sets `action`. Tests walk the result (one table of option names and meanings).
void addCommands(CLI::App& app, CliArgs& a, std::function<int()>& action, std::ostream& out);

// --arch FILE or --system FILE (`system_what` says what the system does), and `splits`: options
// that only a system takes (cli_system.cpp).
struct SplitOption {
  const char* name;
  int64_t* value;
  const char* what;
};
void addTarget(CLI::App* cmd, std::string& arch, std::string& system, const char* system_what,
               const std::vector<SplitOption>& splits);
// In a callback: exactly one of --arch and --system; none of `splits` without --system.
void checkTarget(CLI::App* cmd, const std::vector<const char*>& splits, const std::string& why);
// `tessel run`'s: the target, --tp/--pp/--ep/--dp, --parallel and --overlap, and their checks.
void addRunSplit(CLI::App* cmd, RunArgs& run);
void checkRunSplit(CLI::App* cmd, const RunArgs& run);

// `tessel collective` (cli_system.cpp).
void addCollective(CLI::App& app, CollectiveArgs& c, std::function<int()>& action, std::ostream& out);

// `tessel serve` (cli_serve.cpp).
void addServe(CLI::App& app, ServeArgs& s, std::function<int()>& action, std::ostream& out);

}  // namespace tessel::app::cli
