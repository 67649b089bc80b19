// A sweep's output folder:
//   sweep.json     the manifest: spec, its hash, the keys, the metrics, how many points
//   points.jsonl   one JSON line per finished point, in the order points finished; only
//                  ever appended, one write per line, so a kill at any moment leaves every
//                  earlier line intact (a torn last line is dropped on resume)
//   results.jsonl  the same lines sorted by index, written (atomically) when the sweep completes
//   summary.json   what the whole sweep shows: Pareto fronts, axes that changed nothing
//                  (sweep/summary.h), written after results.jsonl
// Nothing here prints or exits; problems are ConfigErrors naming the folder and the file.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sweep/points.h"
#include "sweep/spec.h"

namespace tessel::sweep {

class ResultsDir {
 public:
  // Opens `dir` for the points of `spec`. A new or empty folder gets a manifest. A folder with
  // results needs `resume` and the same spec (by hash): then its finished points are read and
  // a torn last line is cut off. Without `resume` such a folder is refused, never overwritten.
  // With `write` false (other MPI ranks) nothing is created or changed.
  static ResultsDir open(const std::string& dir, const Spec& spec, const PointSet& points,
                         bool resume, bool write = true);
  ResultsDir(ResultsDir&&) noexcept;
  ResultsDir& operator=(ResultsDir&&) noexcept;
  ~ResultsDir();

  const std::set<int64_t>& done() const { return done_; }
  int64_t failedBefore() const { return failed_before_; }
  const std::string& path() const { return dir_; }

  // Appends one result line (no trailing newline) with a single write.
  void append(const std::string& line);
  // Writes results.jsonl from points.jsonl, sorted by index, through a temporary file.
  void finish();

 private:
  ResultsDir() = default;
  std::string dir_;
  int fd_ = -1;
  std::set<int64_t> done_;
  int64_t failed_before_ = 0;
};

// Writes `text` to `path` through a temporary file in the same folder and a rename, so a
// reader sees the old file or the new one, never a part.
void replaceAtomically(const std::string& path, const std::string& text);

// The lines of a points file that parse, in file order (a torn last line is left out).
std::vector<std::string> readResultLines(const std::string& path);

}  // namespace tessel::sweep
