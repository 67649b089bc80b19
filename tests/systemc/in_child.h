// SystemC elaborates once per process: a second test that builds modules fails with E529, and
// sc_start after sc_stop with E546. Each simulation runs in a forked child that hands a result
// string back through a pipe; the parent asserts on it. Works under ctest and run directly.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace tessel::testing {

struct ChildResult {
  bool ok = false;      // exited 0 after writing its result
  std::string output;   // what the child returned, or why it failed
};

// Runs `body` in a child process; its return value comes back as `output`. An exception in the
// child, a crash or a non-zero exit is reported as !ok with the reason.
inline ChildResult inChild(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return {false, "pipe failed"};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return {false, "fork failed"};
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    int code = 0;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
      code = 3;
    }
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fds[1]);
    std::fflush(nullptr);
    _exit(code);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {true, out};
  if (WIFSIGNALED(status)) return {false, "child killed by signal " + std::to_string(WTERMSIG(status)) + "; output: " + out};
  return {false, "child exited " + std::to_string(WEXITSTATUS(status)) + ": " + out};
}

}  // namespace tessel::testing
