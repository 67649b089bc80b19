#include <mpi.h>

#include <algorithm>
#include <optional>

#include "sweep/evaluate.h"
#include "sweep/mpi.h"

namespace tessel::sweep {
namespace {

constexpr int kLineTag = 1;  // one result line
constexpr int kDoneTag = 2;  // a rank has sent all its lines
constexpr size_t kChunk = 8;  // consecutive points per rank share workload graphs and caches

// MPI_Init on construction, MPI_Finalize on every way out.
struct Session {
  Session() { MPI_Init(nullptr, nullptr); }
  ~Session() { MPI_Finalize(); }
  int rank() const {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  int size() const {
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
  }
};

// Receives one message from any rank; returns its tag and appends a line to `dir`.
int receive(ResultsDir& dir, Progress& progress, const RunnerOptions& o) {
  MPI_Status status;
  MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string line(static_cast<size_t>(count), '\0');
  MPI_Recv(line.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  if (status.MPI_TAG == kLineTag) record(dir, progress, line, o);
  return status.MPI_TAG;
}

bool pendingMessage() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  return flag != 0;
}

}  // namespace

bool mpiBuilt() { return true; }

Outcome runMpi(const Spec& spec, const PointSet& points, const std::string& dir, bool resume,
               const RunnerOptions& options, bool& rank0) {
  Session mpi;
  const int rank = mpi.rank(), size = mpi.size();
  rank0 = rank == 0;
  // Every rank reads the folder as it was; only rank 0 then writes it.
  const ResultsDir before = ResultsDir::open(dir, spec, points, resume, /*write=*/false);
  const std::vector<const Point*> unfinished = pending(points, before);
  MPI_Barrier(MPI_COMM_WORLD);
  Outcome out;
  std::optional<ResultsDir> writer;
  if (rank0) writer.emplace(ResultsDir::open(dir, spec, points, resume, /*write=*/true));
  int done_ranks = 0;
  for (size_t i = 0; i < unfinished.size(); ++i) {
    if ((i / kChunk) % static_cast<size_t>(size) == static_cast<size_t>(rank)) ++out.progress.total;
  }
  if (rank0) out.progress.total = static_cast<int64_t>(unfinished.size());
  PointEvaluator evaluator(spec);
  for (size_t i = 0; i < unfinished.size(); ++i) {
    if ((i / kChunk) % static_cast<size_t>(size) != static_cast<size_t>(rank)) continue;
    if (options.stop && options.stop->load()) {
      out.interrupted = true;
      break;
    }
    const std::string line = evaluator.evaluate(*unfinished[i]);
    if (!rank0) {
      MPI_Send(line.data(), static_cast<int>(line.size()), MPI_CHAR, 0, kLineTag, MPI_COMM_WORLD);
      continue;
    }
    record(*writer, out.progress, line, options);
    while (pendingMessage()) done_ranks += receive(*writer, out.progress, options) == kDoneTag;
  }
  if (!rank0) {
    MPI_Send(nullptr, 0, MPI_CHAR, 0, kDoneTag, MPI_COMM_WORLD);
    return out;
  }
  while (done_ranks < size - 1) done_ranks += receive(*writer, out.progress, options) == kDoneTag;
  if (!out.interrupted && out.progress.done < out.progress.total) out.interrupted = true;
  if (!out.interrupted) writer->finish();
  return out;
}

}  // namespace tessel::sweep
