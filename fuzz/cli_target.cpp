// The command-line parser and every fast subcommand, in-process: one argument per input line.
// Whatever a user types, the answer is an exit code of 0-3 and never an internal error.
// Inputs that would write files or run the (slow) executor are skipped.
#include <sstream>
#include <string>
#include <vector>

#include "apps/tessel/cli.h"
#include "fuzz/fuzz_one.h"

int fuzzOne(const uint8_t* data, size_t size) {
  std::vector<std::string> args = {"tessel"};
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(in, line);) {
    if (line.find("--json") != std::string::npos || line.find("--csv") != std::string::npos ||
        line.find("--out") != std::string::npos || line == "validate" || line == "precision") {
      return 0;
    }
    args.push_back(line);
  }
  if (args.size() > 64) return 0;
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = tessel::app::runCli(static_cast<int>(argv.size()), argv.data(), out, err);
  if (code < 0 || code > 3) __builtin_trap();
  // A line that starts "internal error:" (a message may quote the input, which may say anything).
  const std::string e = "\n" + err.str();
  if (e.find("\ninternal error:") != std::string::npos) __builtin_trap();
  return 0;
}
