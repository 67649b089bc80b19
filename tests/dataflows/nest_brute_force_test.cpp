// The loop-nest cost model against brute force on random small nests (fixed seeds). The brute
// force reads only the Problem, Hardware and Mapping and enumerates element by element:
//   - the tiles each cut of the nest holds over time, per holder, and what moves (Nest::volume);
//   - the partial sums through the output's chain, value by value (evaluate()'s output counts).
// It shares no helper or formula with the model. A failing case prints its problem and loop nest.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dataflows/nest/cost.h"
#include "dataflows/nest/reuse.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using dataflows::Operand;
using dataflows::nest::Cost;
using dataflows::nest::CostOptions;
using dataflows::nest::evaluate;
using dataflows::nest::kAllDims;
using dataflows::nest::kDims;
using dataflows::nest::Nest;
using dataflows::nest::Problem;
using dataflows::nest::Space;
using namespace testing;

using Coord = std::array<int64_t, kDims>;
using Rng = std::mt19937;

constexpr int kCases = 150;
constexpr int kPrinted = 3;               // failing cases printed in full; the rest are counted
constexpr int64_t kMaxIterations = 3000;  // every loop's factor multiplied: the nest's MAC slots
constexpr std::array<Operand, 3> kTensorList{Operand::Input, Operand::Weight, Operand::Output};
const char* kTensorName[] = {"input", "weight", "output"};

size_t ix(Dim d) { return static_cast<size_t>(d); }
int64_t up(int64_t a, int64_t b) { return (a + b - 1) / b; }
// Portable draws (the <random> distributions differ between standard libraries).
int64_t pick(Rng& r, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(r() % uint64_t(hi - lo + 1));
}
bool chance(Rng& r, int percent) { return pick(r, 0, 99) < percent; }

// The dims that address an element of each tensor.
bool addresses(Operand t, Dim d) {
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

// One loop of the nest in nest order; one step of it adds `stride` to its dim's coordinate.
struct Lp {
  Dim d;
  int64_t f;
  int level;
  bool spatial;
  int64_t stride;
};

struct Case {
  Problem p;
  Hardware hw;
  Mapping m;
  CostOptions o;
  std::vector<Lp> loops;
  std::string text() const;
  int pe() const { return hw.pe(); }
  // Loops above `level`'s tile: the temporal loops of the levels above it, and the spatial ones
  // when it is the PE level.
  size_t cut(int level) const {
    size_t n = 0;
    for (const Lp& l : loops) n += l.spatial ? level == pe() : l.level < level;
    return n;
  }
};

std::string Case::text() const {
  std::ostringstream s;
  s << p.describe() << " | stride " << p.stride_h << "x" << p.stride_w << " dilation "
    << p.dilation_h << "x" << p.dilation_w << " input " << p.input_h << "x" << p.input_w << "\n"
    << "array " << hw.rows << "x" << hw.cols << (hw.multicast ? " multicast" : "")
    << (hw.reduction ? " reduction" : "") << ", levels";
  for (const auto& l : hw.levels) s << " " << l.name;
  s << ", outputs at home in " << hw.levels[size_t(o.home[2])].name << "\n" << m.loopNest(p, hw);
  return s.str();
}

std::vector<Lp> nestLoops(const Mapping& m, const Hardware& hw) {
  std::vector<Lp> v;
  for (size_t l = 0; l < m.levels.size(); ++l) {
    for (Dim d : m.levels[l].order) {
      if (m.levels[l].factor[ix(d)] > 1)
        v.push_back({d, m.levels[l].factor[ix(d)], int(l), false, 1});
    }
    if (int(l) != hw.local()) continue;
    for (const Factors* f : {&m.rows, &m.cols}) {
      for (Dim d : kAllDims) {
        if ((*f)[ix(d)] > 1) v.push_back({d, (*f)[ix(d)], int(l), true, 1});
      }
    }
  }
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = i + 1; j < v.size(); ++j) v[i].stride *= v[j].d == v[i].d ? v[j].f : 1;
  }
  return v;
}

// Row-major index of (index, extent) pairs.
int64_t linear(std::initializer_list<std::pair<int64_t, int64_t>> xs) {
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
int advance(std::vector<int64_t>& idx, const std::vector<size_t>& pos,
            const std::vector<Lp>& loops) {
  for (size_t k = pos.size(); k-- > 0;) {
    if (++idx[pos[k]] < loops[pos[k]].f) return int(pos[k]);
    idx[pos[k]] = 0;
  }
  return -1;
}

// Sets the loops at `pos` to the digits of `n` (mixed radix, the last fastest).
void setDigits(std::vector<int64_t>& idx, const std::vector<size_t>& pos,
               const std::vector<Lp>& loops, int64_t n) {
  for (size_t k = pos.size(); k-- > 0;) {
    idx[pos[k]] = n % loops[pos[k]].f;
    n /= loops[pos[k]].f;
  }
}

int64_t count(const std::vector<size_t>& pos, const std::vector<Lp>& loops) {
  int64_t n = 1;
  for (size_t i : pos) n *= loops[i].f;
  return n;
}

// Calls visit(coordinates) for every MAC of the loops at [from, end) with those above at idx;
// coordinates outside an extent are no MAC.
template <typename Visit>
void forEachMac(const Case& c, std::vector<int64_t> idx, size_t from, Visit&& visit) {
  std::vector<size_t> below;
  for (size_t i = from; i < c.loops.size(); ++i) below.push_back(i), idx[i] = 0;
  do {
    Coord x{};
    for (size_t i = 0; i < c.loops.size(); ++i) x[ix(c.loops[i].d)] += idx[i] * c.loops[i].stride;
    bool exists = true;
    for (Dim d : kAllDims) exists = exists && x[ix(d)] < c.p.of(d);
    if (exists) visit(x);
  } while (advance(idx, below, c.loops) >= 0);
}

// The elements the MACs below `cut` touch with the loops above it at idx (sorted).
std::vector<int64_t> tileOf(const Case& c, const Elements& el, const std::vector<int64_t>& idx,
                            size_t cut) {
  std::vector<int64_t> s;
  forEachMac(c, idx, cut, [&](const Coord& x) {
    if (const int64_t e = el.id(x); e >= 0) s.push_back(e);
  });
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// ---------------------------------------------------------------------------------------------
// Nest::volume by enumeration. Holders are the spatial loops above the cut, time its temporal
// loops in odometer order. At each step a holder's tile moves in whole, or with reuse, less what
// it kept from its last tile when the outermost loop that turned since is the innermost relevant
// one (jstar) or inside it, or, for the input when jstar slides a window, a loop of the same
// window axis (p and r, or q and s) outside it with no other temporal loop between. A holder with no MAC at a step keeps what it has. Collapse counts the
// union over the holders of what each moves at a step.
struct Volume {
  double all[2]{}, collapse[2]{};  // [reuse]
};

Volume bruteVolume(const Case& c, Operand t, size_t cut) {
  const Elements el(c.p, t);
  std::vector<size_t> time, space;
  int jstar = -1;
  for (size_t i = 0; i < cut; ++i) {
    (c.loops[i].spatial ? space : time).push_back(i);
    if (!c.loops[i].spatial && addresses(t, c.loops[i].d)) jstar = int(i);
  }
  auto axis = [](Dim d) { return d == Dim::P || d == Dim::R ? 1 : d == Dim::Q || d == Dim::S ? 2 : 0; };
  int slide = jstar;  // the outermost loop of the sliding group
  if (t == Operand::Input && jstar >= 0 && axis(c.loops[size_t(jstar)].d) != 0) {
    for (int i = jstar - 1; i >= 0; --i) {
      const auto& l = c.loops[size_t(i)];
      if (l.spatial) continue;
      if (axis(l.d) != axis(c.loops[size_t(jstar)].d)) break;
      slide = i;
    }
  }
  struct Holder {
    std::vector<int64_t> kept, at;  // its last tile and the loop indices then
  };
  std::vector<Holder> holders(size_t(count(space, c.loops)));
  std::vector<int64_t> stamp[2] = {std::vector<int64_t>(size_t(el.size()), -1),
                                   std::vector<int64_t>(size_t(el.size()), -1)};
  std::vector<int64_t> idx(c.loops.size(), 0);
  Volume v;
  auto add = [&](int reuse, const std::vector<int64_t>& moved, int64_t step) {
    v.all[reuse] += double(moved.size());
    for (int64_t e : moved) {
      if (stamp[reuse][size_t(e)] != step) stamp[reuse][size_t(e)] = step, v.collapse[reuse] += 1;
    }
  };
  int64_t step = 0;
  do {
    for (size_t h = 0; h < holders.size(); ++h) {
      setDigits(idx, space, c.loops, int64_t(h));
      std::vector<int64_t> s = tileOf(c, el, idx, cut);
      if (s.empty()) continue;
      Holder& x = holders[h];
      int turned = INT_MAX;  // the outermost loop that turned since the holder's last tile
      for (size_t i = 0; i < time.size() && !x.at.empty(); ++i) {
        if (x.at[time[i]] != idx[time[i]]) {
          turned = int(time[i]);
          break;
        }
      }
      std::vector<int64_t> moved;
      if (!x.at.empty() && turned >= slide) {
        std::set_difference(s.begin(), s.end(), x.kept.begin(), x.kept.end(),
                            std::back_inserter(moved));
      } else {
        moved = s;
      }
      add(0, s, step);
      add(1, moved, step);
      x.kept = std::move(s);
      x.at = idx;
    }
    ++step;
  } while (advance(idx, time, c.loops) >= 0);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Partial sums value by value. The chain: the output's home, every level below it that keeps
// outputs (the PE level one instance per PE), the MACs. Each copy holds a value (here the number
// of MACs summed into it). Per step of the temporal loops above the PE tile:
//   1. a level whose tile indices relevant to outputs changed drains, innermost first: each
//      instance's copy is read and sent up, one update per copy, or one per group of PEs when the
//      hop crosses the NoC and it reduces;
//   2. then starts its new tile, outermost first: of the instances that start an element together,
//      one takes a refill from the parent when the element has been updated before (the parent
//      reads its copy and hands it down), the others start at zero;
//   3. the MACs of each array step update the innermost holder: per MAC in a PE, or per element
//      (per MAC without reduction) in a shared level.
// An update reads the copy it lands on when that copy holds a partial sum, and writes it: the
// first update of a residency that started at zero reads nothing, nor does the update that
// follows a refill (the refill's read took the sum down; what comes back replaces it).
struct Counts {
  double reads = 0, writes = 0;  // elements
  double updated = 0;            // distinct elements updated here
};

class PartialSums {
 public:
  explicit PartialSums(const Case& c);
  void run();

  std::vector<Counts> level;  // per Hardware level
  double noc = 0, delivered = 0;
  int64_t refills = 0, reduced = 0;  // coverage: refills sent, updates that merged several PEs
  std::string error;                 // a broken invariant of the simulation itself

 private:
  struct Node {
    int level = 0;
    bool per_pe = false;
    size_t cut = 0;
    std::vector<std::vector<int64_t>> value;  // [instance][element]
    std::vector<std::vector<char>> held;      // [instance][element]
    std::vector<int64_t> key;                 // the relevant loop indices of its current tile
    std::vector<int64_t> updates;             // per element, updates it took
  };
  bool crosses(const Node& parent, bool to_pe) const {
    return parent.level <= c_.hw.local() && to_pe;
  }
  bool turned(Node& x, const std::vector<int64_t>& idx);
  void drain(size_t k);
  void start(size_t k, const std::vector<int64_t>& idx);
  void macs(const std::vector<int64_t>& idx);
  void update(Node& x, size_t inst, int64_t e, int64_t v);

  const Case& c_;
  Elements el_;
  std::vector<size_t> space_;
  std::vector<Node> nodes_;    // the chain without the MACs, home first
  std::vector<int64_t> macs_;  // per element, MACs so far
};

PartialSums::PartialSums(const Case& c) : c_(c), el_(c.p, Operand::Output) {
  level.resize(c.hw.levels.size());
  for (size_t i = 0; i < c.loops.size(); ++i) {
    if (c.loops[i].spatial) space_.push_back(i);
  }
  const size_t e = size_t(el_.size());
  const int home = c.o.home[2];
  for (int l = home; l <= c.pe(); ++l) {
    if (l != home && !c.m.levels[size_t(l)].keeps[2]) continue;
    Node x;
    x.level = l;
    x.per_pe = l == c.pe();
    x.cut = l == home ? 0 : c.cut(l);
    const size_t instances = x.per_pe ? size_t(count(space_, c.loops)) : 1;
    x.value.assign(instances, std::vector<int64_t>(e, 0));
    x.held.assign(instances, std::vector<char>(e, l == home));
    x.updates.assign(e, 0);
    nodes_.push_back(std::move(x));
  }
  macs_.assign(e, 0);
}

bool PartialSums::turned(Node& x, const std::vector<int64_t>& idx) {
  std::vector<int64_t> key{0};  // never empty: the first step always starts a tile
  for (size_t i = 0; i < x.cut; ++i) {
    if (!c_.loops[i].spatial && addresses(Operand::Output, c_.loops[i].d)) key.push_back(idx[i]);
  }
  if (key == x.key) return false;
  x.key = std::move(key);
  return true;
}

void PartialSums::update(Node& x, size_t inst, int64_t e, int64_t v) {
  int64_t& held = x.value[inst][size_t(e)];
  if (!x.held[inst][size_t(e)]) error = "an update reached a copy that is not resident";
  Counts& h = level[size_t(x.level)];
  h.reads += held != 0;
  h.writes += 1;
  h.updated += x.updates[size_t(e)]++ == 0;
  held += v;
}

void PartialSums::drain(size_t k) {
  Node& x = nodes_[k];
  Node& parent = nodes_[k - 1];
  const bool cross = crosses(parent, x.per_pe);
  for (size_t e = 0; e < size_t(el_.size()); ++e) {
    std::vector<int64_t> copies;
    for (size_t i = 0; i < x.value.size(); ++i) {
      if (x.held[i][e]) copies.push_back(x.value[i][e]), x.held[i][e] = 0, x.value[i][e] = 0;
    }
    if (copies.empty()) continue;
    level[size_t(x.level)].reads += double(copies.size());
    if (cross && c_.hw.reduction) {
      int64_t sum = 0;
      for (int64_t v : copies) sum += v;
      update(parent, 0, int64_t(e), sum);
      reduced += copies.size() > 1;
      noc += 1;
    } else {
      for (int64_t v : copies) update(parent, 0, int64_t(e), v);
      noc += cross ? double(copies.size()) : 0.0;
    }
    delivered += cross ? double(copies.size()) : 0.0;
  }
}

void PartialSums::start(size_t k, const std::vector<int64_t>& idx) {
  Node& x = nodes_[k];
  Node& parent = nodes_[k - 1];
  std::vector<int64_t> at = idx;
  std::vector<char> refilled(size_t(el_.size()), 0);
  for (size_t i = 0; i < x.value.size(); ++i) {
    if (x.per_pe) setDigits(at, space_, c_.loops, int64_t(i));
    for (int64_t e : tileOf(c_, el_, at, x.cut)) {
      x.held[i][size_t(e)] = 1;
      if (macs_[size_t(e)] == 0 || refilled[size_t(e)]) continue;  // starts at zero
      refilled[size_t(e)] = 1;
      int64_t& from = parent.value[0][size_t(e)];
      if (from == 0) error = "a refill found no partial sum in the parent";
      level[size_t(parent.level)].reads += 1;
      level[size_t(x.level)].writes += 1;
      x.value[i][size_t(e)] = from;
      from = 0;
      ++refills;
      if (crosses(parent, x.per_pe)) noc += 1, delivered += 1;
    }
  }
}

void PartialSums::macs(const std::vector<int64_t>& idx) {
  Node& z = nodes_.back();
  std::vector<size_t> array_steps;  // the PE level's loops
  for (size_t i = c_.cut(c_.pe()); i < c_.loops.size(); ++i) array_steps.push_back(i);
  std::vector<int64_t> at = idx, sum(size_t(el_.size()), 0);
  do {
    std::vector<int64_t> touched;
    for (int64_t pe = 0; pe < count(space_, c_.loops); ++pe) {
      setDigits(at, space_, c_.loops, pe);
      forEachMac(c_, at, c_.loops.size(), [&](const Coord& x) {
        const int64_t e = el_.id(x);
        ++macs_[size_t(e)];
        if (z.per_pe) return update(z, size_t(pe), e, 1);
        if (sum[size_t(e)]++ == 0) touched.push_back(e);
      });
    }
    for (int64_t e : touched) {  // a shared holder: the MACs cross the NoC
      const int64_t n = sum[size_t(e)];
      sum[size_t(e)] = 0;
      delivered += double(n);
      if (c_.hw.reduction) {
        update(z, 0, e, n), noc += 1, reduced += n > 1;
      } else {
        for (int64_t j = 0; j < n; ++j) update(z, 0, e, 1), noc += 1;
      }
    }
  } while (advance(at, array_steps, c_.loops) >= 0);
}

void PartialSums::run() {
  std::vector<size_t> time;  // the temporal loops above the PE tile
  for (size_t i = 0; i < c_.cut(c_.pe()); ++i) {
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
}

// ---------------------------------------------------------------------------------------------
// Random cases.

Problem randomProblem(Rng& r, bool one_by_one_stride2) {
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

Hardware randomHardware(Rng& r) {
  const int rows = int(pick(r, 1, 4));
  const int cols = int(pick(r, 1, 4));
  Hardware hw = tinyNest(rows, cols, false, -1, 64);
  for (Level& l : hw.levels) l.pool_bytes = {-1, -1, -1}, l.can_hold = {true, true, true};
  if (chance(r, 30)) {
    Level l2 = hw.levels[0];
    l2.name = "l2";
    hw.levels.insert(hw.levels.begin() + 1, l2);
    hw.l2 = 1;
  }
  hw.multicast = chance(r, 70);
  hw.reduction = chance(r, 70);
  hw.accum_dtype = DType::Int32;
  return hw;
}

// Spatial factors on up to two dims of rows and of columns (window dims favoured: Eyeriss-like
// diagonals); temporal factors from the innermost slot out, each at most what the loops inside it
// leave of the extent, DRAM covering the rest (often not dividing it).
Mapping randomMapping(const Problem& p, const Hardware& hw, Rng& r) {
  Mapping m;
  m.levels.resize(hw.levels.size());
  constexpr Dim kSpatialPicks[] = {Dim::P, Dim::Q, Dim::R, Dim::S, Dim::P,
                                   Dim::R, Dim::K, Dim::C, Dim::N, Dim::G};
  for (auto [f, budget] :
       {std::pair{&m.rows, int64_t(hw.rows)}, std::pair{&m.cols, int64_t(hw.cols)}}) {
    for (int tries = 0; tries < 2 && budget >= 2; ++tries) {
      const Dim d = kSpatialPicks[pick(r, 0, 9)];
      if ((*f)[ix(d)] > 1 || p.of(d) < 2) continue;
      (*f)[ix(d)] = pick(r, 2, std::min(budget, p.of(d)));
      budget /= (*f)[ix(d)];
    }
  }
  const int pe = hw.pe(), local = hw.local();
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
    m.levels[size_t(pe)].factor[ix(d)] = take(random());
    m.cols[ix(d)] = take(m.cols[ix(d)]);
    m.rows[ix(d)] = take(m.rows[ix(d)]);
    for (int l = local; l >= 1; --l) m.levels[size_t(l)].factor[ix(d)] = take(random());
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
      m.levels[l].keeps[t] = chance(r, l == size_t(pe) ? 50 : 65);
    }
  }
  return m;
}

Case randomCase(Rng& r, bool one_by_one_stride2 = false) {
  for (;;) {
    Case c;
    c.p = randomProblem(r, one_by_one_stride2);
    c.hw = randomHardware(r);
    c.m = randomMapping(c.p, c.hw, r);
    c.loops = nestLoops(c.m, c.hw);
    if (c.hw.l2 >= 0 && chance(r, 30)) c.o.home[2] = c.hw.l2;
    int64_t iterations = 1;
    for (const Lp& l : c.loops) iterations *= l.f;
    if (iterations <= kMaxIterations) return c;
  }
}

// What the random cases covered: each feature the properties must meet.
struct Coverage {
  int stride[4]{}, dilation[3]{}, window[5]{}, one_by_one_stride2 = 0, narrow_window = 0;
  int padding = 0, temporal_above_spatial = 0, spatial_window = 0, diagonal = 0, partial = 0;
  void add(const Case& c) {
    const Problem& p = c.p;
    ++stride[p.stride_h], ++stride[p.stride_w], ++dilation[p.dilation_h], ++dilation[p.dilation_w];
    ++window[p.of(Dim::R)], ++window[p.of(Dim::S)];
    one_by_one_stride2 +=
        p.of(Dim::R) == 1 && p.of(Dim::S) == 1 && p.stride_h == 2 && p.stride_w == 2;
    narrow_window += (p.of(Dim::R) - 1) * p.dilation_h + 1 < p.stride_h && p.of(Dim::P) > 1;
    padding += p.input_h > 0 &&
               p.input_h < (p.of(Dim::P) - 1) * p.stride_h + (p.of(Dim::R) - 1) * p.dilation_h + 1;
    bool above = false, window_sp = false, rs = false, pq = false, part = false;
    for (size_t i = 0; i < c.loops.size(); ++i) {
      const Lp& l = c.loops[i];
      const bool w = l.d == Dim::P || l.d == Dim::Q || l.d == Dim::R || l.d == Dim::S;
      window_sp |= l.spatial && w;
      rs |= l.spatial && (l.d == Dim::R || l.d == Dim::S);
      pq |= l.spatial && (l.d == Dim::P || l.d == Dim::Q);
      for (size_t j = i + 1; j < c.loops.size(); ++j) {
        above |= !l.spatial && c.loops[j].spatial && c.loops[j].d == l.d;
      }
    }
    for (Dim d : kAllDims) part |= p.of(d) % c.m.tile(1, d, c.hw.array()) != 0;
    temporal_above_spatial += above;
    spatial_window += window_sp;
    diagonal += rs && pq;
    partial += part;
  }
  void check() const {
    for (int s = 1; s <= 3; ++s) EXPECT_GT(stride[s], 0) << "stride " << s;
    for (int d = 1; d <= 2; ++d) EXPECT_GT(dilation[d], 0) << "dilation " << d;
    for (int w = 1; w <= 4; ++w) EXPECT_GT(window[w], 0) << "window " << w;
    EXPECT_GT(one_by_one_stride2, 0);
    EXPECT_GT(narrow_window, 5);
    EXPECT_GT(padding, 20);
    EXPECT_GT(temporal_above_spatial, 20);
    EXPECT_GT(spatial_window, 40);
    EXPECT_GT(diagonal, 5);
    EXPECT_GT(partial, 40);
  }
};

// One number the model gives and the brute force's.
struct Check {
  std::string what;
  double model, brute;
};

// Nest::volume for every tensor at every level's cut and the MACs', with and without reuse
// (the MACs' cut: without), either space.
std::vector<Check> volumeChecks(const Case& c) {
  const Nest nest(c.p, c.m, c.hw);
  EXPECT_EQ(checkShape(c.m, c.p, c.hw), "");
  EXPECT_EQ(nest.size(), c.loops.size());
  std::vector<std::pair<size_t, bool>> cuts;  // (cut, the MACs')
  for (int l = 1; l <= c.pe(); ++l) {
    cuts.emplace_back(c.cut(l), false);
    EXPECT_EQ(nest.cut(l), c.cut(l)) << "level " << l;
  }
  cuts.emplace_back(c.loops.size(), true);
  std::vector<Check> v;
  for (Operand t : kTensorList) {
    for (auto [cut, macs] : cuts) {
      const Volume b = bruteVolume(c, t, cut);
      for (int reuse = 0; reuse < 2 - macs; ++reuse) {
        const std::string what = std::string(kTensorName[size_t(t)]) + " cut " +
                                 std::to_string(cut) + (macs ? " (MACs)" : "") +
                                 (reuse ? " reuse" : " no reuse");
        v.push_back({what + " All", nest.volume(t, cut, reuse, Space::All), b.all[reuse]});
        v.push_back(
            {what + " Collapse", nest.volume(t, cut, reuse, Space::Collapse), b.collapse[reuse]});
      }
    }
  }
  return v;
}

// evaluate()'s output bytes per level, NoC bytes and deliveries against the simulation's counts.
std::vector<Check> partialSumChecks(const Case& c, const PartialSums& sim) {
  const Cost cost = evaluate(c.p, c.m, c.hw, c.o);
  EXPECT_TRUE(cost.ok) << cost.reason;
  if (!cost.ok) return {};
  const double acc = bytesOf(c.hw.accum_dtype), out = bytesOf(c.p.output_dtype);
  std::vector<Check> v;
  for (size_t l = 0; l < c.hw.levels.size(); ++l) {
    const Counts& h = sim.level[l];
    // Off chip, the last update of each element is the result, at the output's width.
    const double writes =
        c.hw.levels[l].off_chip ? (h.writes - h.updated) * acc + h.updated * out : h.writes * acc;
    v.push_back({c.hw.levels[l].name + " reads", cost.reads[l][2], h.reads * acc});
    v.push_back({c.hw.levels[l].name + " writes", cost.writes[l][2], writes});
  }
  v.push_back({"noc bytes", cost.noc_bytes[2], sim.noc * acc});
  v.push_back({"delivered", cost.delivered[2], sim.delivered * acc});
  return v;
}

// Expects every check to agree; a case that disagrees is printed (the first kPrinted in full).
void expectAgree(const std::vector<Check>& checks, const Case& c, const std::string& name,
                 int& failing) {
  const bool agree =
      std::all_of(checks.begin(), checks.end(), [](const Check& x) { return x.model == x.brute; });
  if (agree || ++failing > kPrinted) return;
  for (const Check& x : checks) EXPECT_DOUBLE_EQ(x.model, x.brute) << name << ": " << x.what;
  ADD_FAILURE() << name << " (model vs brute force above):\n" << c.text();
}

TEST(NestBruteForce, VolumeMatchesEnumeration) {
  Rng r(20241126);
  Coverage cov;
  int failing = 0;
  for (int n = 0; n < kCases; ++n) {
    const Case c = randomCase(r, n == 0);  // the first: a 1x1 stride-2 conv
    cov.add(c);
    expectAgree(volumeChecks(c), c, "case " + std::to_string(n), failing);
  }
  EXPECT_EQ(failing, 0) << "of " << kCases << " cases disagree (the first " << kPrinted
                        << " printed above)";
  cov.check();
}

TEST(NestBruteForce, PartialSumsMatchValueSimulation) {
  Rng r(7 * 20241126);
  int failing = 0;
  int64_t refills = 0, reduced = 0, shared_innermost = 0, per_pe = 0, offchip_child = 0;
  for (int n = 0; n < kCases; ++n) {
    const Case c = randomCase(r);
    PartialSums sim(c);
    sim.run();
    ASSERT_EQ(sim.error, "") << c.text();
    expectAgree(partialSumChecks(c, sim), c, "case " + std::to_string(n), failing);
    refills += sim.refills > 0, reduced += sim.reduced > 0;
    const bool pe_keeps = c.m.levels[size_t(c.pe())].keeps[2];
    per_pe += pe_keeps, shared_innermost += !pe_keeps;
    offchip_child += c.hw.l2 >= 0 && c.o.home[2] == 0 && c.m.levels[size_t(c.hw.l2)].keeps[2];
  }
  EXPECT_EQ(failing, 0) << "of " << kCases << " cases disagree (the first " << kPrinted
                        << " printed above)";
  EXPECT_GT(refills, 30);
  EXPECT_GT(reduced, 20);
  EXPECT_GT(per_pe, 30);
  EXPECT_GT(shared_innermost, 30);
  EXPECT_GT(offchip_child, 5);
}

// A hand-built case: DRAM, a buffer with no loops of its own, the PE level.
Case pinned(Problem p, int rows, int cols, Factors dram, Factors pe, Factors sp_rows,
            Factors sp_cols, std::array<bool, 3> pe_keeps) {
  Case c;
  c.p = p;
  c.hw = tinyNest(rows, cols, false, -1, 64);
  for (Level& l : c.hw.levels) l.pool_bytes = {-1, -1, -1}, l.can_hold = {true, true, true};
  auto order = [](const Factors& f) {
    std::vector<Dim> o;
    for (Dim d : kAllDims) {
      if (f[ix(d)] > 1) o.push_back(d);
    }
    return o;
  };
  c.m = nestMapping(c.hw, dram, order(dram), kOnes, {}, pe, order(pe), sp_rows, sp_cols);
  c.m.levels[2].keeps = pe_keeps;
  c.loops = nestLoops(c.m, c.hw);
  return c;
}

// One pinned case: its volumes and its partial sums against the enumeration.
void expectCaseAgrees(const Case& c) {
  int failing = 0;
  expectAgree(volumeChecks(c), c, "volumes", failing);
  PartialSums sim(c);
  sim.run();
  ASSERT_EQ(sim.error, "");
  expectAgree(partialSumChecks(c, sim), c, "partial sums", failing);
}

// Two nests the random ones found disagreeing, reduced: a spatial loop over a dim the tensor
// does not depend on, with a loop of the same dim on its other side, the split not dividing the
// extent.
// C = 4 over 2 rows x a PE loop of 3 (c = 3 row + i): every PE step has a MAC in row 0, so the
// reduced partial sums reach the buffer 3 times, not ceil(4 / 2) = 2; likewise the inputs over
// K = 4 split 2 columns x 3 PE steps take 3 multicast reads per (p, c), not 2.
TEST(NestBruteForce, CollapsedSpatialLoopOutsideAPeLoopOfTheSameDim) {
  Problem p;
  p.extent[ix(Dim::K)] = 4;
  p.extent[ix(Dim::C)] = 4;
  const Case c = pinned(p, 2, 2, kOnes, dims({{Dim::K, 3}, {Dim::C, 3}}), dims({{Dim::C, 2}}),
                        dims({{Dim::K, 2}}), {false, false, false});
  expectCaseAgrees(c);
}

// C = 4 over 3 PE rows under a DRAM loop C:2 (c = 3 dram + row): all 3 PEs hold the output, so
// it has 3 residencies in the PEs (3 drains, 3 deliveries), not ceil(4 / 2) = 2.
TEST(NestBruteForce, PerPeSpatialLoopInsideATemporalLoopOfTheSameDim) {
  Problem p;
  p.extent[ix(Dim::C)] = 4;
  const Case c =
      pinned(p, 3, 1, dims({{Dim::C, 2}}), kOnes, dims({{Dim::C, 3}}), kOnes, {false, false, true});
  expectCaseAgrees(c);
}

}  // namespace
}  // namespace tessel
