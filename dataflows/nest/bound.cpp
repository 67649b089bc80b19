#include "dataflows/nest/bound.h"

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

#include "dataflows/nest/mapping.h"

namespace tessel::dataflows::nest {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t product(const Factors& f) {
  int64_t n = 1;
  for (int64_t x : f) n *= x;
  return n;
}

bool listed(const std::vector<Dim>& v, Dim d) {
  return std::find(v.begin(), v.end(), d) != v.end();
}

// The smallest factor for each number of passes over `extent`, up to `room` PEs: a larger
// factor with as many passes only idles more PEs (96 elements: 48 for two passes, not 64).
std::vector<int64_t> factorChoices(int64_t extent, int64_t room) {
  std::vector<int64_t> v{1};
  for (int64_t s = 1; ceilDiv(extent, s) > 1;) {
    s = (extent - 1) / (ceilDiv(extent, s) - 1) + 1;  // the first factor with fewer passes
    if (s > room) break;
    v.push_back(s);
  }
  return v;
}

// Calls visit(f) for every unrolling f of `dims[i..]` over `room` PEs of one axis, the largest
// factors of the first dims (the dataflow's preferred) first.
template <class Visit>
void unrollings(const std::vector<Dim>& dims, size_t i, int64_t room, const Factors& left,
                Factors& f, Visit& visit) {
  if (i == dims.size()) {
    visit(static_cast<const Factors&>(f));
    return;
  }
  const Dim d = dims[i];
  const std::vector<int64_t> choices = factorChoices(left[at(d)], room);
  for (auto s = choices.rbegin(); s != choices.rend(); ++s) {
    f[at(d)] = *s;
    unrollings(dims, i + 1, room / *s, left, f, visit);
  }
  f[at(d)] = 1;
}

struct AxisBest {
  Factors f = kOnes;
  double steps = std::numeric_limits<double>::infinity();  // along the axis's dims
  int64_t pes = 0;
};

// The unrolling of `dims` over `size` PEs with the fewest steps along them, then the fewest PEs.
AxisBest bestOn(const std::vector<Dim>& dims, int64_t size, const Factors& left) {
  AxisBest best;
  Factors f = kOnes;
  auto visit = [&](const Factors& g) {
    double steps = 1;
    for (Dim d : dims) steps *= static_cast<double>(ceilDiv(left[at(d)], g[at(d)]));
    const int64_t pes = product(g);
    if (steps < best.steps || (steps == best.steps && pes < best.pes)) best = {g, steps, pes};
  };
  unrollings(dims, 0, size, left, f, visit);
  return best;
}

// The dims of `v` once each, in order.
std::vector<Dim> distinct(const std::vector<Dim>& v) {
  std::vector<Dim> out;
  for (Dim d : v) {
    if (!listed(out, d)) out.push_back(d);
  }
  return out;
}

// "C=1 R=3 S=3": the dims an axis may take, with their extents.
std::string dimsText(const Problem& p, const std::vector<Dim>& dims) {
  std::string s;
  for (Dim d : dims) {
    if (p.dimName(d).empty()) continue;
    s += (s.empty() ? "" : " ") + p.dimName(d) + "=" + std::to_string(p.of(d));
  }
  return s.empty() ? "nothing" : s;
}

// Fills b.unused and b.unused_why.
void describeUnused(Bound& b, const Problem& p, const Hardware& hw, const Constraints& c) {
  std::string axes, why;
  auto add = [&](int64_t used, int size, const char* axis, const std::vector<Dim>& dims) {
    if (used >= size) return;
    axes += (axes.empty() ? "" : " and ") + std::to_string(used) + " of " + std::to_string(size) +
            " " + axis;
    why += (why.empty() ? std::string(axis) + " take " : std::string(", ") + axis + " ") +
           dimsText(p, dims);
  };
  const std::vector<Dim> rows = axisDims(c.rows, hw), cols = axisDims(c.cols, hw);
  add(b.rowsUsed(), hw.rows, "rows", rows);
  add(b.colsUsed(), hw.cols, "columns", cols);
  if (axes.empty()) return;
  if (p.of(Dim::G) > 1 && !listed(rows, Dim::G) && !listed(cols, Dim::G)) {
    why += "; " + p.dimName(Dim::G) + "=" + std::to_string(p.of(Dim::G)) +
           " has no place on the array";
  }
  b.unused = axes + " usable";
  b.unused_why = why;
}

}  // namespace

int64_t Bound::rowsUsed() const { return product(rows); }
int64_t Bound::colsUsed() const { return product(cols); }

Bound dataflowBound(const Problem& p, const Hardware& hw, const Constraints& c, double mac_rate,
                    double ideal) {
  // What the constraints allow an axis, as violation() reads them (the groups on a spatial array).
  const std::vector<Dim> row_dims = distinct(axisDims(c.rows, hw));
  const std::vector<Dim> col_dims = distinct(axisDims(c.cols, hw));
  Bound b;
  b.steps = std::numeric_limits<double>::infinity();
  int64_t best_pes = 0;
  // The columns' best depends on the rows' unrolling only through the dims both may take: one
  // search of the columns per distinct remainder of those (one in all when none is shared).
  std::map<std::vector<int64_t>, AxisBest> cols_for;
  Factors f = kOnes;
  auto visit = [&](const Factors& rows) {
    Factors left = p.extent;
    for (Dim d : kAllDims) left[at(d)] = ceilDiv(p.of(d), rows[at(d)]);
    std::vector<int64_t> key;
    for (Dim d : col_dims) key.push_back(left[at(d)]);
    auto it = cols_for.find(key);
    if (it == cols_for.end()) it = cols_for.emplace(key, bestOn(col_dims, hw.cols, left)).first;
    const AxisBest& cols = it->second;
    double steps = cols.steps;
    for (Dim d : kAllDims) {
      if (!listed(col_dims, d)) steps *= static_cast<double>(left[at(d)]);
    }
    const int64_t pes = product(rows) * cols.pes;
    if (steps < b.steps || (steps == b.steps && pes < best_pes)) {
      b.rows = rows;
      b.cols = cols.f;
      b.steps = steps;
      best_pes = pes;
    }
  };
  unrollings(row_dims, 0, hw.rows, p.extent, f, visit);
  // Copies of the array under fan-outs split the work at best evenly.
  b.steps /= static_cast<double>(hw.arrays);
  const double macs = static_cast<double>(p.macs());
  b.ideal = ideal;
  b.cycles = std::max(mac_rate > 0 ? b.steps / mac_rate : 0.0, ideal);
  b.share = b.steps > 0 ? macs / (b.steps * static_cast<double>(hw.pes())) : 0;
  b.spatial = spatialText(b.rows, b.cols, p);
  describeUnused(b, p, hw, c);
  return b;
}

}  // namespace tessel::dataflows::nest
