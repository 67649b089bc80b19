// The whole command line as a function, so tests and fuzzers can drive it in-process: parses
// `argv`, runs the subcommand, writes to `out` and `err`, returns the exit code (0 ok, 2 bad
// input, 3 infeasible, 1 internal error). Never exits.
#pragma once

#include <iosfwd>

namespace tessel::app {

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace tessel::app
