// Runs one tessel command line in a forked child and collects what it printed.
//
// Why a child: SystemC elaborates once per process, so a notebook that runs the SystemC engine
// twice needs a fresh process each time; a child can also be stopped (Ctrl-C) at any moment
// without leaving the caller's state half-changed, and a crash in it cannot take the caller
// down. fork() is cheap here (copy-on-write; no exec, no re-reading of configs).
//
// Plain C++: the Python binding (module.cpp) supplies `interrupted`, which is polled while the
// child runs and decides whether to stop it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "apps/tessel/cli.h"

namespace tessel::python {

struct CommandResult {
  int code = 0;        // the CLI's exit code (0 ok, 2 bad input, 3 infeasible, 1 internal)
  std::string out;     // what the command wrote to standard output
  std::string err;     // ... and to standard error (warnings, the error message)
  app::CliFailure failure;  // why it failed (kind empty on success)
};

// Runs `argv` (without the program name) through app::runCli in the calling process.
CommandResult runInProcess(const std::vector<std::string>& argv);

// Runs `argv` in a forked child. `interrupted` is called every `poll_ms` milliseconds while the
// child works; when it returns true the child gets SIGINT (a sweep stops cleanly and keeps what
// it wrote), then SIGKILL after two seconds, and runForked returns with `stopped` set.
// Throws std::runtime_error when the child cannot be started or dies without answering.
CommandResult runForked(const std::vector<std::string>& argv,
                        const std::function<bool()>& interrupted, bool& stopped,
                        int poll_ms = 50);

}  // namespace tessel::python
