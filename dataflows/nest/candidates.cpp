#include "dataflows/nest/candidates.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tessel::dataflows::nest {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool contains(const std::vector<Dim>& v, Dim d) { return std::find(v.begin(), v.end(), d) != v.end(); }

// The largest factor <= limit that splits `extent` into as few passes as `limit` does, so the
// passes come out even (24 on 16 rows: 12 + 12, not 16 + 8).
int64_t balanced(int64_t extent, int64_t limit) {
  if (extent <= 1 || limit <= 1) return 1;
  const int64_t passes = ceilDiv(extent, limit);
  return ceilDiv(extent, passes);
}

std::vector<Factors> axisSplits(const Problem& p, const std::vector<Dim>& dims, int64_t size,
                                const Factors& used) {
  std::vector<Factors> out{kOnes};
  auto left = [&](Dim d) { return ceilDiv(p.of(d), used[at(d)]); };
  for (Dim d : dims) {
    if (left(d) <= 1) continue;
    Factors f = kOnes;
    f[at(d)] = balanced(left(d), size);
    out.push_back(f);
    for (Dim e : dims) {
      if (e == d || left(e) <= 1 || f[at(d)] >= size) continue;
      Factors g = f;
      g[at(e)] = balanced(left(e), size / f[at(d)]);
      if (g[at(e)] > 1) out.push_back(g);
    }
  }
  auto active = [](const Factors& f) {
    int64_t a = 1;
    for (int64_t x : f) a *= x;
    return a;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const Factors& a, const Factors& b) { return active(a) > active(b); });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() > 4) out.resize(4);
  return out;
}

// Dims a level's loops run over, in a stationary order for tensor t: the dims t depends on
// outside, the ones it ignores inside (so t's tile stays while they turn).
std::vector<Dim> stationaryOrder(const Factors& f, Operand t) {
  std::vector<Dim> order;
  for (Dim d : kAllDims) {
    if (f[at(d)] > 1 && Problem::relevant(t, d)) order.push_back(d);
  }
  for (Dim d : kAllDims) {
    if (f[at(d)] > 1 && !Problem::relevant(t, d)) order.push_back(d);
  }
  return order;
}

}  // namespace

std::vector<int64_t> tileSizes(int64_t extent, int64_t inner, size_t limit) {
  const int64_t units = ceilDiv(extent, inner);
  // The smallest tile of each distinct count ceil(units / t): from a tile t with count c, the
  // next count starts at the first tile past the largest one still giving c,
  // (units - 1) / (c - 1). Stopping the small tiles at sqrt(units) missed counts just above it
  // (8 units: the tile of 3, three passes).
  std::vector<int64_t> v;
  for (int64_t t = 1;;) {
    v.push_back(t);
    const int64_t count = ceilDiv(units, t);
    if (count <= 1) break;
    t = (units - 1) / (count - 1) + 1;
  }
  if (v.size() > limit && limit >= 2) {
    std::vector<int64_t> thin;
    for (size_t i = 0; i < limit; ++i) thin.push_back(v[i * (v.size() - 1) / (limit - 1)]);
    thin.erase(std::unique(thin.begin(), thin.end()), thin.end());
    v = thin;
  }
  for (int64_t& t : v) t = std::min(extent, t * inner);
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::vector<std::pair<Factors, Factors>> spatialSplits(const Problem& p, const Hardware& hw,
                                                       const Constraints& c) {
  std::vector<std::pair<Factors, Factors>> out;
  const std::vector<Dim> row_dims = axisDims(c.rows, hw), col_dims = axisDims(c.cols, hw);
  for (const Factors& rows : axisSplits(p, row_dims, hw.rows, kOnes)) {
    for (const Factors& cols : axisSplits(p, col_dims, hw.cols, rows)) out.emplace_back(rows, cols);
  }
  return out;
}

std::vector<std::vector<Factors>> fanoutSplits(const Problem& p, const Hardware& hw,
                                               const Factors& used) {
  std::vector<std::vector<Factors>> out{std::vector<Factors>(hw.levels.size(), kOnes)};
  std::vector<Dim> dims;
  for (Dim d : kAllDims) {
    if (p.of(d) > 1) dims.push_back(d);
  }
  std::stable_sort(dims.begin(), dims.end(), [&](Dim a, Dim b) { return p.of(a) > p.of(b); });
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    if (hw.levels[l].fanout <= 1) continue;
    std::vector<Dim> split = dims;
    if (!hw.levels[l].fanout_split_reduction) {  // whole outputs per instance: output dims only
      split.erase(std::remove_if(split.begin(), split.end(),
                                 [](Dim d) { return !Problem::relevant(Operand::Output, d); }),
                  split.end());
    }
    std::vector<std::vector<Factors>> next;
    for (const auto& prior : out) {
      Factors taken = used;
      for (const Factors& f : prior) {
        for (Dim d : kAllDims) taken[at(d)] *= f[at(d)];
      }
      for (const Factors& f : axisSplits(p, split, hw.levels[l].fanout, taken)) {
        next.push_back(prior);
        next.back()[l] = f;
      }
    }
    out.swap(next);
  }
  return out;
}

Mapping withOrders(const Mapping& m, const Problem& p, const Hardware& hw, Operand outer,
                   Operand local) {
  (void)p;
  Mapping r = m;
  for (int l = 0; l < hw.local(); ++l) r.levels[size_t(l)].order = stationaryOrder(r.levels[size_t(l)].factor, outer);
  for (int l = hw.local(); l <= hw.array(); ++l) {
    r.levels[size_t(l)].order = stationaryOrder(r.levels[size_t(l)].factor, local);
  }
  for (size_t l = size_t(hw.pe()); l < r.levels.size(); ++l) {
    r.levels[l].order = stationaryOrder(r.levels[l].factor, Operand::Output);
  }
  return r;
}

std::vector<std::vector<Dim>> orderChoices(const Problem& p, const Hardware& hw, int level) {
  (void)hw;
  (void)level;
  std::vector<Dim> active;
  for (Dim d : kAllDims) {
    if (p.of(d) > 1) active.push_back(d);
  }
  std::vector<std::vector<Dim>> out;
  if (active.size() <= 4) {
    std::vector<Dim> perm = active;
    do {
      out.push_back(perm);
    } while (std::next_permutation(perm.begin(), perm.end()));
    return out;
  }
  Factors all = kOnes;
  for (Dim d : active) all[at(d)] = 2;
  for (int t = 0; t < kTensors; ++t) out.push_back(stationaryOrder(all, static_cast<Operand>(t)));
  return out;
}

std::vector<Operand> localOrderChoices(const Problem& p, const Hardware& hw, const Constraints& c) {
  (void)p;
  (void)hw;
  bool keeps = false;
  for (bool k : c.pe_keeps) keeps = keeps || k;
  if (!keeps) return {Operand::Output};
  return {Operand::Input, Operand::Weight, Operand::Output};
}

double spaceSize(const Problem& p, const Hardware& hw, const Constraints& c) {
  double total = 0;
  for (const auto& [rows, cols] : spatialSplits(p, hw, c)) {
    double n = 1;
    for (Dim d : kAllDims) {
      if (p.of(d) <= 1) continue;
      const int64_t s = rows[at(d)] * cols[at(d)];
      const double sizes = static_cast<double>(tileSizes(p.of(d), s, SIZE_MAX).size());
      const bool pe_loop = contains(c.pe_loops, d);
      n *= pe_loop && !hw.systolic ? sizes * sizes : sizes;
    }
    total += n;
  }
  return total * static_cast<double>(orderChoices(p, hw, 0).size()) *
         static_cast<double>(localOrderChoices(p, hw, c).size()) * 2;
}

std::vector<Mapping> allOrders(const Mapping& m, const Problem& p, const Hardware& hw,
                               const Constraints& c,
                               const std::vector<std::vector<Dim>>& dram_orders) {
  std::vector<Mapping> out;
  for (Operand local : localOrderChoices(p, hw, c)) {
    const Mapping base = withOrders(m, p, hw, Operand::Output, local);
    for (const auto& order : dram_orders) {
      Mapping x = base;
      for (int l = 0; l < hw.local(); ++l) {
        std::vector<Dim> o;
        for (Dim d : order) {
          if (x.levels[size_t(l)].factor[at(d)] > 1) o.push_back(d);
        }
        x.levels[size_t(l)].order = o;
      }
      conformOrders(x, c, hw);
      if (std::find_if(out.begin(), out.end(), [&](const Mapping& y) {
            for (size_t l = 0; l < y.levels.size(); ++l) {
              if (y.levels[l].order != x.levels[l].order) return false;
            }
            return true;
          }) == out.end()) {
        out.push_back(std::move(x));
      }
    }
  }
  return out;
}

namespace {

// One enumerated tiling, compactly: the start it grew from and the three factor sets the search
// sets (PE, local memory, DRAM). A full Mapping is about 1 KB; enumeration can reach tens of
// thousands of tilings before the filters, so only the survivors become Mappings.
struct Leaf {
  uint32_t start;
  Factors pe, local, dram;
};

struct Enumerator {
  const Problem& p;
  const Hardware& hw;
  const Constraints& c;
  bool whole_rows;
  size_t limit;
  std::vector<Dim> dims;  // dims with extent > 1, in DFS order
  uint32_t start;
  std::vector<Leaf>* out;

  // Options per dim: (pe factor, local tile) given the spatial factor.
  std::vector<std::pair<int64_t, int64_t>> options(Dim d, int64_t spatial) const {
    std::vector<std::pair<int64_t, int64_t>> v;
    const int64_t left = ceilDiv(p.of(d), spatial);
    const bool pe_loop = contains(c.pe_loops, d);
    std::vector<int64_t> pe{1};
    size_t local_limit = limit;
    if (pe_loop && !hw.systolic) {
      const size_t pe_limit = limit == SIZE_MAX ? limit : std::max<size_t>(2, static_cast<size_t>(std::sqrt(static_cast<double>(limit))));
      pe = tileSizes(left, 1, pe_limit);
      if (limit != SIZE_MAX) local_limit = std::max<size_t>(2, limit / pe_limit);
    } else if (pe_loop) {
      pe = tileSizes(left, 1, limit);
    }
    for (int64_t t : pe) {
      if (hw.systolic && pe_loop) {
        // A systolic PE streams its whole local tile past the stationary value.
        if (!whole_rows || d != Dim::K || t * spatial >= p.of(d)) v.emplace_back(t, t * spatial);
        continue;
      }
      for (int64_t tile : tileSizes(p.of(d), t * spatial, local_limit)) {
        if (whole_rows && d == Dim::K && tile < p.of(d)) continue;
        v.emplace_back(t, tile);
      }
    }
    return v;
  }

  // The tile goes to the last shared level (with no cluster buffer, the local memory).
  void place(Mapping& m, Dim d, int64_t pe, int64_t tile) const {
    const int64_t spatial = m.allSpatial(d);
    const int64_t local_f = ceilDiv(tile, pe * spatial);
    m.levels[size_t(hw.pe())].factor[at(d)] = pe;
    m.levels[size_t(hw.array())].factor[at(d)] = local_f;
    m.levels[0].factor[at(d)] = ceilDiv(p.of(d), tile);
  }

  void dfs(Mapping& m, size_t i) {
    if (!checkCapacity(p, m, hw).empty()) return;
    if (i == dims.size()) {
      out->push_back({start, m.levels[size_t(hw.pe())].factor, m.levels[size_t(hw.array())].factor,
                      m.levels[0].factor});
      return;
    }
    const Dim d = dims[i];
    for (const auto& [pe, tile] : options(d, m.allSpatial(d))) {
      const Factors saved_pe = m.levels[size_t(hw.pe())].factor;
      const Factors saved_local = m.levels[size_t(hw.array())].factor;
      const Factors saved_dram = m.levels[0].factor;
      place(m, d, pe, tile);
      dfs(m, i + 1);
      m.levels[size_t(hw.pe())].factor = saved_pe;
      m.levels[size_t(hw.array())].factor = saved_local;
      m.levels[0].factor = saved_dram;
    }
  }
};

}  // namespace

Mapping skeleton(const Problem& p, const Hardware& hw, const Constraints& c, const Factors& rows,
                 const Factors& cols, bool double_buffered) {
  Mapping m;
  m.levels.resize(hw.levels.size());
  m.rows = rows;
  m.cols = cols;
  m.double_buffered = double_buffered;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (size_t t = 0; t < kTensors; ++t) {
      m.levels[l].keeps[t] = hw.levels[l].can_hold[t];
      if (static_cast<int>(l) == hw.pe()) m.levels[l].keeps[t] = hw.levels[l].can_hold[t] && c.pe_keeps[t];
      // Registers below the register file keep what one element of fits.
      if (static_cast<int>(l) > hw.pe()) {
        const auto x = static_cast<Operand>(t);
        const DType dt = x == Operand::Input ? p.input_dtype : x == Operand::Weight ? p.weight_dtype : hw.accum_dtype;
        const double room = hw.levels[l].pool_bytes[size_t(hw.levels[l].pool_of[t])];
        m.levels[l].keeps[t] = m.levels[l].keeps[t] && (room < 0 || room >= bytesOf(dt));
      }
    }
  }
  if (hw.l2 >= 0) {
    const Level& l2 = hw.levels[size_t(hw.l2)];
    double used = 0;
    for (size_t t = 0; t < kTensors; ++t) {
      const auto x = static_cast<Operand>(t);
      const DType dt = x == Operand::Input ? p.input_dtype : x == Operand::Weight ? p.weight_dtype : p.output_dtype;
      const double bytes = p.elements(x) * bytesOf(dt);
      const bool fits = l2.pool_bytes[0] < 0 || used + bytes <= l2.pool_bytes[0] / 2;
      m.levels[size_t(hw.l2)].keeps[t] = l2.can_hold[t] && fits;
      if (m.levels[size_t(hw.l2)].keeps[t]) used += bytes;
    }
  }
  return m;
}

namespace {

// Drops tilings another one dominates by growing one dim's local tile and still fitting.
bool maximal(const Mapping& m, const Problem& p, const Hardware& hw, const std::vector<Dim>& dims) {
  for (Dim d : dims) {
    const int a = hw.array();
    const int64_t unit = m.tile(hw.pe(), d, a) * m.allSpatial(d);
    const int64_t tile = m.tile(hw.local(), d, a);
    if (tile >= p.of(d)) continue;
    Mapping g = m;
    g.levels[size_t(a)].factor[at(d)] = m.levels[size_t(a)].factor[at(d)] + 1;
    g.levels[0].factor[at(d)] = ceilDiv(p.of(d), std::min(p.of(d), unit * g.levels[size_t(a)].factor[at(d)]));
    if (checkCapacity(p, g, hw).empty()) return false;
  }
  return true;
}

}  // namespace

namespace {

// Where the enumeration starts: every spatial split of the array, every split of the levels'
// fan-outs, double- and single-buffered (the bool).
std::vector<std::pair<Mapping, bool>> enumerationStarts(const Problem& p, const Hardware& hw,
                                                        const Constraints& c) {
  std::vector<std::pair<Mapping, bool>> starts;
  for (const auto& [rows, cols] : spatialSplits(p, hw, c)) {
    Factors used = kOnes;
    for (Dim d : kAllDims) used[at(d)] = rows[at(d)] * cols[at(d)];
    for (const auto& fans : fanoutSplits(p, hw, used)) {
      for (bool db : {true, false}) {
        Mapping m = skeleton(p, hw, c, rows, cols, db);
        for (size_t l = 0; l < fans.size(); ++l) m.levels[l].spatial = fans[l];
        starts.emplace_back(std::move(m), db);
      }
    }
  }
  return starts;
}

// Sizes each dim offers so that splits x sizes^dims stays near the target (PE and local sizes
// share a dim's allowance on a spatial array); SIZE_MAX when exhaustive.
size_t sizesPerDim(bool exhaustive, int64_t target, size_t starts, size_t dims) {
  if (exhaustive || dims == 0) return SIZE_MAX;
  const double per_split = std::max(
      1.0, static_cast<double>(target) / (2.0 * static_cast<double>(std::max<size_t>(1, starts / 2))));
  const double per_dim = std::pow(per_split, 1.0 / static_cast<double>(dims));
  return static_cast<size_t>(std::clamp(per_dim, 2.0, 16.0));
}

void setFactors(const Hardware& hw, const Leaf& leaf, Mapping& m) {
  m.levels[size_t(hw.pe())].factor = leaf.pe;
  m.levels[size_t(hw.array())].factor = leaf.local;
  m.levels[0].factor = leaf.dram;
}

// Each leaf made a Mapping (copied from its start), with the default loop orders.
void materialize(const std::vector<Leaf>& leaves,
                 const std::vector<std::pair<Mapping, bool>>& starts, const Hardware& hw,
                 const Constraints& c, std::vector<Mapping>& all) {
  all.clear();  // keeps its capacity: copies, no default construction
  all.reserve(leaves.size());
  for (const Leaf& leaf : leaves) {
    all.push_back(starts[leaf.start].first);
    Mapping& m = all.back();
    setFactors(hw, leaf, m);
    for (size_t l = 0; l < m.levels.size(); ++l) {
      m.levels[l].order.clear();
      for (Dim d : kAllDims) {
        if (m.levels[l].factor[at(d)] > 1) m.levels[l].order.push_back(d);
      }
    }
    conformOrders(m, c, hw);
  }
}

}  // namespace

void enumerateTilings(const Problem& p, const Hardware& hw, const Constraints& c, bool whole_rows,
                      bool exhaustive, int64_t target, std::vector<Mapping>& all) {
  std::vector<Dim> dims;
  for (Dim d : kAllDims) {
    if (p.of(d) > 1) dims.push_back(d);
  }
  // Large dims first: their choices prune the most.
  std::stable_sort(dims.begin(), dims.end(), [&](Dim a, Dim b) { return p.of(a) > p.of(b); });
  std::vector<std::pair<Mapping, bool>> starts = enumerationStarts(p, hw, c);
  const size_t limit = sizesPerDim(exhaustive, target, starts.size(), dims.size());
  Mapping scratch;
  const auto grown = [&](const Leaf& leaf) -> const Mapping& {  // the start with a leaf's factors
    scratch = starts[leaf.start].first;
    setFactors(hw, leaf, scratch);
    return scratch;
  };
  thread_local std::vector<Leaf> leaves;  // reused: a search's largest list, kept per thread
  leaves.clear();
  for (size_t i = 0; i < starts.size(); ++i) {
    auto& [m, db] = starts[i];
    for (Dim d : kAllDims) m.levels[0].factor[at(d)] = ceilDiv(p.of(d), m.allSpatial(d));
    Enumerator e{p, hw, c, whole_rows, limit, dims, static_cast<uint32_t>(i), &leaves};
    const size_t before = leaves.size();
    e.dfs(m, 0);
    if (!db) {
      // Single buffering only where double buffering leaves the tile smaller (filtered in
      // place: copying the list for every split made enumeration quadratic).
      const auto fits_double = [&](const Leaf& x) {
        grown(x);
        scratch.double_buffered = true;
        return checkCapacity(p, scratch, hw).empty();
      };
      leaves.erase(std::remove_if(leaves.begin() + static_cast<long>(before), leaves.end(), fits_double),
                   leaves.end());
    }
  }
  if (!exhaustive && leaves.size() > 4096) {
    const auto dominated = [&](const Leaf& x) { return !maximal(grown(x), p, hw, dims); };
    leaves.erase(std::remove_if(leaves.begin(), leaves.end(), dominated), leaves.end());
  }
  materialize(leaves, starts, hw, c, all);
}

}  // namespace tessel::dataflows::nest
