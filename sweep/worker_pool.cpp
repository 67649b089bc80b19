#include "sweep/worker_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sweep/evaluate.h"

namespace tessel::sweep {
namespace {

bool writeAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool readAll(int fd, void* data, size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

std::string howItEnded(int status) {
  if (WIFSIGNALED(status)) {
    return "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  }
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "an unknown status";
}

}  // namespace

WorkerPool::WorkerPool(const Spec& spec, const PointSet& points, int workers)
    : spec_(spec), points_(points), workers_(static_cast<size_t>(workers)) {
  ::signal(SIGPIPE, SIG_IGN);  // a dead worker's pipe must not kill the sweep
  for (Worker& w : workers_) spawn(w);
}

WorkerPool::~WorkerPool() {
  for (Worker& w : workers_) {
    if (w.pid > 0) ::kill(w.pid, SIGKILL);
    if (w.to >= 0) ::close(w.to);
    if (w.from >= 0) ::close(w.from);
    if (w.pid > 0) ::waitpid(w.pid, nullptr, 0);
  }
}

void WorkerPool::spawn(Worker& w) {
  int down[2], up[2];
  if (::pipe2(down, O_CLOEXEC) != 0 || ::pipe2(up, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot fork a worker: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(down[1]);
    ::close(up[0]);
    for (const Worker& other : workers_) {  // the other workers' pipes are not this one's
      if (other.to >= 0) ::close(other.to);
      if (other.from >= 0) ::close(other.from);
    }
    serve(down[0], up[1]);
  }
  ::close(down[0]);
  ::close(up[1]);
  w.pid = pid;
  w.to = down[1];
  w.from = up[0];
  w.buffer.clear();
  w.inflight.clear();
}

void WorkerPool::serve(int in, int out) {
  ::signal(SIGINT, SIG_IGN);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) ::_exit(0);  // the sweep is already gone
  PointEvaluator evaluator(spec_);
  int64_t index = 0;
  while (readAll(in, &index, sizeof index)) {
    const std::string line = evaluator.evaluate(points_.points[static_cast<size_t>(index)]) + "\n";
    if (!writeAll(out, line.data(), line.size())) break;
  }
  ::_exit(0);  // no exit handlers: they belong to the sweep's process
}

bool WorkerPool::idleSlot(size_t depth) const {
  return std::any_of(workers_.begin(), workers_.end(),
                     [&](const Worker& w) { return w.inflight.size() < depth; });
}

void WorkerPool::submit(const Point& point) {
  Worker& w = *std::min_element(workers_.begin(), workers_.end(), [](const Worker& a, const Worker& b) {
    return a.inflight.size() < b.inflight.size();
  });
  w.inflight.push_back(point.index);
  // A failed write means the worker died; collect() sees its pipe close and reports the point.
  writeAll(w.to, &point.index, sizeof point.index);
}

bool WorkerPool::busy() const {
  return std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.inflight.empty(); });
}

void WorkerPool::reap(Worker& w, std::vector<std::string>& lines) {
  int status = 0;
  ::close(w.to);
  ::close(w.from);
  w.to = w.from = -1;
  ::waitpid(w.pid, &status, 0);
  w.pid = -1;
  for (int64_t index : w.inflight) {
    lines.push_back(PointEvaluator::failure(points_.points[static_cast<size_t>(index)],
                                            "the worker process running this point ended with " +
                                                howItEnded(status),
                                            "crashed"));
  }
  spawn(w);
}

std::vector<std::string> WorkerPool::collect(int timeout_ms) {
  std::vector<std::string> lines;
  std::vector<pollfd> fds;
  for (const Worker& w : workers_) fds.push_back({w.from, POLLIN, 0});
  const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
  if (ready <= 0) return lines;
  char buf[65536];
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    Worker& w = workers_[i];
    const ssize_t n = ::read(w.from, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      reap(w, lines);
      continue;
    }
    w.buffer.append(buf, static_cast<size_t>(n));
    for (size_t nl = w.buffer.find('\n'); nl != std::string::npos; nl = w.buffer.find('\n')) {
      lines.push_back(w.buffer.substr(0, nl));
      w.buffer.erase(0, nl + 1);
      if (!w.inflight.empty()) w.inflight.pop_front();
    }
  }
  return lines;
}

}  // namespace tessel::sweep
