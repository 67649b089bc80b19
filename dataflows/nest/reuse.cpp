#include "dataflows/nest/reuse.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

namespace tessel::dataflows::nest {

namespace {


bool isWindow(Dim d) { return d == Dim::P || d == Dim::Q || d == Dim::R || d == Dim::S; }

// 1 for the rows (p, r), 2 for the columns (q, s), 0 for the other dims.
int axisOf(Dim d) { return d == Dim::P || d == Dim::R ? 1 : d == Dim::Q || d == Dim::S ? 2 : 0; }

// A set of input rows along one axis, as bits.
class Rows {
 public:
  explicit Rows(int64_t n) : w_(static_cast<size_t>((n + 63) / 64), 0) {}
  void clear() { std::fill(w_.begin(), w_.end(), 0); }
  void set(int64_t i) { w_[static_cast<size_t>(i >> 6)] |= uint64_t{1} << (i & 63); }
  // this |= (a & ~b)
  void addDifference(const Rows& a, const Rows& b) {
    for (size_t i = 0; i < w_.size(); ++i) w_[i] |= a.w_[i] & ~b.w_[i];
  }
  void add(const Rows& a) {
    for (size_t i = 0; i < w_.size(); ++i) w_[i] |= a.w_[i];
  }
  int64_t count() const {
    int64_t n = 0;
    for (uint64_t x : w_) n += __builtin_popcountll(x);
    return n;
  }

 private:
  std::vector<uint64_t> w_;
};

// The loops of one axis by role, each with its stride (the positions one step of it skips).
struct AxisLoops {
  struct Placed {
    int64_t f, stride;
    bool out;
  };
  std::vector<Placed> outer, union_, run;  // Outer and PeSum loops; PeUnion loops; Run loops
  int64_t inner_out = 1, inner_win = 1;
};

AxisLoops place(const SmallVector<WindowLoop, 16>& loops) {
  AxisLoops a;
  for (size_t i = 0; i < loops.size(); ++i) {
    int64_t stride = 1;
    for (size_t j = i + 1; j < loops.size(); ++j) {
      if (loops[j].out == loops[i].out) stride *= loops[j].f;
    }
    const AxisLoops::Placed pl{loops[i].f, stride, loops[i].out};
    switch (loops[i].role) {
      case WindowRole::Outer:
      case WindowRole::PeSum:
        a.outer.push_back(pl);
        break;
      case WindowRole::PeUnion:
        a.union_.push_back(pl);
        break;
      case WindowRole::Run:
        a.run.push_back(pl);
        break;
      case WindowRole::Inner:
        (loops[i].out ? a.inner_out : a.inner_win) *= loops[i].f;
        break;
    }
  }
  return a;
}

// Calls visit(out_offset, win_offset) for every index combination of `loops`.
template <typename Visit>
void forEachCombo(const std::vector<AxisLoops::Placed>& loops, Visit&& visit) {
  std::vector<int64_t> idx(loops.size(), 0);
  for (;;) {
    int64_t o = 0, w = 0;
    for (size_t i = 0; i < loops.size(); ++i) (loops[i].out ? o : w) += idx[i] * loops[i].stride;
    visit(o, w);
    size_t k = loops.size();
    while (k > 0 && ++idx[k - 1] == loops[k - 1].f) idx[--k] = 0;
    if (k == 0) return;
  }
}

double countAxis(const WindowAxis& ax, const SmallVector<WindowLoop, 16>& loops) {
  const AxisLoops a = place(loops);
  const int64_t span = (ax.out - 1) * ax.stride + (ax.win - 1) * ax.dilation + 1;
  const int64_t lo = ax.input > 0 && ax.input < span ? (span - ax.input) / 2 : 0;
  const int64_t hi = ax.input > 0 && ax.input < span ? lo + ax.input : span;
  // The rows of the tile whose first position is (o, w), clipped to the axis and the input.
  // Returns false when the tile holds no row (a partial loop's iterations past the extent, or
  // only padding).
  auto mark = [&](Rows& r, int64_t o, int64_t w) {
    r.clear();
    bool any = false;
    for (int64_t i = o; i < std::min(ax.out, o + a.inner_out); ++i) {
      for (int64_t j = w; j < std::min(ax.win, w + a.inner_win); ++j) {
        const int64_t row = i * ax.stride + j * ax.dilation;
        if (row >= lo && row < hi) r.set(row), any = true;
      }
    }
    return any;
  };
  std::vector<int64_t> union_offsets_o, union_offsets_w;
  forEachCombo(a.union_, [&](int64_t o, int64_t w) {
    union_offsets_o.push_back(o);
    union_offsets_w.push_back(w);
  });
  const size_t holders = union_offsets_o.size();
  std::vector<Rows> held(holders, Rows(span));
  Rows tile(span), moved(span);
  double total = 0;
  const bool sliding = !a.run.empty();
  forEachCombo(a.outer, [&](int64_t o0, int64_t w0) {
    for (Rows& h : held) h.clear();
    forEachCombo(a.run, [&](int64_t o_run, int64_t w_run) {
      moved.clear();
      for (size_t u = 0; u < holders; ++u) {
        // A holder with nothing to do keeps what it has.
        if (!mark(tile, o0 + o_run + union_offsets_o[u], w0 + w_run + union_offsets_w[u])) continue;
        moved.addDifference(tile, held[u]);
        if (sliding) std::swap(held[u], tile);
      }
      total += static_cast<double>(moved.count());
    });
  });
  return total;
}

struct WindowKey {
  std::array<int64_t, 21> v;
  bool operator==(const WindowKey& o) const { return v == o.v; }
};

struct WindowKeyHash {
  size_t operator()(const WindowKey& k) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t x : k.v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

}  // namespace

double windowElements(const WindowAxis& ax, const SmallVector<WindowLoop, 16>& loops) {
  const int64_t span = (ax.out - 1) * ax.stride + (ax.win - 1) * ax.dilation + 1;
  // One tap: every position reads its own row, the loops partition the positions, nothing
  // overlaps to share or slide.
  if (ax.win == 1 && (ax.input <= 0 || ax.input >= span)) return static_cast<double>(ax.out);
  // The count depends on the axis and its loops alone: one cache entry per structure.
  WindowKey key{};
  size_t k = 0;
  for (int64_t x : {ax.out, ax.win, ax.stride, ax.dilation, ax.input}) key.v[k++] = x;
  for (const WindowLoop& l : loops) {
    if (k == key.v.size()) return countAxis(ax, loops);
    key.v[k++] = l.f * 16 + (l.out ? 8 : 0) + static_cast<int64_t>(l.role);
  }
  thread_local std::unordered_map<WindowKey, double, WindowKeyHash> memo;
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  if (memo.size() > 200000) memo.clear();
  const double n = countAxis(ax, loops);
  memo.emplace(key, n);
  return n;
}

Nest::Nest(const Problem& p, const Mapping& m, const Hardware& hw) : p_(p), hw_(hw) {
  for (size_t l = 0; l < m.levels.size(); ++l) {
    const int li = static_cast<int>(l);
    for (Dim d : m.levels[l].order) {
      if (m.levels[l].factor[at(d)] > 1) loops_.push_back({d, m.levels[l].factor[at(d)], li, false});
    }
    // The level's fan-out, then (at the last shared level) the array's rows and columns.
    auto spread = [&](const Factors& f, bool array) {
      const int fan = __builtin_ctzll(fanBit(li, array));
      for (Dim d : kAllDims) {
        if (f[at(d)] > 1) loops_.push_back({d, f[at(d)], li, true, fan});
      }
    };
    spread(m.levels[l].spatial, false);
    if (li == hw.array()) {
      spread(m.rows, true);
      spread(m.cols, true);
    }
  }
  for (size_t i = 0; i < loops_.size(); ++i) of_dim_[at(loops_[i].d)] |= uint64_t{1} << i;
}

size_t Nest::cut(int level) const {
  size_t c = 0;
  for (const Loop& x : loops_) {
    if (x.level < level) ++c;
  }
  return c;
}

int Nest::innermostRelevant(Operand t, size_t cut) const {
  int j = -1;
  for (size_t i = 0; i < cut; ++i) {
    if (!loops_[i].spatial && Problem::relevant(t, loops_[i].d)) j = static_cast<int>(i);
  }
  return j;
}

double Nest::volume(Operand t, size_t cut, bool reuse, uint64_t collapse) const {
  const int jstar = innermostRelevant(t, cut);
  const bool input = t == Operand::Input;
  const bool halo = reuse && input && jstar >= 0 && isWindow(loops_[size_t(jstar)].d);
  // The sliding group: jstar and the loops of its window axis right outside it (no other
  // temporal loop between); a step among them keeps what overlaps the last tile.
  int slide = jstar;
  if (halo) {
    for (int i = jstar - 1; i >= 0; --i) {
      const Loop& x = loops_[size_t(i)];
      if (x.spatial) continue;
      if (axisOf(x.d) != axisOf(loops_[size_t(jstar)].d)) break;
      slide = i;
    }
  }
  // Which loops (not the input's windows) start a new position of their dim at this cut.
  uint64_t enumerated = 0;
  // The input's window axes: each loop's role at this cut.
  SmallVector<WindowLoop, 16> rows, cols;
  for (size_t i = 0; i < loops_.size(); ++i) {
    const Loop& x = loops_[i];
    bool e = true;
    if (i >= cut) {
      e = false;
    } else if (x.spatial) {
      // A multicast feeds all PEs that share a value; a reduction sums theirs on the way.
      e = !(collapse >> x.fan & 1) || Problem::relevant(t, x.d);
    } else if (reuse) {
      e = static_cast<int>(i) <= jstar;
    }
    if (e) enumerated |= uint64_t{1} << i;
    if (input && isWindow(x.d)) {
      WindowRole role = WindowRole::Inner;
      if (i < cut) {
        if (x.spatial) {
          role = collapse >> x.fan & 1 ? WindowRole::PeUnion : WindowRole::PeSum;
        } else {
          role = halo && static_cast<int>(i) >= slide ? WindowRole::Run : WindowRole::Outer;
        }
      }
      const bool out = x.d == Dim::P || x.d == Dim::Q;
      ((x.d == Dim::P || x.d == Dim::R) ? rows : cols).push_back({x.f, out, role});
    }
  }
  double v = 1;
  for (Dim d : kAllDims) {
    if (input && isWindow(d)) continue;
    v *= Problem::relevant(t, d) ? static_cast<double>(p_.of(d)) : positions(d, enumerated);
  }
  if (input) {
    v *= windowElements({p_.of(Dim::P), p_.of(Dim::R), p_.stride_h, p_.dilation_h, p_.input_h}, rows) *
         windowElements({p_.of(Dim::Q), p_.of(Dim::S), p_.stride_w, p_.dilation_w, p_.input_w}, cols);
  }
  return v;
}

double Nest::fills(Operand t, size_t cut) const {
  const int jstar = innermostRelevant(t, cut);
  uint64_t enumerated = 0;
  for (size_t i = 0; i < loops_.size(); ++i) {
    if (i < cut && !loops_[i].spatial && static_cast<int>(i) <= jstar) enumerated |= uint64_t{1} << i;
  }
  double n = 1;
  for (Dim d : kAllDims) n *= positions(d, enumerated);
  return n;
}

// Mixed radix: along d, loop i adds idx_i x stride_i, stride_i the product of the factors of
// d's loops inside it, so every inner combination stays below one step of i. Counted from the
// outermost enumerated loop: the indices below the largest one that stays under the extent
// leave every inner combination in range; the largest one recurses on what is left.
double Nest::positions(Dim d, uint64_t enumerated) const {
  const uint64_t mine = of_dim_[at(d)];
  const uint64_t counted = mine & enumerated;
  if (counted == 0) return 1;
  if (counted == mine) return static_cast<double>(p_.of(d));  // every coordinate once
  int64_t inner = 1;   // the product of d's enumerated factors inside the current loop
  int64_t stride = 1;  // the product of all of d's factors inside the current loop
  for (uint64_t b = mine; b; b &= b - 1) {
    const Loop& x = loops_[static_cast<size_t>(__builtin_ctzll(b))];
    stride *= x.f;
    if (counted & (b & -b)) inner *= x.f;
  }
  double count = 0;
  int64_t left = p_.of(d);  // positions start below `left` (relative to the fixed outer ones)
  for (uint64_t b = mine; b; b &= b - 1) {
    const Loop& x = loops_[static_cast<size_t>(__builtin_ctzll(b))];
    stride /= x.f;
    if (!(counted & (b & -b))) continue;
    inner /= x.f;
    const int64_t top = std::min(x.f - 1, (left - 1) / stride);
    count += static_cast<double>(top) * static_cast<double>(inner);
    left -= top * stride;
  }
  return count + 1;
}

}  // namespace tessel::dataflows::nest
