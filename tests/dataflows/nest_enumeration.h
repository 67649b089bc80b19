// The loop-nest cost model's brute force, part one: a case (problem, hardware, mapping) as the
// flat list of its loops, element ids, the odometer over loop indices, the tiles a cut holds,
// and random problems and mappings for chains and trees of levels. It reads only the Problem,
// Hardware and Mapping and shares no helper or formula with the model (dataflows/nest). The
// counts: nest_count_enumeration.h.
#pragma once

#include <algorithm>
#include <array>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dataflows/nest/cost.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel::testing::brute {

using dataflows::Operand;
using dataflows::nest::Cost;
using dataflows::nest::CostOptions;
using dataflows::nest::kAllDims;
using dataflows::nest::kDims;
using dataflows::nest::Problem;

using Coord = std::array<int64_t, kDims>;
using Rng = std::mt19937;

inline constexpr std::array<Operand, 3> kTensorList{Operand::Input, Operand::Weight,
                                                    Operand::Output};
inline const char* const kTensorName[] = {"input", "weight", "output"};

inline size_t ix(Dim d) { return static_cast<size_t>(d); }
inline int64_t up(int64_t a, int64_t b) { return (a + b - 1) / b; }
// Portable draws (the <random> distributions differ between standard libraries).
inline int64_t pick(Rng& r, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(r() % uint64_t(hi - lo + 1));
}
inline bool chance(Rng& r, int percent) { return pick(r, 0, 99) < percent; }

// The dims that address an element of each tensor.
inline bool addresses(Operand t, Dim d) {
  switch (t) {
    case Operand::Input:
      return d != Dim::K;
    case Operand::Weight:
      return d == Dim::G || d == Dim::K || d == Dim::C || d == Dim::R || d == Dim::S;
    case Operand::Output:
      return d == Dim::G || d == Dim::N || d == Dim::K || d == Dim::P || d == Dim::Q;
  }
  return false;
}

// The network a spatial loop spreads over: 2 x level for the level's fan-out, 2 x level + 1 for
// the array's below Hardware::array().
inline int levelNet(int level) { return 2 * level; }
inline int arrayNet(int level) { return 2 * level + 1; }

// One loop of the nest in nest order; one step of it adds `stride` to its dim's coordinate.
struct Lp {
  Dim d;
  int64_t f;
  int level;
  bool spatial;
  int64_t stride;
  int net;  // a spatial loop's network, -1 for a temporal one
};

// Per level: its temporal loops in order, its fan-out's spatial loops, and below the array level
// the array's rows then columns.
inline std::vector<Lp> nestLoops(const Mapping& m, const Hardware& hw) {
  std::vector<Lp> v;
  for (size_t l = 0; l < m.levels.size(); ++l) {
    const int li = int(l);
    for (Dim d : m.levels[l].order) {
      if (m.levels[l].factor[ix(d)] > 1)
        v.push_back({d, m.levels[l].factor[ix(d)], li, false, 1, -1});
    }
    for (Dim d : kAllDims) {
      const int64_t f = m.levels[l].spatial[ix(d)];
      if (f > 1) v.push_back({d, f, li, true, 1, levelNet(li)});
    }
    if (li != hw.array()) continue;
    for (const Factors* f : {&m.rows, &m.cols}) {
      for (Dim d : kAllDims) {
        if ((*f)[ix(d)] > 1) v.push_back({d, (*f)[ix(d)], li, true, 1, arrayNet(li)});
      }
    }
  }
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = i + 1; j < v.size(); ++j) v[i].stride *= v[j].d == v[i].d ? v[j].f : 1;
  }
  return v;
}

struct Case {
  Problem p;
  Hardware hw;
  Mapping m;
  CostOptions o;
  std::vector<Lp> loops;
  std::string text() const;
  int pe() const { return hw.pe(); }
  int levels() const { return int(hw.levels.size()); }
  // Loops above `level`'s tile: those of the levels above it, their fan-outs' spatial ones too.
  size_t cut(int level) const {
    size_t n = 0;
    for (const Lp& l : loops) n += l.level < level;
    return n;
  }
};

inline std::string Case::text() const {
  std::ostringstream s;
  s << p.describe() << " | stride " << p.stride_h << "x" << p.stride_w << " dilation "
    << p.dilation_h << "x" << p.dilation_w << " input " << p.input_h << "x" << p.input_w << "\n"
    << "levels";
  for (const auto& l : hw.levels) {
    s << " " << l.name;
    if (l.fanout > 1) {
      s << " (fan-out " << l.fanout << (l.fanout_multicast ? " multicast" : "")
        << (l.fanout_reduction ? " reduction" : "") << ")";
    }
  }
  s << "; array " << hw.rows << "x" << hw.cols << (hw.multicast ? " multicast" : "")
    << (hw.reduction ? " reduction" : "") << " below " << hw.levels[size_t(hw.array())].name
    << "; local " << hw.levels[size_t(hw.local())].name << "; outputs at home in "
    << hw.levels[size_t(o.home[2])].name << "\n"
    << m.loopNest(p, hw);
  return s.str();
}

// Row-major index of (index, extent) pairs.
inline int64_t linear(std::initializer_list<std::pair<int64_t, int64_t>> xs) {
  int64_t i = 0;
  for (auto [v, e] : xs) i = i * e + v;
  return i;
}

// Element ids of one tensor; -1 for an input row or column in the padding.
class Elements {
 public:
  Elements(const Problem& p, Operand t) : p_(p), t_(t) {
    axis(p.of(Dim::P), p.of(Dim::R), p.stride_h, p.dilation_h, p.input_h, rows_, lo_h_, hi_h_);
    axis(p.of(Dim::Q), p.of(Dim::S), p.stride_w, p.dilation_w, p.input_w, cols_, lo_w_, hi_w_);
    const int64_t g = p.of(Dim::G), n = p.of(Dim::N), k = p.of(Dim::K), c = p.of(Dim::C);
    size_ = t == Operand::Input    ? g * n * c * rows_ * cols_
            : t == Operand::Weight ? g * k * c * p.of(Dim::R) * p.of(Dim::S)
                                   : g * n * k * p.of(Dim::P) * p.of(Dim::Q);
  }
  int64_t size() const { return size_; }
  int64_t id(const Coord& x) const {
    auto v = [&](Dim d) { return std::pair{x[ix(d)], p_.of(d)}; };
    if (t_ == Operand::Weight) {
      return linear({v(Dim::G), v(Dim::K), v(Dim::C), v(Dim::R), v(Dim::S)});
    }
    if (t_ == Operand::Output) {
      return linear({v(Dim::G), v(Dim::N), v(Dim::K), v(Dim::P), v(Dim::Q)});
    }
    const int64_t row = x[ix(Dim::P)] * p_.stride_h + x[ix(Dim::R)] * p_.dilation_h;
    const int64_t col = x[ix(Dim::Q)] * p_.stride_w + x[ix(Dim::S)] * p_.dilation_w;
    if (row < lo_h_ || row >= hi_h_ || col < lo_w_ || col >= hi_w_) return -1;
    return linear({v(Dim::G), v(Dim::N), v(Dim::C), {row, rows_}, {col, cols_}});
  }

 private:
  // The rows an axis spans, and the unpadded ones [lo, hi): padding split evenly, the odd one
  // after.
  static void axis(int64_t out, int64_t win, int64_t stride, int64_t dil, int64_t input,
                   int64_t& span, int64_t& lo, int64_t& hi) {
    span = (out - 1) * stride + (win - 1) * dil + 1;
    const bool padded = input > 0 && input < span;
    lo = padded ? (span - input) / 2 : 0;
    hi = padded ? lo + input : span;
  }
  const Problem& p_;
  Operand t_;
  int64_t rows_ = 0, cols_ = 0, lo_h_ = 0, hi_h_ = 0, lo_w_ = 0, hi_w_ = 0, size_ = 0;
};

// Steps idx over the loops at `pos` like an odometer (the last fastest): the nest position of the
// outermost loop that turned, or -1 when all wrapped around.
inline int advance(std::vector<int64_t>& idx, const std::vector<size_t>& pos,
                   const std::vector<Lp>& loops) {
  for (size_t k = pos.size(); k-- > 0;) {
    if (++idx[pos[k]] < loops[pos[k]].f) return int(pos[k]);
    idx[pos[k]] = 0;
  }
  return -1;
}

// Sets the loops at `pos` to the digits of `n` (mixed radix, the last fastest).
inline void setDigits(std::vector<int64_t>& idx, const std::vector<size_t>& pos,
                      const std::vector<Lp>& loops, int64_t n) {
  for (size_t k = pos.size(); k-- > 0;) {
    idx[pos[k]] = n % loops[pos[k]].f;
    n /= loops[pos[k]].f;
  }
}

inline int64_t count(const std::vector<size_t>& pos, const std::vector<Lp>& loops) {
  int64_t n = 1;
  for (size_t i : pos) n *= loops[i].f;
  return n;
}

// The coordinates of the MAC at loop indices idx, false when outside an extent (no MAC).
inline bool macAt(const Case& c, const std::vector<int64_t>& idx, Coord& x) {
  x = Coord{};
  for (size_t i = 0; i < c.loops.size(); ++i) x[ix(c.loops[i].d)] += idx[i] * c.loops[i].stride;
  for (Dim d : kAllDims) {
    if (x[ix(d)] >= c.p.of(d)) return false;
  }
  return true;
}

// Calls visit(coordinates) for every MAC of the loops at [from, end) with those above at idx.
template <typename Visit>
void forEachMac(const Case& c, std::vector<int64_t> idx, size_t from, Visit&& visit) {
  std::vector<size_t> below;
  for (size_t i = from; i < c.loops.size(); ++i) below.push_back(i), idx[i] = 0;
  do {
    if (Coord x; macAt(c, idx, x)) visit(x);
  } while (advance(idx, below, c.loops) >= 0);
}

// The elements the MACs below `cut` touch with the loops above it at idx (sorted).
inline std::vector<int64_t> tileOf(const Case& c, const Elements& el,
                                   const std::vector<int64_t>& idx, size_t cut) {
  std::vector<int64_t> s;
  forEachMac(c, idx, cut, [&](const Coord& x) {
    if (const int64_t e = el.id(x); e >= 0) s.push_back(e);
  });
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

inline Problem randomProblem(Rng& r, bool one_by_one_stride2) {
  for (;;) {
    Problem p;
    p.extent[ix(Dim::G)] = chance(r, 15) ? 2 : 1;
    p.extent[ix(Dim::N)] = chance(r, 20) ? 2 : 1;
    for (Dim d : {Dim::K, Dim::C}) p.extent[ix(d)] = pick(r, 1, 4);
    for (Dim d : {Dim::P, Dim::Q}) p.extent[ix(d)] = pick(r, 1, 6);
    for (Dim d : {Dim::R, Dim::S}) p.extent[ix(d)] = pick(r, 1, 4);
    p.stride_h = pick(r, 1, 3);
    p.stride_w = pick(r, 1, 3);
    p.dilation_h = pick(r, 1, 2);
    p.dilation_w = pick(r, 1, 2);
    if (one_by_one_stride2) {
      p.extent[ix(Dim::R)] = p.extent[ix(Dim::S)] = 1;
      p.stride_h = p.stride_w = 2;
    }
    // Padding: the unpadded input a few rows short of the span, or wider than it (no clipping).
    auto input = [&](Dim out, Dim win, int64_t stride, int64_t dil) -> int64_t {
      const int64_t span = (p.of(out) - 1) * stride + (p.of(win) - 1) * dil + 1;
      if (span > 1 && chance(r, 40)) return span - pick(r, 1, std::min<int64_t>(span - 1, 3));
      return chance(r, 10) ? span + 1 : 0;
    };
    p.input_h = input(Dim::P, Dim::R, p.stride_h, p.dilation_h);
    p.input_w = input(Dim::Q, Dim::S, p.stride_w, p.dilation_w);
    if (p.macs() <= 700) return p;
  }
}

// Spatial factors on up to two dims of each fan-out, the array's rows and its columns (window
// dims favoured: Eyeriss-like diagonals); temporal factors from the innermost slot out, each at
// most what the loops inside it leave of the extent, DRAM covering the rest (often not dividing
// it); keeps at random below DRAM. On a chain: the draws of the chain generator before trees.
inline Mapping randomMapping(const Problem& p, const Hardware& hw, Rng& r) {
  Mapping m;
  m.levels.resize(hw.levels.size());
  constexpr Dim kSpatialPicks[] = {Dim::P, Dim::Q, Dim::R, Dim::S, Dim::P,
                                   Dim::R, Dim::K, Dim::C, Dim::N, Dim::G};
  struct Fan {
    Factors* f;
    int64_t budget;
    int tries;  // dims drawn (a level's fan-out: more, it is there to be used)
  };
  std::vector<Fan> fans{{&m.rows, hw.rows, 2}, {&m.cols, hw.cols, 2}};
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    if (hw.levels[l].fanout > 1) fans.push_back({&m.levels[l].spatial, hw.levels[l].fanout, 4});
  }
  for (auto [f, budget, tries] : fans) {
    for (int k = 0; k < tries && budget >= 2; ++k) {
      const Dim d = kSpatialPicks[pick(r, 0, 9)];
      if ((*f)[ix(d)] > 1 || p.of(d) < 2) continue;
      (*f)[ix(d)] = pick(r, 2, std::min(budget, p.of(d)));
      budget /= (*f)[ix(d)];
    }
  }
  for (Dim d : kAllDims) {
    int64_t inner = 1;
    auto take = [&](int64_t want) {
      const int64_t f = std::clamp<int64_t>(want, 1, up(p.of(d), inner));
      inner *= f;
      return f;
    };
    auto random = [&]() {
      return chance(r, 50) ? 1 : pick(r, 2, std::max<int64_t>(2, up(p.of(d), inner)));
    };
    for (int l = int(hw.levels.size()) - 1; l >= 1; --l) {
      auto& x = m.levels[size_t(l)];
      if (l == hw.array()) m.cols[ix(d)] = take(m.cols[ix(d)]), m.rows[ix(d)] = take(m.rows[ix(d)]);
      x.spatial[ix(d)] = take(x.spatial[ix(d)]);
      x.factor[ix(d)] = take(random());
    }
    m.levels[0].factor[ix(d)] = up(p.of(d), inner);
  }
  for (size_t l = 0; l < m.levels.size(); ++l) {
    auto& order = m.levels[l].order;
    for (Dim d : kAllDims) {
      if (m.levels[l].factor[ix(d)] > 1) order.push_back(d);
    }
    for (size_t i = order.size(); i > 1; --i) {
      std::swap(order[i - 1], order[size_t(pick(r, 0, int64_t(i) - 1))]);
    }
    for (size_t t = 0; t < 3 && l > 0; ++t) {
      m.levels[l].keeps[t] = chance(r, hw.levels[l].per_pe ? 50 : 65);
    }
  }
  return m;
}

}  // namespace tessel::testing::brute
