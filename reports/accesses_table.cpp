#include "reports/accesses_table.h"

#include <algorithm>
#include <string>

#include "reports/format.h"

namespace tessel::reports {
namespace {

constexpr int kInstances = 10, kTensor = 8, kCount = 14;

int levelWidth(const sim::OpStats& op) {
  size_t w = 5;  // "level"
  for (const sim::LevelAccesses& a : op.accesses) w = std::max(w, a.level.size());
  for (const sim::NetworkTraffic& n : op.networks) w = std::max(w, n.level.size() + 8);
  return static_cast<int>(w) + 1;
}

void writeLevels(const sim::OpStats& op, std::ostream& os, int width) {
  os << "  " << padRight("level", width) << padLeft("instances", kInstances) << "  "
     << padRight("tensor", kTensor) << padLeft("reads", kCount) << padLeft("fills", kCount)
     << padLeft("updates", kCount) << "\n";
  for (const sim::LevelAccesses& a : op.accesses) {
    for (int t = 0; t < sim::kNumOperands; ++t) {
      if (!a.listed(t)) continue;
      const auto i = static_cast<size_t>(t);
      os << "  " << padRight(a.level, width) << padLeft(withCommas(a.instances), kInstances) << "  "
         << padRight(sim::nameOf(static_cast<sim::Operand>(t)), kTensor)
         << padLeft(withCommas(a.reads[i]), kCount) << padLeft(withCommas(a.fills[i]), kCount)
         << padLeft(withCommas(a.updates[i]), kCount) << "\n";
    }
  }
}

// Per network (a level's fan-out, the array's NoC) and tensor: bytes sent into it and delivered
// by it, to `to` destinations per copy. Tensors it did not carry are left out.
void writeNetworks(const sim::OpStats& op, std::ostream& os, int width) {
  if (op.networks.empty()) return;
  os << "  " << padRight("network (bytes)", width) << padLeft("to", kInstances) << "  "
     << padRight("tensor", kTensor) << padLeft("sent", kCount) << padLeft("delivered", kCount)
     << "\n";
  for (const sim::NetworkTraffic& n : op.networks) {
    const std::string name = n.level + (n.kind == "array" ? " NoC" : " fan-out");
    for (int t = 0; t < sim::kNumOperands; ++t) {
      const auto i = static_cast<size_t>(t);
      if (n.sent_bytes[i] == 0 && n.delivered_bytes[i] == 0) continue;
      os << "  " << padRight(name, width) << padLeft(withCommas(n.fanout), kInstances) << "  "
         << padRight(sim::nameOf(static_cast<sim::Operand>(t)), kTensor)
         << padLeft(withCommas(n.sent_bytes[i]), kCount)
         << padLeft(withCommas(n.delivered_bytes[i]), kCount) << "\n";
    }
  }
}

}  // namespace

void writeAccesses(const sim::RunStats& run, std::ostream& os) {
  for (const sim::OpStats& op : run.ops) {
    if (op.accesses.empty()) continue;
    os << "\nAccesses of " << op.name << " (words, summed over instances)\n";
    const int width = levelWidth(op);
    writeLevels(op, os, width);
    writeNetworks(op, os, width);
  }
}

}  // namespace tessel::reports
