// Worker processes for a sweep: each is forked from the sweep, reads point indices from a
// pipe, evaluates them with its own PointEvaluator (and caches) and writes one result line
// per point back. A worker that dies is replaced, and the points it held are reported as
// failed with the signal that ended it. Workers ignore SIGINT (the sweep decides when to
// stop) and die with the sweep (PR_SET_PDEATHSIG).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "sweep/points.h"
#include "sweep/spec.h"

namespace tessel::sweep {

class WorkerPool {
 public:
  WorkerPool(const Spec& spec, const PointSet& points, int workers);
  ~WorkerPool();  // kills and reaps every worker
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Whether some worker has fewer than `depth` points in flight.
  bool idleSlot(size_t depth) const;
  // Sends the point to the worker with the fewest in flight.
  void submit(const Point& point);
  bool busy() const;
  // The result lines that arrive within `timeout_ms` (possibly none).
  std::vector<std::string> collect(int timeout_ms);

 private:
  struct Worker {
    pid_t pid = -1;
    int to = -1;    // indices to the worker
    int from = -1;  // result lines from it
    std::string buffer;
    std::deque<int64_t> inflight;
  };
  void spawn(Worker& w);
  void reap(Worker& w, std::vector<std::string>& lines);
  [[noreturn]] void serve(int in, int out);

  const Spec& spec_;
  const PointSet& points_;
  std::vector<Worker> workers_;
};

}  // namespace tessel::sweep
