// Internal to apps/tessel: the CLI11 pieces the subcommands' option setup shares.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "apps/tessel/commands.h"

namespace tessel::app::cli {

// A whole number that fits int64, as written: CLI11 alone would clamp 99999999999999999999.
extern const CLI::Validator kInt64;
// A seed is 0 .. 2^64-1 written in decimal: CLI11 alone would wrap "-1" to 2^64-1.
extern const CLI::Validator kSeed;

// --seq, --batch, --phase, --dtype... on `cmd`, into `w`.
void addWorkloadOptions(CLI::App* cmd, WorkloadArgs& w, bool with_dtype = true,
                        bool with_batch = true, bool with_strict = true);
// The workload options the user gave on `cmd`, so that one a workload does not use is an error.
std::vector<std::string> givenOptions(CLI::App* cmd);

// `tessel serve` (cli_serve.cpp).
void addServe(CLI::App& app, ServeArgs& s, std::function<int()>& action, std::ostream& out);

}  // namespace tessel::app::cli
