#include "sim/analytical/stream_chunks.h"

#include <algorithm>

namespace tessel::sim::analytical {

double streamCycles(const Stream& s, int64_t chunks) {
  const bool second = chunks >= 2, refills = chunks >= 3;
  const double n = static_cast<double>(std::max<int64_t>(1, chunks));
  const double l = s.loads / n, st = s.stores / n, u = s.unit / n, q = s.store_path / n;
  const double trip = s.load_latency;
  // The unit runs every chunk back to back, after the first chunk's load and before the last
  // chunk's store.
  const double unit = s.latency + l + s.unit + st;
  // Each off-chip level streams its bytes but idles twice. At the start: after its share of the
  // first two loads (of the one load with one chunk), until the first chunk's load, round trip
  // and unit have freed a half. At the end: after its share of the last load, while the last
  // chunk waits for its round trip (or for the store ahead of it on its half; with two chunks
  // the trip hid under the first unit), runs its unit and stores, the level has only its share
  // of the stores of the last three chunks left.
  double level = 0;
  for (const Stream::Level& v : s.levels) {
    if (v.time <= 0) continue;
    const double head = std::max(0.0, l + trip + u - std::min(2.0, n) * v.loads / n);
    const double wait = refills ? std::max(trip, q - l) : 0;
    const double tail = second ? std::max(0.0, wait + u + st - std::min(3.0, n) * v.stores / n) : 0;
    level = std::max(level, v.time + head + tail);
  }
  // A half is refilled only once the unit has emptied it: its next load and the store of what the
  // unit wrote leave together (the store behind the load where they share a level), and the
  // unit waits for both, so each half cycles through them and the unit, two chunks a cycle. The
  // second chunk needs the first one's unit done and its own load in.
  const double cycle = u + std::max(l + trip, q);
  const double halves =
      s.latency + l + st + u + (second ? std::max(u, l) + (n - 2) / 2 * cycle : 0);
  return std::max({unit, level, halves});
}

int64_t fastestChunks(const Stream& s, int64_t lo, int64_t hi) {
  lo = std::max<int64_t>(1, lo);
  hi = std::max(lo, hi);
  int64_t best = 0;
  double fewest = 0;
  // A gain below rounding is no gain: ties go to fewer chunks (fewer SystemC commands).
  const auto consider = [&](int64_t n) {
    const double c = streamCycles(s, n);
    if (best == 0 || c < fewest - 1e-12 * fewest) {
      best = n;
      fewest = c;
    }
  };
  // One and two chunks are cases of their own; from three on, every bound is convex in 1/n, so
  // the time falls and then rises: bisect on its slope.
  for (int64_t n = lo; n <= std::min<int64_t>(hi, 2); ++n) consider(n);
  if (hi >= 3) {
    int64_t a = std::max<int64_t>(lo, 3), b = hi;
    while (a < b) {
      const int64_t mid = a + (b - a) / 2;
      const double here = streamCycles(s, mid);
      if (streamCycles(s, mid + 1) < here - 1e-12 * here) {
        a = mid + 1;
      } else {
        b = mid;
      }
    }
    consider(a);
  }
  return best;
}

}  // namespace tessel::sim::analytical
