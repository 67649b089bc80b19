// The step engine under every collective algorithm: messages routed over the network, a step's
// time from its busiest link and its longest route (systems/collective.h says how).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/fabric.h"
#include "systems/collective.h"
#include "systems/topology.h"

namespace tessel::systems {

struct Message {
  int src = 0;
  int dst = 0;
  double bytes = 0;
};
using Step = std::vector<Message>;

// Ranks that run one collective together, in their order (a ring's, a tree's). An algorithm
// over several groups at once runs one copy in each (the lines of a torus dimension).
using Groups = std::vector<std::vector<int>>;

class StepCoster {
 public:
  explicit StepCoster(const Network& net);

  // `repeat` copies of `step`, one after another, into `cost`.
  void add(const Step& step, double repeat, CollectiveCost& cost);
  // A pipelined algorithm: `stage` holds every edge's message of the whole buffer; sent in C
  // chunks, it takes fill + C - 1 steps of one chunk each. C is chosen to minimize the time,
  // with chunks of at least kMinChunk bytes.
  void addPipelined(const Step& stage, int64_t fill, CollectiveCost& cost);

  // Assumed: below 4 KiB a chunk's per-step latency dominates any gain from more chunks.
  static constexpr double kMinChunk = 4096;

  // Every step added from now on is also recorded, routed, for an engine that executes them.
  void record(std::vector<sim::FabricStep>* steps) { record_ = steps; }

 private:
  struct Timing {
    double bandwidth_s = 0;  // the busiest link's bytes over its bandwidth
    double latency_s = 0;    // the longest route's latency
  };
  // Routes `step`, leaving each link's bytes in loads_ (links touched in touched_).
  Timing time(const Step& step);
  void account(double scale, CollectiveCost& cost);  // loads_ x scale into the totals; clears

  void keep(const Step& step, double scale, int64_t repeat);

  const Network& net_;
  std::vector<sim::FabricStep>* record_ = nullptr;
  std::vector<double> loads_;
  std::vector<double> totals_;  // per link, over the whole collective
  std::vector<int> touched_;
  std::vector<int> route_;
};

}  // namespace tessel::systems
