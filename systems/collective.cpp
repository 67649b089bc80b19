#include "systems/collective.h"

#include <algorithm>

#include "sim/fabric.h"
#include "systems/algorithms.h"
#include "util/error.h"

namespace tessel::systems {

namespace {

constexpr Collective kAll[] = {Collective::AllReduce, Collective::AllGather,
                               Collective::ReduceScatter, Collective::AllToAll,
                               Collective::SendRecv, Collective::Broadcast};

// On a hierarchical system the dimension-ordered algorithm is the hierarchical one: the
// nodes' fabric first, then across nodes (reduce-scatter in, all-reduce across, all-gather out).
std::string shownName(const Algorithm& a, const Network& net) {
  if (a.name == "dimension-ordered" && net.topology().kind == "hierarchical") return "hierarchical";
  return a.name;
}

CollectiveCost run(const Algorithm& a, Collective op, double bytes, const Network& net,
                   double overhead_s) {
  CollectiveCost c;
  c.algorithm = shownName(a, net);
  StepCoster sc(net);
  a.build(op, bytes, net, sc, c);
  c.overhead_s = c.steps > 0 ? overhead_s : 0;
  c.seconds = c.overhead_s + c.latency_s + c.bandwidth_s;
  return c;
}

}  // namespace

std::string_view nameOf(Collective c) {
  switch (c) {
    case Collective::AllReduce: return "all-reduce";
    case Collective::AllGather: return "all-gather";
    case Collective::ReduceScatter: return "reduce-scatter";
    case Collective::AllToAll: return "all-to-all";
    case Collective::SendRecv: return "send-recv";
    case Collective::Broadcast: return "broadcast";
  }
  return "?";
}

std::optional<Collective> parseCollective(std::string_view name) {
  for (Collective c : kAll) {
    if (nameOf(c) == name) return c;
  }
  return std::nullopt;
}

double busFactor(Collective c, int ranks) {
  const double n = ranks;
  if (ranks <= 1) return 0;
  switch (c) {
    case Collective::AllReduce: return 2 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return (n - 1) / n;
    case Collective::SendRecv:
    case Collective::Broadcast: return 1;
  }
  return 1;
}

std::vector<std::string> algorithmsFor(Collective op, const Network& net) {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithms()) {
    if (a.applies(op, net)) names.push_back(shownName(a, net));
  }
  return names;
}

std::vector<CollectiveCost> costAll(Collective op, double bytes, const Network& net,
                                    double overhead_s) {
  std::vector<CollectiveCost> all;
  if (net.ranks() <= 1) return {CollectiveCost{"none"}};
  for (const Algorithm& a : algorithms()) {
    if (a.applies(op, net)) all.push_back(run(a, op, bytes, net, overhead_s));
  }
  std::stable_sort(all.begin(), all.end(), [](const CollectiveCost& a, const CollectiveCost& b) {
    return a.seconds != b.seconds ? a.seconds < b.seconds : a.algorithm < b.algorithm;
  });
  return all;
}

CollectiveCost costCollective(const CollectiveQuery& q, const Network& net, double overhead_s) {
  if (net.ranks() <= 1) return CollectiveCost{"none"};
  if (q.algorithm.empty()) {
    const std::vector<CollectiveCost> all = costAll(q.op, q.bytes, net, overhead_s);
    if (all.empty())
      throw ConfigError({}, std::string(nameOf(q.op)) + " over " + std::to_string(net.ranks()) +
                                " ranks: no modeled algorithm applies (every-to-every steps of more "
                                "than 4 M messages are not evaluated)");
    return all.front();
  }
  for (const Algorithm& a : algorithms()) {
    if (shownName(a, net) == q.algorithm && a.applies(q.op, net))
      return run(a, q.op, q.bytes, net, overhead_s);
  }
  std::string known;
  for (const std::string& n : algorithmsFor(q.op, net)) known += (known.empty() ? "" : ", ") + n;
  throw ConfigError({}, "algorithm '" + q.algorithm + "' does not run " +
                            std::string(nameOf(q.op)) + " on this group; it runs " + known);
}

std::optional<double> executeCollective(const CollectiveQuery& q, const Network& net, double overhead_s) {
  const sim::FabricRunner* runner = sim::fabricRunner();
  if (!runner) return std::nullopt;
  if (net.ranks() <= 1) return 0.0;
  const std::string name = costCollective(q, net, overhead_s).algorithm;
  for (const Algorithm& a : algorithms()) {
    if (shownName(a, net) != name || !a.applies(q.op, net)) continue;
    std::vector<sim::FabricStep> steps;
    CollectiveCost c;
    StepCoster sc(net);
    sc.record(&steps);
    a.build(q.op, q.bytes, net, sc, c);
    std::vector<sim::FabricLink> links(static_cast<size_t>(net.links()));
    for (int id = 0; id < net.links(); ++id) links[static_cast<size_t>(id)].bandwidth = net.link(id).bandwidth;
    return (c.steps > 0 ? overhead_s : 0.0) + (*runner)(links, steps);
  }
  return std::nullopt;
}

}  // namespace tessel::systems
