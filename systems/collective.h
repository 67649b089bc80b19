// Collectives over a system's interconnect, costed step by step. An algorithm is a sequence of
// steps; a step is a set of messages (sender, receiver, bytes) that move at once, each routed
// over the topology's links (systems/topology.h). A step takes
//     the most bytes any one link carries in it / that link's bandwidth
//   + the longest latency of any of its messages' routes (the sum of the links it crosses),
// so two messages sharing a link share its bandwidth (contention), and a message through k
// chips pays k link latencies. A collective is its call overhead plus its steps. Pipelined
// algorithms (trees, chains) send the message in chunks: F steps to fill the pipeline, then one
// per further chunk, each step moving one chunk along every edge; the chunk count is searched.
//
// Sizes follow nccl-tests: `bytes` is each rank's whole buffer. all-reduce reduces S on every
// rank; all-gather's output and reduce-scatter's input are S (S/n per rank); all-to-all sends
// S/n to each rank (its own share stays); broadcast sends S from the group's first rank;
// send/recv moves S from the group's first rank to its last.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "systems/topology.h"

namespace tessel::systems {

enum class Collective : uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv, Broadcast };
std::string_view nameOf(Collective c);  // "all-reduce", ...
std::optional<Collective> parseCollective(std::string_view name);
// nccl-tests' bus-bandwidth factor: busbw = algbw x factor (all-reduce 2(n-1)/n, all-gather,
// reduce-scatter and all-to-all (n-1)/n, broadcast and send/recv 1).
double busFactor(Collective c, int ranks);

struct CollectiveCost {
  std::string algorithm;
  double seconds = 0;        // overhead + latency + bandwidth
  double overhead_s = 0;     // the call's fixed cost
  double latency_s = 0;      // the steps' route latencies
  double bandwidth_s = 0;    // the steps' busiest-link transfer times
  int64_t steps = 0;
  int64_t chunks = 1;        // pipelined algorithms: the chunks the message went in
  double bytes_per_link = 0; // the most bytes any one link carried, one direction
  double link_bytes = 0;     // bytes times links crossed, all links together
  double energy_pj = 0;      // link_bytes at each link's energy
};

struct CollectiveQuery {
  Collective op = Collective::AllReduce;
  double bytes = 0;
  std::string algorithm;     // empty: the cheapest that applies
};

// The algorithms that apply to `op` on this network, by name.
std::vector<std::string> algorithmsFor(Collective op, const Network& net);
// Every algorithm that applies, costed, cheapest first (ties in name order).
std::vector<CollectiveCost> costAll(Collective op, double bytes, const Network& net, double overhead_s);
// The forced algorithm or the cheapest. A group of one rank moves nothing ("none", 0 s).
// Throws ConfigError (unlocated; the caller names the option) for an algorithm that does not
// apply, naming those that do.
CollectiveCost costCollective(const CollectiveQuery& q, const Network& net, double overhead_s);
// The same algorithm's steps executed by the fabric engine (sim/fabric.h: the SystemC fabric,
// where messages on a link wait their turn): seconds, the call overhead included. The algorithm
// is `q.algorithm` or the one costCollective chooses. nullopt in a binary without the fabric.
std::optional<double> executeCollective(const CollectiveQuery& q, const Network& net, double overhead_s);

}  // namespace tessel::systems
