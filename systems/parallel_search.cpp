#include "systems/parallel_search.h"

#include "util/error.h"

namespace tessel::systems {

namespace {

std::vector<Split> splitsOf(int64_t chips, int64_t experts) {
  std::vector<Split> out;
  for (int64_t tp = 1; tp <= chips; tp *= 2) {
    for (int64_t pp = 1; tp * pp <= chips; pp *= 2) {
      out.push_back({tp, pp, 1, 1});
      for (int64_t ep = 2; experts > 0 && ep <= experts; ep *= 2) {
        if (tp > 1 && tp % ep == 0) out.push_back({tp, pp, ep, 1});
        if (tp == 1 && ep * pp <= chips) out.push_back({1, pp, ep, 1});
      }
    }
  }
  return out;
}

double score(const SplitCandidate& c, const std::string& objective) {
  if (objective == "energy") return c.energy_pj;
  if (objective == "edp") return c.energy_pj * c.latency_s;
  return c.latency_s;
}

}  // namespace

SplitSearch searchSplits(const System& sys, int64_t experts,
                         const std::function<models::Graph(const Split&)>& graph_of,
                         const dataflows::Dataflow& df, const sim::RunOptions& options,
                         const std::string& objective, Overlap overlap) {
  SplitSearch s;
  for (const Split& split : splitsOf(sys.count, experts)) {
    SplitCandidate c;
    c.split = split;
    SystemRun r;
    try {
      r = runOnSystem(sys, graph_of(split), split, df, options, overlap);
      c.ok = true;
      c.latency_s = r.latency_s;
      c.interval_s = r.interval_s;
      c.energy_pj = r.energy_pj();
      c.memory_per_chip = r.memory_per_chip;
    } catch (const ConfigError& e) {
      c.why = e.message();
    } catch (const InfeasibleError& e) {
      c.why = e.what();
    }
    s.candidates.push_back(c);
    const auto i = static_cast<int>(s.candidates.size()) - 1;
    if (c.ok && (s.best < 0 || score(c, objective) < score(s.candidates[static_cast<size_t>(s.best)], objective))) {
      s.best = i;
      s.best_run = std::move(r);
    }
  }
  return s;
}

}  // namespace tessel::systems
