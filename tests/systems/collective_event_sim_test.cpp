// The step model against a brute-force event simulation. Here every message of an algorithm is
// its own event with the messages it waits for (a rank forwards what it has received), each
// directed link a resource held by one message at a time, for the message's whole crossing
// (its route's latency plus its bytes at the link's bandwidth: a chunk is handed over before the
// link takes the next), and no steps: a message starts as soon as what it waits for has arrived
// and its links are free. Without contention the two must agree exactly; with it, the event
// simulation serializes the messages on a shared link, each with its latency, where the step
// model shares the bandwidth and pays the latency once.
#include <gtest/gtest.h>

#include <algorithm>
#include <queue>

#include "systems/collective.h"
#include "systems/steps.h"

namespace tessel::systems {
namespace {

struct Event {
  int src, dst;
  double bytes;
  std::vector<int> after;  // messages that must have arrived first
};

// Completion time of the last message, scheduling the ready message that can start earliest.
double simulate(const std::vector<Event>& events, const Network& net) {
  const size_t n = events.size();
  std::vector<double> arrival(n, -1);
  std::vector<double> link_free(static_cast<size_t>(net.links()), 0);
  std::vector<bool> done(n, false);
  double end = 0;
  for (size_t scheduled = 0; scheduled < n; ++scheduled) {
    size_t pick = n;
    double pick_start = 0;
    std::vector<int> pick_route;
    for (size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      double ready = 0;
      bool blocked = false;
      for (int d : events[i].after) {
        if (!done[static_cast<size_t>(d)]) blocked = true;
        else ready = std::max(ready, arrival[static_cast<size_t>(d)]);
      }
      if (blocked) continue;
      std::vector<int> route;
      net.route(events[i].src, events[i].dst, route);
      double start = ready;
      for (int l : route) start = std::max(start, link_free[static_cast<size_t>(l)]);
      if (pick == n || start < pick_start) pick = i, pick_start = start, pick_route = route;
    }
    double latency = 0, slowest = 1e300;
    for (int l : pick_route) {
      if (net.charged(l)) latency += net.link(l).latency;
      slowest = std::min(slowest, net.link(l).bandwidth);
    }
    const double finish = pick_start + latency + events[pick].bytes / slowest;
    for (int l : pick_route) link_free[static_cast<size_t>(l)] = finish;
    arrival[pick] = finish;
    done[pick] = true;
    end = std::max(end, finish);
  }
  return end;
}

// Ring all-reduce: in step k rank r sends a chunk of S/n to r+1, after receiving step k-1's
// chunk from r-1 and sending its own step k-1 chunk.
std::vector<Event> ringAllReduce(int n, double s) {
  std::vector<Event> e;
  const auto id = [n](int step, int r) { return step * n + r; };
  for (int k = 0; k < 2 * (n - 1); ++k) {
    for (int r = 0; r < n; ++r) {
      Event m{r, (r + 1) % n, s / n, {}};
      if (k > 0) m.after = {id(k - 1, (r + n - 1) % n), id(k - 1, r)};
      e.push_back(m);
    }
  }
  return e;
}

// Recursive halving then doubling: partner r ^ d, each exchange after the previous one's.
std::vector<Event> halvingDoubling(int n, double s) {
  std::vector<Event> e;
  std::vector<int> dists;
  std::vector<double> sizes;
  for (int d = n / 2; d >= 1; d /= 2) dists.push_back(d), sizes.push_back(s * d / n);
  for (int d = 1; d < n; d *= 2) dists.push_back(d), sizes.push_back(s * d / n);
  for (size_t k = 0; k < dists.size(); ++k) {
    for (int r = 0; r < n; ++r) {
      Event m{r, r ^ dists[k], sizes[k], {}};
      if (k > 0) {
        const int prev = r ^ dists[k - 1];
        m.after = {static_cast<int>((k - 1) * n + prev), static_cast<int>((k - 1) * n + r)};
      }
      e.push_back(m);
    }
  }
  return e;
}

// A broadcast down a chain in C chunks: rank i forwards chunk c once it has it and has sent c-1.
std::vector<Event> chain(int n, double s, int chunks) {
  std::vector<Event> e;
  const auto id = [n](int c, int i) { return c * (n - 1) + i; };
  for (int c = 0; c < chunks; ++c) {
    for (int i = 0; i + 1 < n; ++i) {
      Event m{i, i + 1, s / chunks, {}};
      if (i > 0) m.after.push_back(id(c, i - 1));
      if (c > 0) m.after.push_back(id(c - 1, i));
      e.push_back(m);
    }
  }
  return e;
}

Topology topo(DimKind kind, std::vector<int> sizes) {
  Topology t;
  t.kind = "test";
  for (int s : sizes) t.dims.push_back({kind, s, {40e9, 1.5e-6, 1}, 0});
  return t;
}

double model(Collective op, const std::string& algorithm, double s, const Topology& t) {
  return costCollective({op, s, algorithm}, Network(t), 0).seconds;
}

TEST(CollectiveEventSim, RingAllReduceAgreesExactlyWithoutContention) {
  const double s = 3 << 20;
  for (const auto& [kind, sizes] : std::vector<std::pair<DimKind, std::vector<int>>>{
           {DimKind::Ring, {5}}, {DimKind::Ring, {8}}, {DimKind::Switch, {6}}, {DimKind::Ring, {3, 3}},
           {DimKind::FullyConnected, {4}}}) {
    const Topology t = topo(kind, sizes);
    const Network net(t);
    const double event = simulate(ringAllReduce(net.ranks(), s), net);
    EXPECT_NEAR(model(Collective::AllReduce, "ring", s, t), event, 1e-12 * event) << net.ranks();
  }
}

TEST(CollectiveEventSim, HalvingDoublingOnASwitchAgreesExactly) {
  const Topology t = topo(DimKind::Switch, {8});
  const Network net(t);
  const double s = 1 << 20;
  EXPECT_NEAR(model(Collective::AllReduce, "halving-doubling", s, t), simulate(halvingDoubling(8, s), net),
              1e-15);
}

TEST(CollectiveEventSim, APipelinedChainAgreesAtTheChosenChunks) {
  const Topology t = topo(DimKind::Line, {6});
  const Network net(t);
  for (double s : {256.0 * 1024, 4.0 * (1 << 20)}) {
    const CollectiveCost c = costCollective({Collective::Broadcast, s, "ring"}, net, 0);
    const double event = simulate(chain(6, s, static_cast<int>(c.chunks)), net);
    EXPECT_NEAR(c.seconds, event, 1e-12 * event) << s;
  }
}

TEST(CollectiveEventSim, ContentionIsWithinAQuarter) {
  // Halving-doubling on a ring of 8: partners 4 apart share links both ways round.
  const Topology t = topo(DimKind::Ring, {8});
  const Network net(t);
  const double s = 8 << 20;
  const double step = model(Collective::AllReduce, "halving-doubling", s, t);
  const double event = simulate(halvingDoubling(8, s), net);
  EXPECT_NEAR(step, event, 0.25 * event);
}

}  // namespace
}  // namespace tessel::systems
