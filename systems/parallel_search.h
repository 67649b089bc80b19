// --parallel auto: every split the system's chips allow (tensor-parallel groups and pipeline
// stages in powers of two, expert parallel where the model has experts), each one chip's graph
// built by the caller; those whose stages do not fit a chip are listed with why; the best of the
// rest under the objective wins.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "systems/parallel.h"

namespace tessel::systems {

struct SplitCandidate {
  Split split;
  bool ok = false;
  std::string why;  // why not, when !ok
  double latency_s = 0, interval_s = 0, energy_pj = 0;
  int64_t memory_per_chip = 0;
};

struct SplitSearch {
  std::vector<SplitCandidate> candidates;  // in the order tried
  int best = -1;                           // index of the chosen, -1 when none fits
  SystemRun best_run;                      // the chosen one's run
};

// `graph_of` builds one chip's graph for a split (throws ConfigError when the model cannot be
// split so: that split is skipped, with the reason). `objective`: latency (one batch), energy,
// or edp. `experts` > 0 adds expert-parallel splits.
SplitSearch searchSplits(const System& system, int64_t experts,
                         const std::function<models::Graph(const Split&)>& graph_of,
                         const dataflows::Dataflow& dataflow, const sim::RunOptions& options,
                         const std::string& objective, Overlap overlap = Overlap::None);

}  // namespace tessel::systems
