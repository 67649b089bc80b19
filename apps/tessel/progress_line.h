// One line of progress on a terminal for commands that run for seconds (validate, precision):
// "validate: reference 34/149 ops, 2.1 s". Drawn on stderr only when stderr is a terminal and
// the work has run for a second; cleared when done. Silent in pipes, files and tests.
#pragma once

#include <chrono>
#include <string>

#include "kernels/validation/progress.h"

namespace tessel::app {

class ProgressLine {
 public:
  explicit ProgressLine(std::string command);
  ~ProgressLine();  // clears the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  kernels::Progress callback();

 private:
  void draw(const char* phase, int64_t done, int64_t total);

  std::string command_;
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace tessel::app
