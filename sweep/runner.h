// Running a sweep's points: in this process (one worker), or in worker processes forked from
// it that each keep their own caches. Processes, not threads: the SystemC kernel allows one
// simulation context per process, and a point that crashes its worker is recorded as failed
// while the sweep goes on. Results are the same whatever the number of workers: a point's
// line depends on the point alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "sweep/points.h"
#include "sweep/results_dir.h"
#include "sweep/spec.h"

namespace tessel::sweep {

struct Progress {
  int64_t done = 0;    // finished in this run, failures included
  int64_t failed = 0;  // failed in this run
  int64_t total = 0;   // points this run has to run
};

struct RunnerOptions {
  int workers = 1;
  std::function<void(const Progress&)> progress;  // after every finished point
  const std::atomic<bool>* stop = nullptr;        // set (e.g. by SIGINT) to stop early
};

struct Outcome {
  Progress progress;
  bool interrupted = false;
};

// Runs every point of `points` that `dir` has not done and appends each result to `dir`.
Outcome runLocal(const Spec& spec, const PointSet& points, ResultsDir& dir,
                 const RunnerOptions& options);

// Appends a finished point's line to `dir`, counts it (a failure when its status says so) and
// reports the progress.
void record(ResultsDir& dir, Progress& progress, const std::string& line, const RunnerOptions& options);

// The points of `points` that `dir` has not done, in index order.
std::vector<const Point*> pending(const PointSet& points, const ResultsDir& dir);

}  // namespace tessel::sweep
