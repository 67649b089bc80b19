// The loop-nest cost model's brute force, part two: what an element-level enumeration of a nest
// over a chain or a tree of levels (fan-outs, per-copy cluster buffers, several per-PE levels)
// counts, and its comparison with evaluate():
//   - operands: the tile each copy of a level holds over time and what moves down to it, each
//     network (a fan-out's, the array's) merging what its copies take together when it multicasts;
//   - outputs: the partial sums through the output's levels, value by value, per copy.
// Used by nest_brute_force_test.cpp (chains) and nest_tree_brute_force_test.cpp (trees).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <string>
#include <vector>

#include "dataflows/nest/cost.h"
#include "tests/dataflows/nest_enumeration.h"

namespace tessel::testing::brute {

// ---------------------------------------------------------------------------------------------
// Transfers. A hop of a tensor runs from a level that keeps it (the parent) to the next one down
// that does (the child; the MACs past the last level). A copy of a level is one combination of
// the spatial loops above its tile: those above the parent pick the parent's copy, those of the
// fan-outs between (crossed) pick the child's copy under it. Every fan-out between is a network
// (a level's with fanout > 1; the array's always) the hop's traffic passes, outermost first.
// What moves at one time is a set of events (element, parent copy, child copy). A network carries
// one transfer per group of events it cannot tell apart: one that shares (multicast for operands,
// reduction for outputs) does not tell apart the child copies its own loops pick, and none tells
// apart those the sharing networks further in pick (one transfer reaches them all, or arrives
// already summed). Its copies receive one per group the sharing networks further in leave. The
// parent reads (or takes as updates) one per group every sharing network of the hop leaves.

// Elements (bytes / the tensor's width) per level and tensor and per network (levelNet, arrayNet).
struct Tally {
  explicit Tally(size_t levels)
      : reads(levels),
        fills(levels),
        updates(levels),
        results(levels),
        sent(2 * levels),
        delivered(2 * levels) {}
  std::vector<std::array<double, 3>> reads, fills, updates;
  std::vector<std::array<double, 3>> results;  // distinct outputs updated (off chip: its width)
  std::vector<std::array<double, 3>> sent, delivered;
};

struct Hop {
  int par = 0, ch = 0;              // levels; ch = the number of levels: the MACs
  size_t cut = 0;                   // the loops above the child's tile
  std::vector<size_t> above;        // spatial loops above the parent: its copy
  std::vector<size_t> crossed;      // spatial loops between: the child's copy under the parent's
  int64_t parents = 1, copies = 1;  // combinations of each
  std::vector<int> nets;            // networks crossed, outermost first
  std::vector<char> shares;         // per network
};

inline Hop hopOf(const Case& c, Operand t, int par, int ch) {
  Hop h;
  h.par = par, h.ch = ch;
  h.cut = ch == c.levels() ? c.loops.size() : c.cut(ch);
  for (size_t i = 0; i < h.cut; ++i) {
    const Lp& l = c.loops[i];
    if (!l.spatial) continue;
    (l.level < par ? h.above : h.crossed).push_back(i);
    (l.level < par ? h.parents : h.copies) *= l.f;
  }
  const bool out = t == Operand::Output;
  for (int l = par; l < std::min(ch, c.levels()); ++l) {
    const Level& lv = c.hw.levels[size_t(l)];
    if (lv.fanout > 1) {
      h.nets.push_back(levelNet(l));
      h.shares.push_back(out ? lv.fanout_reduction : lv.fanout_multicast);
    }
    if (l == c.hw.array()) {
      h.nets.push_back(arrayNet(l));
      h.shares.push_back(out ? c.hw.reduction : c.hw.multicast);
    }
  }
  return h;
}

// What moved at one time: `stamp` names the time (one per step of the hop's enumeration).
struct Event {
  int64_t stamp, e, parent, local;
};

// The sharing networks of h from position `from` of h.nets in (and the one at `self` if it shares).
inline std::vector<int> sharing(const Hop& h, size_t from, int self = -1) {
  std::vector<int> v;
  for (size_t k = 0; k < h.nets.size(); ++k) {
    if (h.shares[k] && (k >= from || int(k) == self)) v.push_back(h.nets[k]);
  }
  return v;
}

// local -> local with the digits of the loops of `merged` networks at 0.
inline std::vector<int64_t> mergeTable(const Case& c, const Hop& h,
                                       const std::vector<int>& merged) {
  std::vector<int64_t> t(size_t(h.copies));
  for (int64_t local = 0; local < h.copies; ++local) {
    int64_t rest = local, out = 0, scale = 1;
    for (size_t k = h.crossed.size(); k-- > 0;) {
      const Lp& l = c.loops[h.crossed[k]];
      const int64_t digit = rest % l.f;
      rest /= l.f;
      if (std::find(merged.begin(), merged.end(), l.net) == merged.end()) out += digit * scale;
      scale *= l.f;
    }
    t[size_t(local)] = out;
  }
  return t;
}

// Distinct events when the child digits of `merged` networks are not told apart.
inline double distinct(const Case& c, const Hop& h, const std::vector<Event>& events,
                       const std::vector<int>& merged) {
  const std::vector<int64_t> table = mergeTable(c, h, merged);
  int64_t elements = 1;
  for (const Event& x : events) elements = std::max(elements, x.e + 1);
  std::vector<int64_t> keys;
  keys.reserve(events.size());
  for (const Event& x : events) {
    keys.push_back(((x.stamp * elements + x.e) * h.parents + x.parent) * h.copies +
                   table[size_t(x.local)]);
  }
  std::sort(keys.begin(), keys.end());
  return double(std::unique(keys.begin(), keys.end()) - keys.begin());
}

// Each network of h: what enters it and what its copies receive, plus `extra` transfers that
// pass every network once (partial sums sent back down).
inline void countNetworks(const Case& c, const Hop& h, const std::vector<Event>& events,
                          double extra, size_t t, Tally& out) {
  for (size_t k = 0; k < h.nets.size(); ++k) {
    out.sent[size_t(h.nets[k])][t] += distinct(c, h, events, sharing(h, k + 1, int(k))) + extra;
    out.delivered[size_t(h.nets[k])][t] += distinct(c, h, events, sharing(h, k + 1)) + extra;
  }
}

// What moves down one hop of tensor t (an output's residencies alike): per step of the temporal
// loops above the child's tile, per child copy, its tile (`all`); with reuse (`kept`) less what it
// kept from its last tile when the outermost loop that turned since is the innermost relevant one
// (jstar) or inside it, or, for the input when jstar slides a window, a loop of the same window
// axis (p and r, or q and s) outside it with no other temporal loop between. A copy with no element
// at a step keeps what it has.
struct Moves {
  std::vector<Event> all, kept;
};

inline Moves tileMoves(const Case& c, Operand t, const Hop& h) {
  const Elements el(c.p, t);
  std::vector<size_t> time, space = h.above;
  space.insert(space.end(), h.crossed.begin(), h.crossed.end());
  int jstar = -1;
  for (size_t i = 0; i < h.cut; ++i) {
    if (!c.loops[i].spatial) time.push_back(i);
    if (!c.loops[i].spatial && addresses(t, c.loops[i].d)) jstar = int(i);
  }
  auto axis = [](Dim d) {
    return d == Dim::P || d == Dim::R ? 1 : d == Dim::Q || d == Dim::S ? 2 : 0;
  };
  int slide = jstar;  // the outermost loop of the sliding group
  if (t == Operand::Input && jstar >= 0 && axis(c.loops[size_t(jstar)].d) != 0) {
    for (int i = jstar - 1; i >= 0; --i) {
      const Lp& l = c.loops[size_t(i)];
      if (l.spatial) continue;
      if (axis(l.d) != axis(c.loops[size_t(jstar)].d)) break;
      slide = i;
    }
  }
  struct Copy {
    std::vector<int64_t> kept, at;  // its last tile and the loop indices then
  };
  std::vector<Copy> copies(size_t(h.parents * h.copies));
  std::vector<int64_t> idx(c.loops.size(), 0);
  Moves moves;
  int64_t step = 0;
  do {
    for (size_t n = 0; n < copies.size(); ++n) {
      setDigits(idx, space, c.loops, int64_t(n));
      std::vector<int64_t> s = tileOf(c, el, idx, h.cut);
      if (s.empty()) continue;
      Copy& x = copies[n];
      int turned = INT_MAX;  // the outermost loop that turned since the copy's last tile
      for (size_t i = 0; i < time.size() && !x.at.empty(); ++i) {
        if (x.at[time[i]] != idx[time[i]]) {
          turned = int(time[i]);
          break;
        }
      }
      const bool keep = !x.at.empty() && turned >= slide;
      for (int64_t e : s) {
        const Event ev{step, e, int64_t(n) / h.copies, int64_t(n) % h.copies};
        moves.all.push_back(ev);
        if (!keep || !std::binary_search(x.kept.begin(), x.kept.end(), e)) moves.kept.push_back(ev);
      }
      x.kept = std::move(s);
      x.at = idx;
    }
    ++step;
  } while (advance(idx, time, c.loops) >= 0);
  return moves;
}

// Every hop of an operand: the parent reads, the child is filled, the networks carry.
inline void operandTransfers(const Case& c, Operand t, Tally& out) {
  const size_t ts = size_t(t);
  std::vector<int> chain{c.o.home[ts]};
  for (int l = c.o.home[ts] + 1; l < c.levels(); ++l) {
    if (c.m.levels[size_t(l)].keeps[ts]) chain.push_back(l);
  }
  chain.push_back(c.levels());
  for (size_t i = 0; i + 1 < chain.size(); ++i) {
    const Hop h = hopOf(c, t, chain[i], chain[i + 1]);
    const bool mac = h.ch == c.levels();
    const Moves all = tileMoves(c, t, h);
    const std::vector<Event>& moves = mac ? all.all : all.kept;  // every MAC takes its operand
    out.reads[size_t(h.par)][ts] += distinct(c, h, moves, sharing(h, 0));
    if (!mac) out.fills[size_t(h.ch)][ts] += double(moves.size());
    countNetworks(c, h, moves, 0, ts, out);
  }
}

// ---------------------------------------------------------------------------------------------
// Partial sums value by value. The output's levels: its home, every level below it that keeps
// outputs; each copy of a level holds a value per element (here the number of MACs summed into
// it). Per step of the temporal loops above the innermost one's tile:
//   1. a level whose tile indices relevant to outputs changed drains, innermost first: each copy's
//      value is read and sent up to its parent copy, one update per event the hop's sharing
//      networks do not merge (a reduction adds the merged ones on the way);
//   2. then starts its new tile, outermost first: of the copies under one parent copy that start
//      an element together, one takes a refill when the parent copy holds a partial sum of it
//      (the parent reads it and hands it down), the others start at zero;
//   3. the MACs below the innermost level, per step of its loops, update its copies the same way.
// An update reads the copy it lands on when that copy holds a partial sum, and writes it: the
// first update of a residency that started at zero reads nothing, nor does the update that
// follows a refill (the refill took the sum down; what comes back replaces it).
class PartialSums {
 public:
  PartialSums(const Case& c, Tally& out);
  void run();

  int64_t refills = 0, reduced = 0;  // coverage: refills sent, updates that merged several copies
  int64_t refills_under_copies = 0;  // refills from a parent of several copies
  std::string error;                 // a broken invariant of the simulation itself

 private:
  struct Node {
    int level = 0;
    size_t cut = 0;
    Hop hop;                                  // from the node above (the home: none)
    std::vector<int64_t> merge;               // mergeTable of the hop's sharing networks
    std::vector<size_t> space;                // spatial loops above its tile: its copy
    std::vector<std::vector<int64_t>> value;  // [copy][element]
    std::vector<std::vector<char>> held;      // [copy][element]
    std::vector<int64_t> key;                 // the relevant loop indices of its current tile
    std::vector<Event> events;                // what went up its hop
    double hop_refills = 0;                   // refills it took
  };
  bool turned(Node& x, const std::vector<int64_t>& idx);
  void send(Node& parent, const Hop& h, const std::vector<int64_t>& merge, int64_t e,
            const std::vector<std::pair<int64_t, int64_t>>& up, std::vector<Event>& log);
  void drain(size_t k);
  void start(size_t k, const std::vector<int64_t>& idx);
  void macs(const std::vector<int64_t>& idx);
  void update(Node& x, int64_t copy, int64_t e, int64_t v);

  const Case& c_;
  Tally& out_;
  Elements el_;
  std::vector<Node> nodes_;  // home first
  Hop mac_hop_;              // from the innermost node to the MACs
  std::vector<int64_t> mac_merge_;
  std::vector<Event> mac_events_;
  std::vector<std::vector<char>> updated_;  // [level][element]
  std::vector<int64_t> macs_;               // per element, MACs so far
  int64_t stamp_ = 0;
};

inline PartialSums::PartialSums(const Case& c, Tally& out)
    : c_(c), out_(out), el_(c.p, Operand::Output) {
  const size_t e = size_t(el_.size());
  const int home = c.o.home[2];
  for (int l = home; l < c.levels(); ++l) {
    if (l != home && !c.m.levels[size_t(l)].keeps[2]) continue;
    Node x;
    x.level = l;
    x.cut = l == home ? 0 : c.cut(l);
    if (l != home) {
      x.hop = hopOf(c, Operand::Output, nodes_.back().level, l);
      x.merge = mergeTable(c, x.hop, sharing(x.hop, 0));
    }
    for (size_t i = 0; i < x.cut; ++i) {
      if (c.loops[i].spatial) x.space.push_back(i);
    }
    const size_t copies = size_t(count(x.space, c.loops));
    x.value.assign(copies, std::vector<int64_t>(e, 0));
    x.held.assign(copies, std::vector<char>(e, l == home));
    nodes_.push_back(std::move(x));
  }
  mac_hop_ = hopOf(c, Operand::Output, nodes_.back().level, c.levels());
  mac_merge_ = mergeTable(c, mac_hop_, sharing(mac_hop_, 0));
  updated_.assign(c.hw.levels.size(), std::vector<char>(e, 0));
  macs_.assign(e, 0);
}

inline bool PartialSums::turned(Node& x, const std::vector<int64_t>& idx) {
  std::vector<int64_t> key{0};  // never empty: the first step always starts a tile
  for (size_t i = 0; i < x.cut; ++i) {
    if (!c_.loops[i].spatial && addresses(Operand::Output, c_.loops[i].d)) key.push_back(idx[i]);
  }
  if (key == x.key) return false;
  x.key = std::move(key);
  return true;
}

inline void PartialSums::update(Node& x, int64_t copy, int64_t e, int64_t v) {
  int64_t& held = x.value[size_t(copy)][size_t(e)];
  if (!x.held[size_t(copy)][size_t(e)]) error = "an update reached a copy that is not resident";
  out_.reads[size_t(x.level)][2] += held != 0;
  out_.updates[size_t(x.level)][2] += 1;
  char& u = updated_[size_t(x.level)][size_t(e)];
  out_.results[size_t(x.level)][2] += !u;
  u = 1;
  held += v;
}

// Values of element e going up hop h at one time, (copy below, value) each: one update per group
// the hop's sharing networks merge.
inline void PartialSums::send(Node& parent, const Hop& h, const std::vector<int64_t>& table,
                              int64_t e, const std::vector<std::pair<int64_t, int64_t>>& up,
                              std::vector<Event>& log) {
  std::vector<std::pair<int64_t, int64_t>> groups;  // (parent copy x copies + merged, value)
  std::vector<int64_t> members;
  for (auto [n, v] : up) {
    const int64_t pc = n / h.copies, local = n % h.copies;
    log.push_back({stamp_, e, pc, local});
    const int64_t g = pc * h.copies + table[size_t(local)];
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == g; });
    if (it == groups.end()) {
      groups.push_back({g, v}), members.push_back(1);
    } else {
      it->second += v, ++members[size_t(it - groups.begin())];
    }
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    update(parent, groups[i].first / h.copies, e, groups[i].second);
    reduced += members[i] > 1;
  }
}

inline void PartialSums::drain(size_t k) {
  Node& x = nodes_[k];
  for (size_t e = 0; e < size_t(el_.size()); ++e) {
    std::vector<std::pair<int64_t, int64_t>> up;
    for (size_t n = 0; n < x.value.size(); ++n) {
      if (!x.held[n][e]) continue;
      up.push_back({int64_t(n), x.value[n][e]});
      x.held[n][e] = 0, x.value[n][e] = 0;
    }
    out_.reads[size_t(x.level)][2] += double(up.size());
    send(nodes_[k - 1], x.hop, x.merge, int64_t(e), up, x.events);
  }
  ++stamp_;
}

inline void PartialSums::start(size_t k, const std::vector<int64_t>& idx) {
  Node& x = nodes_[k];
  Node& parent = nodes_[k - 1];
  std::vector<int64_t> at = idx;
  std::vector<std::vector<char>> refilled(parent.value.size(),
                                          std::vector<char>(size_t(el_.size()), 0));
  for (size_t n = 0; n < x.value.size(); ++n) {
    setDigits(at, x.space, c_.loops, int64_t(n));
    const size_t pc = n / size_t(x.hop.copies);
    for (int64_t e : tileOf(c_, el_, at, x.cut)) {
      x.held[n][size_t(e)] = 1;
      if (!parent.held[pc][size_t(e)]) error = "a copy started an element its parent does not hold";
      int64_t& from = parent.value[pc][size_t(e)];
      if (from == 0 || refilled[pc][size_t(e)]) continue;  // starts at zero
      refilled[pc][size_t(e)] = 1;
      out_.reads[size_t(parent.level)][2] += 1;
      out_.fills[size_t(x.level)][2] += 1;
      x.value[n][size_t(e)] = from;
      from = 0;
      ++refills, x.hop_refills += 1;
      refills_under_copies += parent.value.size() > 1;
    }
  }
}

inline void PartialSums::macs(const std::vector<int64_t>& idx) {
  Node& z = nodes_.back();
  const Hop& h = mac_hop_;
  std::vector<size_t> steps;  // the temporal loops below the innermost node's tile
  for (size_t i = z.cut; i < c_.loops.size(); ++i) {
    if (!c_.loops[i].spatial) steps.push_back(i);
  }
  std::vector<int64_t> at = idx;
  for (size_t i : steps) at[i] = 0;
  do {
    std::vector<std::vector<std::pair<int64_t, int64_t>>> up(size_t(el_.size()));
    for (int64_t n = 0; n < h.parents * h.copies; ++n) {
      setDigits(at, h.above, c_.loops, n / h.copies);
      setDigits(at, h.crossed, c_.loops, n % h.copies);
      Coord x;
      if (!macAt(c_, at, x)) continue;
      const int64_t e = el_.id(x);
      ++macs_[size_t(e)];
      up[size_t(e)].push_back({n, 1});
    }
    for (size_t e = 0; e < up.size(); ++e) {
      if (!up[e].empty()) send(z, h, mac_merge_, int64_t(e), up[e], mac_events_);
    }
    ++stamp_;
  } while (advance(at, steps, c_.loops) >= 0);
}

inline void PartialSums::run() {
  std::vector<size_t> time;  // the temporal loops above the innermost node's tile
  for (size_t i = 0; i < nodes_.back().cut; ++i) {
    if (!c_.loops[i].spatial) time.push_back(i);
  }
  std::vector<int64_t> idx(c_.loops.size(), 0);
  do {
    std::vector<char> changed(nodes_.size(), 0);
    for (size_t k = 1; k < nodes_.size(); ++k) changed[k] = turned(nodes_[k], idx);
    for (size_t k = nodes_.size(); k-- > 1;) {
      if (changed[k]) drain(k);
    }
    for (size_t k = 1; k < nodes_.size(); ++k) {
      if (changed[k]) start(k, idx);
    }
    macs(idx);
  } while (advance(idx, time, c_.loops) >= 0);
  for (size_t k = nodes_.size(); k-- > 1;) drain(k);
  for (size_t e = 0; e < size_t(el_.size()); ++e) {
    if (nodes_[0].value[0][e] != macs_[e]) error = "the home does not hold every MAC's sum";
  }
  for (size_t k = 1; k < nodes_.size(); ++k) {
    countNetworks(c_, nodes_[k].hop, nodes_[k].events, nodes_[k].hop_refills, 2, out_);
  }
  countNetworks(c_, mac_hop_, mac_events_, 0, 2, out_);
}

// ---------------------------------------------------------------------------------------------
// Comparison.

// One number the model gives and the brute force's.
struct Check {
  std::string what;
  double model, brute;
};

// Every tensor's transfers and partial sums enumerated, with what the simulation met.
struct Enumeration {
  explicit Enumeration(const Case& c) : tally(c.hw.levels.size()) {}
  Tally tally;
  int64_t refills = 0, reduced = 0, refills_under_copies = 0;
  std::string error;
};

inline Enumeration enumerate(const Case& c) {
  Enumeration x(c);
  operandTransfers(c, Operand::Input, x.tally);
  operandTransfers(c, Operand::Weight, x.tally);
  PartialSums sim(c, x.tally);
  sim.run();
  x.refills = sim.refills, x.reduced = sim.reduced;
  x.refills_under_copies = sim.refills_under_copies, x.error = sim.error;
  return x;
}

// evaluate()'s reads, fills, updates and writes per level and tensor, and every network's bytes,
// against the enumeration's counts at each tensor's width (partial sums at the accumulator's; off
// chip, the last update of each element is the result, at the output's).
inline std::vector<Check> costChecks(const Case& c, const Tally& t) {
  const Cost cost = dataflows::nest::evaluate(c.p, c.m, c.hw, c.o);
  EXPECT_TRUE(cost.ok) << cost.reason;
  if (!cost.ok) return {};
  const double acc = bytesOf(c.hw.accum_dtype), out = bytesOf(c.p.output_dtype);
  const std::array<double, 3> width{double(bytesOf(c.p.input_dtype)),
                                    double(bytesOf(c.p.weight_dtype)), acc};
  std::vector<Check> v;
  for (size_t l = 0; l < c.hw.levels.size(); ++l) {
    for (size_t ts = 0; ts < 3; ++ts) {
      const std::string at = c.hw.levels[l].name + " " + kTensorName[ts];
      double updates = t.updates[l][ts] * width[ts];
      if (c.hw.levels[l].off_chip) updates += t.results[l][ts] * (out - acc);
      const double fills = t.fills[l][ts] * width[ts];
      v.push_back({at + " reads", cost.reads[l][ts], t.reads[l][ts] * width[ts]});
      v.push_back({at + " fills", cost.fills[l][ts], fills});
      v.push_back({at + " updates", cost.updates[l][ts], updates});
      v.push_back({at + " writes", cost.writes[l][ts], fills + updates});
      v.push_back({at + " fan-out sent", cost.fanout_sent[l][ts],
                   t.sent[size_t(levelNet(int(l)))][ts] * width[ts]});
      v.push_back({at + " fan-out delivered", cost.fanout_delivered[l][ts],
                   t.delivered[size_t(levelNet(int(l)))][ts] * width[ts]});
    }
  }
  const size_t noc = size_t(arrayNet(c.hw.array()));
  for (size_t ts = 0; ts < 3; ++ts) {
    v.push_back({std::string("noc bytes ") + kTensorName[ts], cost.noc_bytes[ts],
                 t.sent[noc][ts] * width[ts]});
    v.push_back({std::string("delivered ") + kTensorName[ts], cost.delivered[ts],
                 t.delivered[noc][ts] * width[ts]});
  }
  return v;
}

// Expects every check to agree; a case that disagrees is printed (the first `printed` in full).
inline void expectAgree(const std::vector<Check>& checks, const Case& c, const std::string& name,
                        int& failing, int printed = 3) {
  const bool agree =
      std::all_of(checks.begin(), checks.end(), [](const Check& x) { return x.model == x.brute; });
  if (agree || ++failing > printed) return;
  for (const Check& x : checks) EXPECT_DOUBLE_EQ(x.model, x.brute) << name << ": " << x.what;
  ADD_FAILURE() << name << " (model vs brute force above):\n" << c.text();
}

}  // namespace tessel::testing::brute
