#include "python/worker.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace tessel::python {

namespace {

nlohmann::json toJson(const CommandResult& r) {
  const app::CliFailure& f = r.failure;
  return {{"code", r.code},
          {"out", r.out},
          {"err", r.err},
          {"failure",
           {{"kind", f.kind},
            {"message", f.message},
            {"text", f.text},
            {"file", f.file},
            {"line", f.line},
            {"column", f.column},
            {"yaml_path", f.yaml_path}}}};
}

CommandResult fromJson(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  CommandResult r;
  r.code = j.at("code").get<int>();
  r.out = j.at("out").get<std::string>();
  r.err = j.at("err").get<std::string>();
  const nlohmann::json& f = j.at("failure");
  r.failure = {f.at("kind").get<std::string>(),   f.at("message").get<std::string>(),
               f.at("text").get<std::string>(),   f.at("file").get<std::string>(),
               f.at("line").get<int>(),           f.at("column").get<int>(),
               f.at("yaml_path").get<std::string>()};
  return r;
}

bool writeAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// The child: default signal handling (the interpreter's handlers only set a flag that nobody in
// this process will read), run the command, send the result, leave without running the
// interpreter's or the C++ runtime's exit handlers.
[[noreturn]] void childMain(const std::vector<std::string>& argv, int fd) {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGPIPE, SIG_IGN);
  int status = 0;
  try {
    const std::string text = toJson(runInProcess(argv)).dump(-1, ' ', false,
                                                              nlohmann::json::error_handler_t::replace);
    status = writeAll(fd, text) ? 0 : 1;
  } catch (...) {
    status = 1;
  }
  ::close(fd);
  ::_exit(status);
}

std::string describeStatus(int status) {
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "stopped";
}

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// SIGINT first (a sweep finishes its points' bookkeeping), SIGKILL when it is not gone in 2 s.
void stop(pid_t pid) {
  ::kill(pid, SIGINT);
  for (int i = 0; i < 40; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return;
    ::usleep(50 * 1000);
  }
  ::kill(pid, SIGKILL);
  reap(pid);
}

}  // namespace

CommandResult runInProcess(const std::vector<std::string>& argv) {
  std::vector<const char*> args{"tessel"};
  for (const std::string& a : argv) args.push_back(a.c_str());
  std::ostringstream out, err;
  CommandResult r;
  r.code = app::runCli(static_cast<int>(args.size()), args.data(), out, err, &r.failure);
  r.out = out.str();
  r.err = err.str();
  return r;
}

CommandResult runForked(const std::vector<std::string>& argv,
                        const std::function<bool()>& interrupted, bool& stopped, int poll_ms) {
  stopped = false;
  int fds[2];
  if (::pipe(fds) != 0) {
    throw std::runtime_error(std::string("cannot start a tessel worker: pipe: ") +
                             std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("cannot start a tessel worker: fork: ") +
                             std::strerror(e));
  }
  if (pid == 0) {
    ::close(fds[0]);
    childMain(argv, fds[1]);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, poll_ms);
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // end of the answer (or a read error: the status says more)
      text.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (interrupted()) {
      ::close(fds[0]);
      stop(pid);
      stopped = true;
      return {};
    }
  }
  ::close(fds[0]);
  const int status = reap(pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) {
    throw std::runtime_error("the tessel worker process " + describeStatus(status) +
                             " before answering (a defect of tessel: please report the call)");
  }
  return fromJson(text);
}

}  // namespace tessel::python
