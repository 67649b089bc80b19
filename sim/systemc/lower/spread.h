// Spreading an integer byte total over the commands that move it, in proportion to a weight per
// command (a tile's footprint, a chunk's size), so the parts sum to the total exactly.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/systemc/lower/command.h"

namespace tessel::sim::systemc {

struct Share {
  uint32_t command = 0;
  Access access;
};

// Appends to `out` one Share per command with a non-zero part; the parts of `total` are the
// differences of the rounded running sums, so they add up to `total` whatever the weights.
inline void spread(int64_t total, const std::vector<uint32_t>& commands,
                   const std::vector<double>& weights, Access proto, std::vector<Share>& out) {
  if (total == 0 || commands.empty()) return;
  double sum = 0;
  for (double w : weights) sum += w;
  double running = 0;
  int64_t given = 0;
  for (size_t i = 0; i < commands.size(); ++i) {
    running += sum > 0 ? weights[i] : 1.0;
    const double whole = sum > 0 ? sum : static_cast<double>(commands.size());
    const int64_t upto = i + 1 == commands.size()
                             ? total
                             : static_cast<int64_t>(std::llround(static_cast<double>(total) * (running / whole)));
    if (upto > given) {
      proto.bytes = upto - given;
      out.push_back(Share{commands[i], proto});
      given = upto;
    }
  }
}

// Attaches the shares to their commands (each command's accesses contiguous, in order).
inline void attach(CommandStream& s, std::vector<Share>& shares) {
  std::vector<uint32_t> count(s.commands.size() + 1, 0);
  for (const Share& x : shares) ++count[x.command + 1];
  for (size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
  s.accesses.assign(shares.size(), Access{});
  std::vector<uint32_t> next(count.begin(), count.end() - 1);
  for (const Share& x : shares) s.accesses[next[x.command]++] = x.access;
  for (size_t i = 0; i < s.commands.size(); ++i) {
    s.commands[i].access_begin = count[i];
    s.commands[i].access_end = count[i + 1];
  }
}

}  // namespace tessel::sim::systemc
