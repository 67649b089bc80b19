#include "sim/fusion_conv.h"

#include <algorithm>

#include "dataflows/conv_chain.h"
#include "sim/analytical/fused_cost.h"

namespace tessel::sim {

namespace {

using dataflows::FusedGroup;

// Band heights or tile widths to try: powers of two below the extent and the extent, largest
// first.
std::vector<int64_t> sizesDown(int64_t extent) {
  std::vector<int64_t> v = dataflows::blockSizes(extent, 1);
  std::reverse(v.begin(), v.end());
  return v;
}

// A schedule and its bound: its blocks at the array's peak, costing their MACs' energy only.
struct Candidate {
  FusedGroup grp;
  analytical::GroupCost bound;
  double area() const { return static_cast<double>(grp.block_rows * grp.block_cols); }
};

// Does `a` leave `b` nothing to win: no more time in any stage, no more energy outside the
// blocks' mappings, and tiles at least as large (a larger block maps no worse)?
bool dominates(const Candidate& a, const Candidate& b) {
  const analytical::GroupCost &x = a.bound, &y = b.bound;
  return x.array <= y.array && x.vector <= y.vector && x.memory <= y.memory &&
         x.energy_pj <= y.energy_pj && a.area() >= b.area();
}

// The candidates no other dominates, the lowest bound under the objective first.
std::vector<FusedGroup> promising(std::vector<Candidate> all, const std::string& objective) {
  const auto value = [&](const analytical::GroupCost& c) {
    return objective == "energy" ? c.energy_pj
           : objective == "edp"  ? c.energy_pj * c.cycles
                                 : c.cycles;
  };
  std::vector<Candidate*> kept;
  for (size_t i = 0; i < all.size(); ++i) {
    bool beaten = false;
    for (size_t j = 0; j < all.size() && !beaten; ++j) {
      // Of two that dominate each other, the first stays.
      beaten = j != i && dominates(all[j], all[i]) && (j < i || !dominates(all[i], all[j]));
    }
    if (!beaten) kept.push_back(&all[i]);
  }
  std::stable_sort(kept.begin(), kept.end(), [&](const Candidate* a, const Candidate* b) {
    return value(a->bound) < value(b->bound);
  });
  std::vector<FusedGroup> out;
  for (Candidate* c : kept) out.push_back(std::move(c->grp));
  return out;
}

}  // namespace

// One schedule with its block GEMMs: each conv at the size of its largest tile, run as many
// times as its computed positions fill such blocks.
FusedGroup convSchedule(const ConvSearch& s, const models::ChainGroup& c,
                      const dataflows::ConvChainDims& d, int64_t rows, int64_t cols, bool keep,
                      int resident, const std::array<int, 4>& homes) {
  FusedGroup grp;
  grp.chain = c;
  grp.block_rows = rows;
  grp.block_cols = cols;
  grp.keep_halo = keep;
  grp.resident_level = resident;
  grp.homes = homes;
  const dataflows::ConvBands b = dataflows::convBands(d, rows, cols, keep);
  for (size_t i = 0; i < d.convs.size(); ++i) {
    const size_t l = i + 1;
    const models::Op op = dataflows::convBlockOp(s.g.op(c.convs[i]), b.block_rows[l],
                                                 b.block_cols[l], b.in_rows[l], b.in_cols[l]);
    FusedGroup::Block blk;
    blk.op = c.convs[i];
    blk.problem = dataflows::problemOf(op, s.g);
    blk.problem.output_dtype = blk.problem.loops.output_dtype = d.convs[i].out;
    blk.count = static_cast<double>(d.images) * b.positions[l] /
                static_cast<double>(b.block_rows[l] * b.block_cols[l]);
    grp.blocks.push_back(std::move(blk));
  }
  return grp;
}

std::vector<models::ChainGroup> convSegments(const models::ChainGroup& c) {
  std::vector<models::ChainGroup> runs;
  const size_t n = c.convs.size();
  for (size_t len = n; len >= 2; --len) {
    for (size_t a = 0; a + len <= n; ++a) {
      models::ChainGroup r;
      r.kind = models::ChainKind::ConvChain;
      r.convs.assign(c.convs.begin() + static_cast<std::ptrdiff_t>(a),
                     c.convs.begin() + static_cast<std::ptrdiff_t>(a + len));
      for (int id : c.ops) {
        if (id >= r.convs.front() && id <= r.convs.back()) r.ops.push_back(id);
      }
      runs.push_back(std::move(r));
    }
  }
  return runs;
}

double convWeightBytes(const models::ChainGroup& c, const models::Graph& g) {
  double bytes = 0;
  for (int id : c.convs) bytes += static_cast<double>(g.tensor(g.op(id).inputs.at(1)).bytes());
  return bytes;
}

std::vector<FusedGroup> convSchedules(const ConvSearch& s, const models::ChainGroup& c,
                                      const std::array<int, 4>& homes, DType out,
                                      const std::vector<int>& residents) {
  dataflows::ConvChainDims d = dataflows::convChainDims(c, s.g);
  d.convs.back().out = out;
  const size_t top = d.convs.size();
  const int64_t width = d.extent(top, false);
  std::vector<Candidate> found;
  for (int64_t cols : sizesDown(width)) {
    // A whole-width band keeps its halo rows within its own window: keep costs no buffer there
    // beyond recompute's and never computes or reads more, so recompute is tried on narrower
    // tiles only.
    const std::vector<bool> modes =
        cols < width ? std::vector<bool>{false, true} : std::vector<bool>{true};
    for (bool keep : modes) {
      for (int resident : residents) {
        int fitted = 0;
        for (int64_t rows : sizesDown(d.extent(top, true))) {
          Candidate x{convSchedule(s, c, d, rows, cols, keep, resident, homes), {}};
          x.bound = analytical::evaluateGroup(x.grp, s.g, s.acc, s.mem, false);
          if (!x.bound.ok) continue;
          found.push_back(std::move(x));
          if (++fitted == 2) break;
        }
      }
    }
  }
  return promising(std::move(found), s.objective);
}

std::vector<size_t> pickSegments(const std::vector<SegmentGain>& runs, size_t convs) {
  // best[e]: the largest total gain of disjoint runs within convs [0, e).
  std::vector<double> best(convs + 1, 0);
  std::vector<int> choice(convs + 1, -1);  // the run ending at conv e - 1 that attains it
  for (size_t e = 1; e <= convs; ++e) {
    best[e] = best[e - 1];
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].last + 1 != e || runs[i].gain <= 0) continue;
      const double v = best[runs[i].first] + runs[i].gain;
      if (v > best[e]) {
        best[e] = v;
        choice[e] = static_cast<int>(i);
      }
    }
  }
  std::vector<size_t> picked;
  for (size_t e = convs; e > 0;) {
    if (choice[e] < 0) {
      --e;
      continue;
    }
    picked.push_back(static_cast<size_t>(choice[e]));
    e = runs[static_cast<size_t>(choice[e])].first;
  }
  return picked;
}

}  // namespace tessel::sim
