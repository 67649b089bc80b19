// Runs the built tessel binary (TESSEL_BINARY) for end-to-end tests: exit code plus everything
// it printed on stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace tessel::testing {

struct CliResult {
  int code = -1;
  std::string out;  // stdout and stderr
};

// `env` is prepended to the command line as environment assignments ("A=1 B=2").
inline CliResult runTessel(const std::string& args, const std::string& env = "") {
  const std::string cmd =
      (env.empty() ? "" : "env " + env + " ") + std::string(TESSEL_BINARY) + " " + args + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace tessel::testing
