// Moves through the mapper's space from one mapping: one dim's tile or PE factor changed
// (neighbours), two traded against each other, buffering and bypasses flipped (pairMoves).
#include <algorithm>
#include <array>
#include <cstdint>

#include "dataflows/nest/candidates.h"

namespace tessel::dataflows::nest {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool contains(const std::vector<Dim>& v, Dim d) { return std::find(v.begin(), v.end(), d) != v.end(); }

// Keeps the loops of each level in their previous relative order; a dim that gains a loop goes
// where the canonical order puts it relative to the others (innermost if unsure).
void reorder(Mapping& m) {
  for (auto& lv : m.levels) {
    std::vector<Dim> order;
    for (Dim d : lv.order) {
      if (lv.factor[at(d)] > 1) order.push_back(d);
    }
    for (Dim d : kAllDims) {
      if (lv.factor[at(d)] > 1 && !contains(order, d)) order.push_back(d);
    }
    lv.order = order;
  }
}

// Above a cluster level: the shared local memory's tile along d grown or shrunk over the tiles
// the clusters take (its loop against DRAM's).
void outerTiles(const Mapping& m, const Problem& p, const Hardware& hw, const Constraints& c,
                Dim d, std::vector<Mapping>& out) {
  const int local = hw.local();
  if (local == hw.array()) return;
  const int64_t inner = m.tile(local + 1, d, hw.array()) * m.levels[size_t(local)].spatial[at(d)];
  for (int64_t tile : tileSizes(p.of(d), inner, 16)) {
    Mapping x = m;
    x.levels[size_t(local)].factor[at(d)] = ceilDiv(tile, inner);
    x.levels[0].factor[at(d)] = ceilDiv(p.of(d), std::min(p.of(d), x.tile(1, d, hw.array())));
    if (x.levels[size_t(local)].factor[at(d)] == m.levels[size_t(local)].factor[at(d)]) continue;
    reorder(x);
    conformOrders(x, c, hw);
    if (checkCapacity(p, x, hw).empty()) out.push_back(std::move(x));
  }
}

}  // namespace

std::vector<Mapping> neighbours(const Mapping& m, const Problem& p, const Hardware& hw,
                                const Constraints& c, bool whole_rows) {
  std::vector<Mapping> out;
  const int pe = hw.pe(), local = hw.array();  // the tile level: the last shared one
  for (Dim d : kAllDims) {
    if (p.of(d) <= 1) continue;
    const int64_t spatial = m.allSpatial(d);
    const int64_t pe_f = m.levels[size_t(pe)].factor[at(d)];
    const bool pe_loop = contains(c.pe_loops, d);
    auto emit = [&](int64_t new_pe, int64_t tile) {
      if (whole_rows && d == Dim::K && tile < p.of(d)) return;
      Mapping x = m;
      x.levels[size_t(pe)].factor[at(d)] = new_pe;
      x.levels[size_t(local)].factor[at(d)] = ceilDiv(tile, new_pe * spatial);
      for (int l = 1; l < local; ++l) x.levels[size_t(l)].factor[at(d)] = 1;
      x.levels[0].factor[at(d)] = ceilDiv(p.of(d), tile);
      reorder(x);
      conformOrders(x, c, hw);
      if (checkCapacity(p, x, hw).empty()) out.push_back(std::move(x));
    };
    if (hw.systolic && pe_loop) {
      for (int64_t t : tileSizes(ceilDiv(p.of(d), spatial), 1, SIZE_MAX)) emit(t, t * spatial);
      continue;
    }
    for (int64_t tile : tileSizes(p.of(d), pe_f * spatial, SIZE_MAX)) {
      if (tile != m.tile(local, d, hw.array())) emit(pe_f, tile);
    }
    if (pe_loop && !hw.systolic) {
      const int64_t tile = m.tile(local, d, hw.array());
      for (int64_t t : tileSizes(ceilDiv(p.of(d), spatial), 1, SIZE_MAX)) {
        if (t != pe_f && t * spatial <= tile) emit(t, tile);
      }
    }
    outerTiles(m, p, hw, c, d, out);
  }
  return out;
}


namespace {

// Bytes the L2's kept tiles take in each of its pools.
std::array<double, kTensors> l2Pools(const Mapping& m, const Problem& p, const Hardware& hw) {
  const int l2 = hw.l2;
  const Level& lv = hw.levels[size_t(l2)];
  Factors tile;
  for (Dim d : kAllDims) tile[at(d)] = m.tile(l2, d, hw.array());
  std::array<double, kTensors> pool{};
  for (size_t t = 0; t < kTensors; ++t) {
    if (!m.levels[size_t(l2)].keeps[t]) continue;
    const auto x = static_cast<Operand>(t);
    const DType dt = x == Operand::Input ? p.input_dtype : x == Operand::Weight ? p.weight_dtype : p.output_dtype;
    pool[size_t(lv.pool_of[t])] += p.footprint(x, tile) * bytesOf(dt);
  }
  return pool;
}

// Within half of each pool, as the whole tensors the skeleton keeps there: the planner's resident
// activations take the other half.
bool l2Fits(const Mapping& m, const Problem& p, const Hardware& hw) {
  const std::array<double, kTensors> pool = l2Pools(m, p, hw);
  const Level& lv = hw.levels[size_t(hw.l2)];
  for (size_t k = 0; k < kTensors; ++k) {
    if (lv.pool_bytes[k] >= 0 && pool[k] > lv.pool_bytes[k] / 2) return false;
  }
  return true;
}

}  // namespace

std::vector<Mapping> l2Blocks(const Mapping& m, const Problem& p, const Hardware& hw,
                              const Constraints& c) {
  std::vector<Mapping> out;
  const int l2 = hw.l2;
  if (l2 <= 0 || l2 >= hw.local()) return out;
  for (int l = 1; l < hw.local(); ++l) {
    for (Dim d : kAllDims) {
      if (l != l2 && m.levels[size_t(l)].factor[at(d)] > 1) return out;  // a cluster level's loops
    }
  }
  Factors outer = kOnes;
  for (Dim d : kAllDims) outer[at(d)] = m.levels[0].factor[at(d)] * m.levels[size_t(l2)].factor[at(d)];
  std::vector<size_t> extra;  // tensors the L2 may keep besides what it keeps now
  for (size_t t = 0; t < kTensors; ++t) {
    if (hw.levels[size_t(l2)].can_hold[t] && !m.levels[size_t(l2)].keeps[t]) extra.push_back(t);
  }
  if (extra.empty()) return out;
  // Keep sets: each extra tensor alone, and all of them (the fit check drops what is too big).
  std::vector<std::vector<size_t>> sets;
  for (size_t t : extra) sets.push_back({t});
  if (extra.size() > 1) sets.push_back(extra);
  for (Dim d : kAllDims) {
    if (outer[at(d)] <= 1) continue;
    for (int64_t inner : tileSizes(outer[at(d)], 1, 6)) {
      if (inner >= outer[at(d)]) continue;
      Mapping x = m;
      for (Dim e : kAllDims) {
        x.levels[size_t(l2)].factor[at(e)] = e == d ? inner : outer[at(e)];
        x.levels[0].factor[at(e)] = e == d ? ceilDiv(outer[at(d)], inner) : 1;
      }
      x.levels[0].order = {d};
      for (const std::vector<size_t>& set : sets) {
        Mapping y = x;
        for (size_t t : set) y.levels[size_t(l2)].keeps[t] = true;
        if (!l2Fits(y, p, hw) || !checkCapacity(p, y, hw).empty()) continue;
        // The L2's loops ordered so each tensor in turn stays in the local memories while the
        // loops it does not depend on turn inside (what streams past the L2 is read least).
        for (size_t t = 0; t < kTensors; ++t) {
          Mapping z = y;
          auto& order = z.levels[size_t(l2)].order;
          order.clear();
          for (bool relevant : {true, false}) {
            for (Dim e : kAllDims) {
              if (z.levels[size_t(l2)].factor[at(e)] > 1 &&
                  Problem::relevant(static_cast<Operand>(t), e) == relevant) {
                order.push_back(e);
              }
            }
          }
          conformOrders(z, c, hw);
          if (std::none_of(out.begin(), out.end(), [&](const Mapping& w) {
                return w.levels[size_t(l2)].order == z.levels[size_t(l2)].order &&
                       w.levels[size_t(l2)].factor == z.levels[size_t(l2)].factor &&
                       w.levels[size_t(l2)].keeps == z.levels[size_t(l2)].keeps;
              })) {
            out.push_back(std::move(z));
          }
        }
      }
    }
  }
  return out;
}

std::vector<Mapping> pairMoves(const Mapping& m, const Problem& p, const Hardware& hw,
                               const Constraints& c) {
  // One dim grows by a step while another shrinks by one: trades capacity between them, which
  // single-dim moves cannot do once a buffer is full.
  std::vector<Mapping> out;
  const int pe = hw.pe(), local = hw.array();
  struct Step {
    Dim d;
    int level;
    int64_t factor;
  };
  std::vector<Step> ups, downs;
  for (Dim d : kAllDims) {
    if (p.of(d) <= 1) continue;
    for (int level : {local, pe}) {
      if (level == pe && (!contains(c.pe_loops, d) || hw.systolic)) continue;
      const int64_t f = m.levels[size_t(level)].factor[at(d)];
      const int64_t cap = ceilDiv(p.of(d), m.tile(level, d, hw.array()) / f);
      if (f < cap) ups.push_back({d, level, std::min(cap, f + std::max<int64_t>(1, f / 4))});
      if (f > 1) downs.push_back({d, level, std::max<int64_t>(1, f - std::max<int64_t>(1, f / 4))});
    }
  }
  auto apply = [&](Mapping& x, const Step& s) {
    x.levels[size_t(s.level)].factor[at(s.d)] = s.factor;
    x.levels[0].factor[at(s.d)] = 1;
    x.levels[0].factor[at(s.d)] = ceilDiv(p.of(s.d), std::min(p.of(s.d), x.tile(0, s.d, hw.array())));
  };
  for (const Step& u : ups) {
    for (const Step& dn : downs) {
      if (u.d == dn.d && u.level == dn.level) continue;
      Mapping x = m;
      apply(x, dn);
      apply(x, u);
      reorder(x);
      conformOrders(x, c, hw);
      if (checkCapacity(p, x, hw).empty()) out.push_back(std::move(x));
    }
  }
  Mapping flip = m;
  flip.double_buffered = !m.double_buffered;
  if (checkCapacity(p, flip, hw).empty()) out.push_back(flip);
  // Registers below a PE's register file: kept or passed by, whichever costs less.
  for (size_t l = size_t(hw.pe()) + 1; l < m.levels.size(); ++l) {
    for (size_t t = 0; t < kTensors; ++t) {
      if (!hw.levels[l].can_hold[t]) continue;
      Mapping x = m;
      x.levels[l].keeps[t] = !x.levels[l].keeps[t];
      if (checkCapacity(p, x, hw).empty()) out.push_back(std::move(x));
    }
  }
  // A tensor the dataflow lets bypass a level: streamed past it, or kept when the level can.
  for (Role r : {Role::L2, Role::Local}) {
    const int l = levelOf(r, hw);
    if (l < 0) continue;
    for (size_t t = 0; t < kTensors; ++t) {
      if (!c.bypass[static_cast<size_t>(r)][t]) continue;
      Mapping x = m;
      bool& keeps = x.levels[size_t(l)].keeps[t];
      if (!keeps && !hw.levels[size_t(l)].can_hold[t]) continue;
      keeps = !keeps;
      if (checkShape(x, p, hw).empty() && checkCapacity(p, x, hw).empty()) out.push_back(std::move(x));
    }
  }
  return out;
}


}  // namespace tessel::dataflows::nest
