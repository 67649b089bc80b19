// Checks that an op's accesses by nest level (OpStats::accesses, networks) add up to its other
// counts, whichever engine filled them.
#pragma once

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "dataflows/nest/hardware.h"
#include "sim/stats.h"

namespace tessel::testing {

// "" when they add up: per storage level and tensor, the reads of the nest levels it serves are
// its traffic reads and their fills + updates its writes; the per-PE levels' reads, fills and
// updates are the register-file bytes; the array network's sent bytes are the NoC bytes.
// Otherwise what differs.
inline std::string accessMismatch(const sim::OpStats& op, const dataflows::nest::Hardware& hw) {
  std::ostringstream why;
  if (op.accesses.size() != hw.levels.size()) {
    why << op.name << ": " << op.accesses.size() << " access levels for " << hw.levels.size();
    return why.str();
  }
  std::vector<std::array<int64_t, 3>> reads(op.traffic.size()), writes(op.traffic.size());
  int64_t rf = 0, noc = 0;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    const sim::LevelAccesses& a = op.accesses[l];
    for (size_t t = 0; t < 3; ++t) {
      const int s = hw.levels[l].arch_level[t];
      const int64_t w = a.fill_bytes[t] + a.update_bytes[t];
      if (s < 0 || static_cast<size_t>(s) >= reads.size()) {
        rf += a.read_bytes[t] + w;
        continue;
      }
      reads[size_t(s)][t] += a.read_bytes[t];
      writes[size_t(s)][t] += w;
    }
  }
  for (size_t s = 0; s < reads.size(); ++s) {
    for (size_t t = 0; t < 3; ++t) {
      const sim::LevelTraffic& tr = op.traffic[s];
      if (reads[s][t] != tr.read_bytes[t] || writes[s][t] != tr.write_bytes[t]) {
        why << op.name << " " << tr.level << " tensor " << t << ": reads " << reads[s][t] << " vs "
            << tr.read_bytes[t] << ", fills + updates " << writes[s][t] << " vs "
            << tr.write_bytes[t] << "; ";
      }
    }
  }
  for (const sim::NetworkTraffic& n : op.networks) {
    if (n.kind == "array") noc += n.sent_bytes[0] + n.sent_bytes[1] + n.sent_bytes[2];
  }
  if (rf != op.register_file_bytes) {
    why << op.name << ": register files " << rf << " vs " << op.register_file_bytes << "; ";
  }
  if (noc != op.noc_bytes) why << op.name << ": NoC " << noc << " vs " << op.noc_bytes << "; ";
  return why.str();
}

}  // namespace tessel::testing
