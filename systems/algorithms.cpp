// The collective algorithms as steps of messages. Each builder adds its steps to a cost; the
// step engine (systems/steps.h) routes them and times them.
#include "systems/algorithms.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessel::systems {

namespace {

Groups flat(const Network& net) {
  std::vector<int> all(static_cast<size_t>(net.ranks()));
  for (int r = 0; r < net.ranks(); ++r) all[static_cast<size_t>(r)] = r;
  return {all};
}

// The lines along dimension `d` (every rank in one), or only those through ranks whose
// coordinates beyond `d` are 0 (`root_only`: where a broadcast's data is when it reaches d).
Groups lines(const Network& net, int d, bool root_only = false) {
  Groups gs;
  const int size = net.topology().dims[static_cast<size_t>(d)].size;
  for (int r = 0; r < net.ranks(); ++r) {
    if (net.coordinate(r, d) != 0) continue;
    bool beyond_zero = true;
    for (int e = d + 1; e < static_cast<int>(net.topology().dims.size()); ++e)
      beyond_zero = beyond_zero && net.coordinate(r, e) == 0;
    if (root_only && !beyond_zero) continue;
    std::vector<int> line;
    for (int c = 0; c < size; ++c) line.push_back(net.withCoordinate(r, d, c));
    gs.push_back(line);
  }
  return gs;
}

size_t width(const Groups& gs) { return gs.front().size(); }

// Every member sends `bytes` to the member `shift` places on (both ways when `both`).
Step shifted(const Groups& gs, size_t shift, double bytes, bool both) {
  Step s;
  for (const auto& g : gs) {
    const size_t m = g.size();
    for (size_t i = 0; i < m; ++i) {
      s.push_back({g[i], g[(i + shift) % m], bytes});
      if (both) s.push_back({g[i], g[(i + m - shift % m) % m], bytes});
    }
  }
  return s;
}

// Every member sends `bytes` to every other member.
Step everyToEvery(const Groups& gs, double bytes) {
  Step s;
  for (const auto& g : gs) {
    for (int a : g) {
      for (int b : g) {
        if (a != b) s.push_back({a, b, bytes});
      }
    }
  }
  return s;
}

// Reduce-scatter or all-gather of a buffer of `bytes` per group: m - 1 ring steps of bytes/m.
void ringHalf(StepCoster& sc, const Groups& gs, double bytes, bool both, CollectiveCost& c) {
  const double m = static_cast<double>(width(gs));
  sc.add(shifted(gs, 1, both ? bytes / (2 * m) : bytes / m, both), m - 1, c);
}

void directHalf(StepCoster& sc, const Groups& gs, double bytes, CollectiveCost& c) {
  sc.add(everyToEvery(gs, bytes / static_cast<double>(width(gs))), 1, c);
}

// Recursive halving (reduce-scatter) or doubling (all-gather): partners at distances m/2 .. 1
// exchanging half of what is left, or 1 .. m/2 exchanging all that is held.
void halvingDoubling(StepCoster& sc, const Groups& gs, double bytes, bool gather, CollectiveCost& c) {
  const size_t m = width(gs);
  for (size_t k = 1; k < m; k *= 2) {
    const size_t dist = gather ? k : m / (2 * k);
    const double moved = gather ? bytes * static_cast<double>(k) / static_cast<double>(m)
                                : bytes / static_cast<double>(2 * k);
    Step s;
    for (const auto& g : gs) {
      for (size_t i = 0; i < m; ++i) s.push_back({g[i], g[i ^ dist], moved});
    }
    sc.add(s, 1, c);
  }
}

// A binary tree over `order` in heap layout: position p's parent is (p - 1) / 2.
int heapDepth(size_t m) { return m <= 1 ? 0 : static_cast<int>(std::floor(std::log2(static_cast<double>(m)))); }

void treeEdges(const std::vector<int>& order, double bytes, bool up, bool down, Step& s) {
  for (size_t p = 1; p < order.size(); ++p) {
    const int child = order[p], parent = order[(p - 1) / 2];
    if (up) s.push_back({child, parent, bytes});
    if (down) s.push_back({parent, child, bytes});
  }
}

// One phase along a dimension, by its kind: both ways round a ring, once round a line (the
// way back uses the other direction's links), at once on a switch or a fully connected net.
void dimHalf(StepCoster& sc, const Network& net, int d, double bytes, CollectiveCost& c) {
  const Groups gs = lines(net, d);
  const DimKind kind = net.topology().dims[static_cast<size_t>(d)].kind;
  if (kind == DimKind::Switch || kind == DimKind::FullyConnected) return directHalf(sc, gs, bytes, c);
  ringHalf(sc, gs, bytes, kind == DimKind::Ring, c);
}

void dimensionOrdered(Collective op, double bytes, const Network& net, StepCoster& sc, CollectiveCost& c) {
  const int dims = static_cast<int>(net.topology().dims.size());
  std::vector<double> held{bytes};  // per rank-line buffer entering each dimension
  for (int d = 0; d < dims; ++d)
    held.push_back(held.back() / net.topology().dims[static_cast<size_t>(d)].size);
  if (op == Collective::ReduceScatter || op == Collective::AllReduce) {
    for (int d = 0; d < dims; ++d) dimHalf(sc, net, d, held[static_cast<size_t>(d)], c);
  }
  if (op == Collective::AllGather || op == Collective::AllReduce) {
    for (int d = dims - 1; d >= 0; --d) dimHalf(sc, net, d, held[static_cast<size_t>(d)], c);
  }
  if (op == Collective::AllToAll) {
    for (int d = 0; d < dims; ++d) directHalf(sc, lines(net, d), bytes, c);
  }
  if (op == Collective::Broadcast) {
    for (int d = 0; d < dims; ++d) {
      const Groups gs = lines(net, d, true);
      if (net.topology().dims[static_cast<size_t>(d)].kind == DimKind::FullyConnected) {
        Step s;
        for (const auto& g : gs)
          for (size_t i = 1; i < g.size(); ++i) s.push_back({g[0], g[i], bytes});
        sc.add(s, 1, c);
        continue;
      }
      Step chain;
      for (const auto& g : gs)
        for (size_t i = 0; i + 1 < g.size(); ++i) chain.push_back({g[i], g[i + 1], bytes});
      sc.addPipelined(chain, static_cast<int64_t>(width(gs)) - 1, c);
    }
  }
}

// One phase along dimension `d` as (step, repeat): as dimHalf takes it, or all-to-all's direct
// step.
std::pair<Step, int64_t> dimPhase(const Network& net, int d, double bytes, bool all_to_all) {
  const Groups gs = lines(net, d);
  const size_t m = width(gs);
  const DimKind kind = net.topology().dims[static_cast<size_t>(d)].kind;
  if (all_to_all || kind == DimKind::Switch || kind == DimKind::FullyConnected)
    return {everyToEvery(gs, bytes / static_cast<double>(m)), 1};
  const bool both = kind == DimKind::Ring;
  return {shifted(gs, 1, bytes / static_cast<double>(both ? 2 * m : m), both), static_cast<int64_t>(m) - 1};
}

// The buffer in k shares (k dimensions), share j taking the dimensions in the order j, j+1, ...:
// at every step each share is on another dimension, so every dimension's links work at once
// (the multi-dimensional rings a torus runs). Steps in lockstep: step t is every share's t-th
// (runs of equal steps costed once, with their count).
void rotatedDimensions(Collective op, double bytes, const Network& net, StepCoster& sc, CollectiveCost& c) {
  const int k = static_cast<int>(net.topology().dims.size());
  std::vector<std::vector<std::pair<Step, int64_t>>> shares(static_cast<size_t>(k));
  for (int j = 0; j < k; ++j) {
    std::vector<int> order;
    for (int i = 0; i < k; ++i) order.push_back((j + i) % k);
    std::vector<double> held{bytes / k};
    for (int d : order) held.push_back(held.back() / net.topology().dims[static_cast<size_t>(d)].size);
    auto& runs = shares[static_cast<size_t>(j)];
    const auto append = [&](int d, double b, bool a2a) {
      auto run = dimPhase(net, d, b, a2a);
      if (run.second > 0) runs.push_back(std::move(run));
    };
    if (op == Collective::ReduceScatter || op == Collective::AllReduce)
      for (int i = 0; i < k; ++i) append(order[static_cast<size_t>(i)], held[static_cast<size_t>(i)], false);
    if (op == Collective::AllGather || op == Collective::AllReduce)
      for (int i = k - 1; i >= 0; --i) append(order[static_cast<size_t>(i)], held[static_cast<size_t>(i)], false);
    if (op == Collective::AllToAll)
      for (int i = 0; i < k; ++i) append(order[static_cast<size_t>(i)], bytes / k, true);
  }
  std::vector<size_t> at(shares.size(), 0);        // each share's current run
  std::vector<int64_t> done(shares.size(), 0);     // steps of it taken
  for (;;) {
    Step together;
    int64_t count = std::numeric_limits<int64_t>::max();
    for (size_t j = 0; j < shares.size(); ++j) {
      if (at[j] >= shares[j].size()) continue;
      const auto& [step, repeat] = shares[j][at[j]];
      together.insert(together.end(), step.begin(), step.end());
      count = std::min(count, repeat - done[j]);
    }
    if (together.empty()) return;
    sc.add(together, static_cast<double>(count), c);
    for (size_t j = 0; j < shares.size(); ++j) {
      if (at[j] >= shares[j].size()) continue;
      done[j] += count;
      if (done[j] == shares[j][at[j]].second) ++at[j], done[j] = 0;
    }
  }
}

bool powerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

// Every rank to every other is n(n-1) routed messages a step: beyond about 4 M (2,048 ranks)
// that alone takes seconds, and the dimension-ordered forms serve such groups anyway.
constexpr int64_t kMaxPairs = int64_t{1} << 22;
bool fewPairs(const Network& net) {
  return static_cast<int64_t>(net.ranks()) * (net.ranks() - 1) <= kMaxPairs;
}

// The same bound for the dimension-ordered forms' every-to-every steps along one dimension
// (all-to-all, or a switch or fully connected dimension).
bool fewDimPairs(Collective op, const Network& net) {
  for (const Dim& d : net.topology().dims) {
    const bool pairs = op == Collective::AllToAll || d.kind == DimKind::Switch || d.kind == DimKind::FullyConnected;
    if (pairs && static_cast<int64_t>(net.ranks()) * (d.size - 1) > kMaxPairs) return false;
  }
  return true;
}

bool reducing(Collective op) {
  return op == Collective::AllReduce || op == Collective::ReduceScatter || op == Collective::AllGather;
}

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> all = {
      {"ring", [](Collective op, const Network&) { return reducing(op) || op == Collective::Broadcast; },
       [](Collective op, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         const Groups gs = flat(net);
         if (op == Collective::Broadcast) {
           Step chain;
           for (size_t i = 0; i + 1 < width(gs); ++i) chain.push_back({gs[0][i], gs[0][i + 1], s});
           return sc.addPipelined(chain, static_cast<int64_t>(width(gs)) - 1, c);
         }
         if (op != Collective::AllGather) ringHalf(sc, gs, s, false, c);
         if (op != Collective::ReduceScatter) ringHalf(sc, gs, s, false, c);
       }},
      {"bidirectional-ring", [](Collective op, const Network&) { return reducing(op); },
       [](Collective op, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         const Groups gs = flat(net);
         if (op != Collective::AllGather) ringHalf(sc, gs, s, true, c);
         if (op != Collective::ReduceScatter) ringHalf(sc, gs, s, true, c);
       }},
      {"double-binary-tree", [](Collective op, const Network&) { return op == Collective::AllReduce; },
       [](Collective, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         // Two trees, each reducing up and broadcasting down half the buffer; the second is the
         // first mirrored, so most of one's inner nodes are the other's leaves.
         std::vector<int> a = flat(net)[0], b(a.rbegin(), a.rend());
         Step stage;
         treeEdges(a, s / 2, true, true, stage);
         treeEdges(b, s / 2, true, true, stage);
         sc.addPipelined(stage, 2 * static_cast<int64_t>(heapDepth(a.size())), c);
       }},
      {"tree", [](Collective op, const Network&) { return op == Collective::Broadcast; },
       [](Collective, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         Step stage;
         treeEdges(flat(net)[0], s, false, true, stage);
         sc.addPipelined(stage, heapDepth(static_cast<size_t>(net.ranks())), c);
       }},
      {"halving-doubling",
       [](Collective op, const Network& net) { return reducing(op) && powerOfTwo(net.ranks()); },
       [](Collective op, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         const Groups gs = flat(net);
         if (op != Collective::AllGather) halvingDoubling(sc, gs, s, false, c);
         if (op != Collective::ReduceScatter) halvingDoubling(sc, gs, s, true, c);
       }},
      {"direct",
       [](Collective op, const Network& net) {
         return op == Collective::SendRecv || op == Collective::Broadcast || fewPairs(net);
       },
       [](Collective op, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         const Groups gs = flat(net);
         if (op == Collective::SendRecv) return sc.add({{0, net.ranks() - 1, s}}, 1, c);
         if (op == Collective::Broadcast) {
           Step st;
           for (int r = 1; r < net.ranks(); ++r) st.push_back({0, r, s});
           return sc.add(st, 1, c);
         }
         if (op != Collective::AllGather) directHalf(sc, gs, s, c);  // all-to-all: one of these
         if (op == Collective::AllReduce || op == Collective::AllGather) directHalf(sc, gs, s, c);
       }},
      {"pairwise", [](Collective op, const Network& net) { return op == Collective::AllToAll && fewPairs(net); },
       [](Collective, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         const Groups gs = flat(net);
         for (size_t k = 1; k < width(gs); ++k) sc.add(shifted(gs, k, s / static_cast<double>(width(gs)), false), 1, c);
       }},
      {"scatter-allgather", [](Collective op, const Network&) { return op == Collective::Broadcast; },
       [](Collective, double s, const Network& net, StepCoster& sc, CollectiveCost& c) {
         const Groups gs = flat(net);
         Step scatter;
         for (int r = 1; r < net.ranks(); ++r) scatter.push_back({0, r, s / net.ranks()});
         sc.add(scatter, 1, c);
         ringHalf(sc, gs, s, false, c);
       }},
      {"dimension-ordered",
       [](Collective op, const Network& net) {
         return op != Collective::SendRecv && net.topology().dims.size() >= 2 && fewDimPairs(op, net);
       },
       dimensionOrdered},
      {"rotated-dimensions",
       [](Collective op, const Network& net) {
         return (reducing(op) || op == Collective::AllToAll) && net.topology().dims.size() >= 2 &&
                fewDimPairs(op, net);
       },
       rotatedDimensions},
  };
  return all;
}

}  // namespace tessel::systems
