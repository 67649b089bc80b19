// The whole command line as a function, so tests and fuzzers can drive it in-process: parses
// `argv`, runs the subcommand, writes to `out` and `err`, returns the exit code (0 ok, 2 bad
// input, 3 infeasible, 1 internal error). Never exits.
#pragma once

#include <iosfwd>
#include <string>

namespace tessel::app {

// Why a command failed, for callers that want more than the message on `err` (the Python
// module raises an exception carrying these). kind: "usage" (the arguments), "config" (a bad
// input, located), "infeasible", "out_of_memory", "filesystem", "internal"; empty on success.
struct CliFailure {
  std::string kind;
  std::string message;    // without the location
  std::string text;       // the whole message as the CLI prints it, without "error: "
  std::string file;       // where in a user's file, when known (line/column 1-based, 0 unknown)
  int line = 0;
  int column = 0;
  std::string yaml_path;  // the YAML path or the option ("--seq"), when known
};

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
           CliFailure* failure = nullptr);

}  // namespace tessel::app
