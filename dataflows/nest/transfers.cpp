#include <algorithm>
#include <array>
#include <utility>

#include "dataflows/nest/cost_parts.h"

namespace tessel::dataflows::nest {

namespace {

// One hop of a tensor's chain, from the level that holds it (parent) to the next that keeps it
// (child, or the MACs).
struct Hop {
  int par = 0, ch = 0;
  bool mac = false;      // the child is the MACs
  bool crosses = false;  // the hop crosses a fan-out (the array's NoC or a level's)
  size_t cut = 0;        // the nest's cut above the child's tile
  uint64_t fans = 0;     // the fan-outs it crosses (fanBit)
  uint64_t shared = 0;   // those that multicast (operands) or reduce (outputs)
};

// Every fan-out between par and ch (ch = the MACs when past the last level), and which of them
// share transfers for tensor t.
void crossings(const Hardware& hw, Operand t, Hop& h) {
  const bool out = t == Operand::Output;
  for (int l = h.par; l < h.ch && l < static_cast<int>(hw.levels.size()); ++l) {
    const Level& lv = hw.levels[size_t(l)];
    if (lv.fanout > 1) {
      h.fans |= fanBit(l, false);
      if (out ? lv.fanout_reduction : lv.fanout_multicast) h.shared |= fanBit(l, false);
    }
    if (l == hw.array()) {
      h.fans |= fanBit(l, true);
      if (out ? hw.reduction : hw.multicast) h.shared |= fanBit(l, true);
    }
  }
  h.crosses = h.fans != 0;
}

// A hop's volumes by collapse mask, each computed once: countNetworks asks again for the masks
// the hop's own counts already used (Nest::volume is the cost model's largest part).
template <typename F>
class HopVolumes {
 public:
  explicit HopVolumes(F f) : f_(std::move(f)) {}
  double operator()(uint64_t collapse) const {
    for (int i = 0; i < n_; ++i) {
      if (keys_[size_t(i)] == collapse) return values_[size_t(i)];
    }
    const double v = f_(collapse);
    if (n_ < static_cast<int>(keys_.size())) keys_[size_t(n_)] = collapse, values_[size_t(n_++)] = v;
    return v;
  }

 private:
  F f_;
  mutable std::array<uint64_t, 8> keys_{};
  mutable std::array<double, 8> values_{};
  mutable int n_ = 0;
};

// The bytes each crossed fan-out carries: into its network, the fan-outs inside it sharing
// (`sent`), and what its copies receive (`delivered`: only the ones further in share). The
// array's goes to noc_bytes / delivered, a level's to fanout_sent / fanout_delivered.
template <typename Volume>
void countNetworks(const Hop& h, size_t ts, double bytes, double extra, const Volume& volume,
                   Cost& c) {
  for (uint64_t b = h.fans; b; b &= b - 1) {
    const uint64_t bit = b & -b;
    const uint64_t inner = h.shared & ~((bit << 1) - 1);  // shared fan-outs further in
    const double sent = (volume(inner | (h.shared & bit)) + extra) * bytes;
    const double got = (volume(inner) + extra) * bytes;
    const int id = __builtin_ctzll(bit);
    if (id % 2 == 1) {
      c.noc_bytes[ts] += sent, c.delivered[ts] += got;
    } else {
      c.fanout_sent[size_t(id / 2)][ts] += sent, c.fanout_delivered[size_t(id / 2)][ts] += got;
    }
  }
}

// Inputs and weights: the parent reads what moves down (once per multicast), the child writes
// what it receives.
void countOperand(const Problem& p, const Mapping& m, const Hardware& hw, const Nest& nest,
                  Operand t, const Hop& h, Cost& c) {
  const size_t ts = at(t);
  const int local = hw.local();
  // EveryTile re-loads into the local memory (an L2 above serves them); a tensor loaded Once
  // never moves again on any hop down to the local memory.
  Mapping::Reload how = h.ch <= local ? m.reload[ts] : Mapping::Reload::Nest;
  if (how == Mapping::Reload::EveryTile && h.ch != local) how = Mapping::Reload::Nest;
  const bool reuse = !h.mac && how != Mapping::Reload::EveryTile;
  const HopVolumes volume([&](uint64_t collapse) {
    return how == Mapping::Reload::Once ? p.elements(t) : nest.volume(t, h.cut, reuse, collapse);
  });
  const double u = volume(h.shared);
  const double dlv = h.crosses ? volume(0) : u;
  double b = sizeOf(t == Operand::Input ? p.input_dtype : p.weight_dtype);
  if (t == Operand::Input && hw.levels[size_t(h.par)].off_chip && !h.crosses) b *= p.im2col_unique;
  c.reads[size_t(h.par)][ts] += u * b;
  if (!h.mac) c.writes[size_t(h.ch)][ts] += dlv * b, c.fills[size_t(h.ch)][ts] += dlv * b;
  countNetworks(h, ts, b, 0, volume, c);
}

// Partial sums. Every residency of an output in the child ends by sending it up: `u` updates
// reach the parent (one per group of PEs the NoC reduces). An element's first residency in a
// level starts at zero; every later one is a refill: the parent sends the partial sum back down
// (one per reduced group: its other PEs start at zero). So of the updates the parent takes, all
// but one per element either accumulate into it or follow a refill it sent: each costs the
// parent a read. In a PE the MACs' accumulates read the register except on a fresh start.
// Copies of a level under a fan-out that splits a dim outputs ignore each hold their own partial
// sum of an element: each starts it at zero once, and refills come per copy.
// A level's output residencies (every copy's) and the refills among them.
struct Residencies {
  double residencies = 0, refills = 0;
};

void countOutput(const Problem& p, const Hardware& hw, const CostOptions& o, const Nest& nest,
                 const Hop& h, std::vector<Residencies>& res, Cost& c) {
  const size_t ts = at(Operand::Output);
  const double elements = p.elements(Operand::Output);
  const double acc_b = sizeOf(hw.accum_dtype);
  const bool reuse = !h.mac;  // every MAC updates its sum
  const HopVolumes volume(
      [&](uint64_t collapse) { return nest.volume(Operand::Output, h.cut, reuse, collapse); });
  const double u = volume(h.shared);
  const double residencies = h.crosses ? volume(0) : u;
  // Child copies the crossed fan-outs join form a group: a refill goes to one of them, the others
  // start at zero.
  const double groups = h.crosses ? volume(h.fans) : u;
  // Updates the parent must read for: u less its fresh starts, every residency of it that is
  // not a refill (the home: each element once).
  const Residencies& rp = res[size_t(h.par)];
  const double fresh = h.par == o.home[ts] ? elements : rp.residencies - rp.refills;
  const double again = std::max(0.0, u - fresh);
  // A group's residency starts at zero when it is the first of its element in a parent
  // residency that itself started at zero; every other one is a refill.
  const double refills = h.mac ? 0.0 : std::max(0.0, groups - fresh);
  const Level& lp = hw.levels[size_t(h.par)];
  // The last update of each element off chip is the result, at the output's width.
  const double up = lp.off_chip ? std::min(u, elements) * sizeOf(p.output_dtype) +
                                      std::max(0.0, u - elements) * acc_b
                                : u * acc_b;
  c.writes[size_t(h.par)][ts] += up;
  c.updates[size_t(h.par)][ts] += up;
  c.reads[size_t(h.par)][ts] += again * acc_b;
  if (!h.mac) res[size_t(h.ch)] = {residencies, refills};
  if (!h.mac) {
    c.reads[size_t(h.ch)][ts] += residencies * acc_b;
    c.writes[size_t(h.ch)][ts] += refills * acc_b;
    c.fills[size_t(h.ch)][ts] += refills * acc_b;
  }
  countNetworks(h, ts, acc_b, refills, volume, c);
}

}  // namespace

void countTransfers(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
                    const Nest& nest, Cost& c) {
  const size_t nl = hw.levels.size();
  c.reads.assign(nl, PerTensor{});
  c.writes.assign(nl, PerTensor{});
  c.fills.assign(nl, PerTensor{});
  c.updates.assign(nl, PerTensor{});
  c.fanout_sent.assign(nl, PerTensor{});
  c.fanout_delivered.assign(nl, PerTensor{});
  for (int ti = 0; ti < kTensors; ++ti) {
    const auto t = static_cast<Operand>(ti);
    const auto ts = static_cast<size_t>(ti);
    SmallVector<int, 8> chain;
    chain.push_back(o.home[ts]);
    for (int l = o.home[ts] + 1; l < static_cast<int>(nl); ++l) {
      if (m.levels[size_t(l)].keeps[ts]) chain.push_back(l);
    }
    chain.push_back(static_cast<int>(nl));  // the MACs
    std::vector<Residencies> residencies(nl);  // set by the hop into a level, read by the hop out
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
      Hop h;
      h.par = chain[i];
      h.ch = chain[i + 1];
      h.mac = h.ch == static_cast<int>(nl);
      h.cut = h.mac ? nest.size() : nest.cut(h.ch);
      crossings(hw, t, h);
      if (t == Operand::Output) {
        countOutput(p, hw, o, nest, h, residencies, c);
      } else {
        countOperand(p, m, hw, nest, t, h, c);
      }
    }
  }
}

}  // namespace tessel::dataflows::nest
