// The interconnect's transactions, for an engine that executes them (the SystemC fabric,
// sim/systemc/fabric.cpp) rather than costing them in closed form (systems/steps.h). Plain data:
// links with their bandwidth and latency, and steps of messages, each message already routed (the
// link ids it crosses, in order). Steps run one after another (a step starts when the previous
// one's last message has arrived); a step's messages start together, each taking every link of
// its route when all are free (in order of link id, first come first served), holding them for
// its route's latency plus its bytes at its slowest link, then freeing them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace tessel::sim {

struct FabricLink {
  double bandwidth = 0;  // bytes per second
};

struct FabricMessage {
  std::vector<int> links;  // the route
  double bytes = 0;
  double latency = 0;      // the route's, seconds
};

struct FabricStep {
  std::vector<FabricMessage> messages;
  int64_t repeat = 1;  // copies of the step, one after another
};

// Seconds from the first step's start to the last message's arrival.
using FabricRunner = std::function<double(const std::vector<FabricLink>&, const std::vector<FabricStep>&)>;

// The SystemC fabric registers itself (sim/systemc); nullptr in a binary without SystemC.
void registerFabricRunner(FabricRunner runner);
const FabricRunner* fabricRunner();

}  // namespace tessel::sim
