#include <algorithm>

#include "dataflows/nest/cost_parts.h"

namespace tessel::dataflows::nest {

namespace {

// One hop of a tensor's chain, from the level that holds it (parent) to the next that keeps it
// (child, or the MACs).
struct Hop {
  int par = 0, ch = 0;
  bool mac = false;      // the child is the MACs
  bool crosses = false;  // the hop crosses the NoC (shared level above, PEs or MACs below)
  size_t cut = 0;        // the nest's cut above the child's tile
};

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
  const Space space = h.crosses && hw.multicast ? Space::Collapse : Space::All;
  double u = nest.volume(t, h.cut, reuse, space);
  double dlv = h.crosses ? nest.volume(t, h.cut, reuse, Space::All) : u;
  if (how == Mapping::Reload::Once) u = dlv = p.elements(t);
  double b = sizeOf(t == Operand::Input ? p.input_dtype : p.weight_dtype);
  if (t == Operand::Input && hw.levels[size_t(h.par)].off_chip && !h.crosses) b *= p.im2col_unique;
  c.reads[size_t(h.par)][ts] += u * b;
  if (!h.mac) c.writes[size_t(h.ch)][ts] += dlv * b;
  if (h.crosses) c.noc_bytes[ts] += u * b, c.delivered[ts] += dlv * b;
}

// Partial sums. Every residency of an output in the child ends by sending it up: `u` updates
// reach the parent (one per group of PEs the NoC reduces). An element's first residency in a
// level starts at zero; every later one is a refill: the parent sends the partial sum back down
// (one per reduced group: its other PEs start at zero). So of the updates the parent takes, all
// but one per element either accumulate into it or follow a refill it sent: each costs the
// parent a read. In a PE the MACs' accumulates read the register except on a fresh start.
// The PE level's output residencies, every PE's (All) and one per reduced group (Collapse).
struct PeResidencies {
  double residencies = 0, groups = 0;
};

void countOutput(const Problem& p, const Hardware& hw, const CostOptions& o, const Nest& nest,
                 const Hop& h, PeResidencies& pe, Cost& c) {
  const size_t ts = at(Operand::Output);
  const double elements = p.elements(Operand::Output);
  const double acc_b = sizeOf(hw.accum_dtype);
  const Space space = h.crosses && hw.reduction ? Space::Collapse : Space::All;
  const bool reuse = !h.mac;  // every MAC updates its sum
  const double u = nest.volume(Operand::Output, h.cut, reuse, space);
  auto other = [&](Space s) { return s == space ? u : nest.volume(Operand::Output, h.cut, reuse, s); };
  const double residencies = h.crosses ? other(Space::All) : u;
  const double groups = h.crosses ? other(Space::Collapse) : u;
  // Updates the parent must read for: u less each element's fresh start in the parent. A
  // per-PE parent (the MACs' register) starts fresh in every residency that is not a refill.
  double fresh = elements;
  if (h.par == hw.pe() && h.par != o.home[ts]) fresh = pe.residencies - std::max(0.0, pe.groups - elements);
  const double again = std::max(0.0, u - fresh);
  const double refills = h.mac ? 0.0 : std::max(0.0, groups - elements);
  const Level& lp = hw.levels[size_t(h.par)];
  if (lp.off_chip) {
    // The last update of each element is the result, at the output's width.
    c.writes[size_t(h.par)][ts] += std::min(u, elements) * sizeOf(p.output_dtype) +
                                   std::max(0.0, u - elements) * acc_b;
  } else {
    c.writes[size_t(h.par)][ts] += u * acc_b;
  }
  c.reads[size_t(h.par)][ts] += again * acc_b;
  if (h.ch == hw.pe()) pe = {residencies, groups};
  if (!h.mac) {
    c.reads[size_t(h.ch)][ts] += residencies * acc_b;
    c.writes[size_t(h.ch)][ts] += refills * acc_b;
  }
  if (h.crosses) {
    c.noc_bytes[ts] += (u + refills) * acc_b;
    c.delivered[ts] += (residencies + refills) * acc_b;
  }
}

}  // namespace

void countTransfers(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
                    const Nest& nest, Cost& c) {
  const size_t nl = hw.levels.size();
  const int pe = hw.pe(), local = hw.local();
  c.reads.assign(nl, PerTensor{});
  c.writes.assign(nl, PerTensor{});
  for (int ti = 0; ti < kTensors; ++ti) {
    const auto t = static_cast<Operand>(ti);
    const auto ts = static_cast<size_t>(ti);
    SmallVector<int, 8> chain;
    chain.push_back(o.home[ts]);
    for (int l = o.home[ts] + 1; l < static_cast<int>(nl); ++l) {
      if (m.levels[size_t(l)].keeps[ts]) chain.push_back(l);
    }
    chain.push_back(static_cast<int>(nl));  // the MACs
    PeResidencies pe_residencies;  // set by the hop into the PEs, read by the hop out of them
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
      Hop h;
      h.par = chain[i];
      h.ch = chain[i + 1];
      h.mac = h.ch == static_cast<int>(nl);
      h.cut = h.mac ? nest.size() : nest.cut(h.ch);
      h.crosses = h.par <= local && (h.mac || h.ch == pe);
      if (t == Operand::Output) {
        countOutput(p, hw, o, nest, h, pe_residencies, c);
      } else {
        countOperand(p, m, hw, nest, t, h, c);
      }
    }
  }
}

}  // namespace tessel::dataflows::nest
