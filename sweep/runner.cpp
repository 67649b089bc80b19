#include "sweep/runner.h"

#include <algorithm>
#include <string>

#include "sweep/evaluate.h"
#include "sweep/worker_pool.h"

namespace tessel::sweep {

void record(ResultsDir& dir, Progress& progress, const std::string& line, const RunnerOptions& o) {
  dir.append(line);
  ++progress.done;
  if (line.find("\"status\":\"failed\"") != std::string::npos) ++progress.failed;
  if (o.progress) o.progress(progress);
}

std::vector<const Point*> pending(const PointSet& points, const ResultsDir& dir) {
  std::vector<const Point*> unfinished;
  for (const Point& p : points.points) {
    if (!dir.done().count(p.index)) unfinished.push_back(&p);
  }
  return unfinished;
}

namespace {

bool stopped(const RunnerOptions& o) { return o.stop && o.stop->load(); }

Outcome runInProcess(const Spec& spec, const std::vector<const Point*>& unfinished, ResultsDir& dir,
                     const RunnerOptions& o) {
  Outcome out;
  out.progress.total = static_cast<int64_t>(unfinished.size());
  PointEvaluator evaluator(spec);
  for (const Point* p : unfinished) {
    if (stopped(o)) {
      out.interrupted = true;
      break;
    }
    record(dir, out.progress, evaluator.evaluate(*p), o);
  }
  return out;
}

}  // namespace

Outcome runLocal(const Spec& spec, const PointSet& points, ResultsDir& dir,
                 const RunnerOptions& options) {
  const std::vector<const Point*> unfinished = pending(points, dir);
  const int workers = std::max(1, std::min<int>(options.workers, static_cast<int>(unfinished.size())));
  if (workers <= 1) return runInProcess(spec, unfinished, dir, options);
  Outcome out;
  out.progress.total = static_cast<int64_t>(unfinished.size());
  WorkerPool pool(spec, points, workers);
  size_t next = 0;
  // Two points in flight per worker: it starts the second while the first's line travels.
  auto feed = [&] {
    while (next < unfinished.size() && pool.idleSlot(2)) pool.submit(*unfinished[next++]);
  };
  feed();
  while (pool.busy()) {
    if (stopped(options)) {
      out.interrupted = true;
      return out;  // the pool's destructor stops the workers; points in flight are not written
    }
    for (const std::string& line : pool.collect(100)) record(dir, out.progress, line, options);
    feed();
  }
  return out;
}

}  // namespace tessel::sweep
