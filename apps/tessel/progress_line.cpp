#include "apps/tessel/progress_line.h"

#include <unistd.h>

#include <cstdio>

namespace tessel::app {

using Clock = std::chrono::steady_clock;

ProgressLine::ProgressLine(std::string command)
    : command_(std::move(command)), terminal_(::isatty(2) == 1), start_(Clock::now()) {}

ProgressLine::~ProgressLine() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

kernels::Progress ProgressLine::callback() {
  if (!terminal_) return {};
  return [this](const char* phase, int64_t done, int64_t total) { draw(phase, done, total); };
}

void ProgressLine::draw(const char* phase, int64_t done, int64_t total) {
  const Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1)) return;  // quick runs stay quiet
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done < total) return;
  last_ = now;
  drawn_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r\033[K%s: %s %lld/%lld, %.1f s", command_.c_str(), phase,
               static_cast<long long>(done), static_cast<long long>(total), seconds);
  std::fflush(stderr);
}

}  // namespace tessel::app
