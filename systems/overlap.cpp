#include "systems/overlap.h"

#include <algorithm>
#include <map>

namespace tessel::systems {

std::vector<OverlapWindow> overlapWindows(const models::Graph& g, const sim::RunStats& chip) {
  std::map<std::string, double> seconds;
  for (const sim::OpStats& op : chip.ops) seconds[op.name] += op.cycles / chip.clock_hz;
  const auto gemmTime = [&](int id) {
    const models::Op& op = g.op(id);
    if (!op.isGemmLike()) return 0.0;
    const auto it = seconds.find(op.name);
    return it == seconds.end() ? 0.0 : it->second;
  };
  std::vector<OverlapWindow> out;
  for (const models::Communication& c : g.communication) {
    OverlapWindow w;
    if (c.after >= 0) {
      w.producer_s = gemmTime(c.after);
      for (int id = c.after + 1; id < static_cast<int>(g.ops().size()); ++id) {
        if (g.op(id).isGemmLike()) {
          w.consumer_s = gemmTime(id);
          break;
        }
      }
    }
    out.push_back(w);
  }
  return out;
}

double exposedSeconds(Overlap overlap, const std::string& op, double seconds, int64_t ranks,
                      const OverlapWindow& w) {
  if (overlap == Overlap::None || ranks <= 1) return seconds;
  const double n = static_cast<double>(ranks), share = (n - 1) / n;
  const auto part = [&](double s, double gemm) { return std::max(s / n, s - gemm * share); };
  if (op == "all-reduce") return part(seconds / 2, w.producer_s) + part(seconds / 2, w.consumer_s);
  if (op == "all-gather") return part(seconds, w.consumer_s);
  return seconds;
}

}  // namespace tessel::systems
