// The `search` mapper: the loop-nest search of dataflows/nest/ behind the Mapper interface. It
// caches results per distinct layer (shape, dtypes, homes, constraints), so the twelve identical
// blocks of a transformer are searched once, and seeds every GEMM's search with the mapping
// gemmini-auto picks, so it is never worse than that heuristic under the same cost model.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "dataflows/mapper.h"
#include "dataflows/tile_as_nest.h"
#include "dataflows/nest/bound.h"
#include "dataflows/nest/candidates.h"
#include "dataflows/nest/search.h"
#include "util/budget.h"
#include "util/error.h"

namespace tessel::dataflows {

std::unique_ptr<Mapper> makeGemminiAutoMapper(const MapperOptions& options);

namespace {

// One cost evaluation of the search on one core, measured: 200 distinct conv layers at
// --budget 20000 map in 10.4 s on 2 cores.
constexpr double kSecondsPerEvaluation = 5e-6;

nest::Dim nestDim(Dim d) {
  return d == Dim::M ? nest::Dim::P : d == Dim::N ? nest::Dim::K : nest::Dim::C;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The largest space --budget 0 searches whole (about 5 s and 300 MB at 1.1 million).
constexpr double kMaxExhaustive = 2e6;

// The dataflow's bound over every view the search may present the op in: the lowest.
nest::Bound bestBound(const std::vector<nest::Problem>& views, const nest::Hardware& hw,
                      const nest::Constraints& c, double mac_rate, double ideal) {
  nest::Bound best;
  for (const nest::Problem& view : views) {
    nest::Bound b = nest::dataflowBound(view, hw, c, mac_rate, ideal);
    if (best.steps <= 0 || b.cycles < best.cycles ||
        (b.cycles == best.cycles && b.steps < best.steps)) {
      best = std::move(b);
    }
  }
  return best;
}

}  // namespace

std::optional<nest::Mapping> tileAsNest(const Mapping& t, const Problem& p, const nest::Hardware& hw,
                                    const Dataflow& df) {
  const nest::Problem& q = p.loops;
  if (!q.gemm || !df.gemm_view) return std::nullopt;
  nest::Mapping m = nest::skeleton(q, hw, df.nest, nest::kOnes, nest::kOnes, t.double_buffered);
  auto set = [&](Dim d, int64_t spatial_rows, int64_t spatial_cols, int64_t pe) {
    const nest::Dim x = nestDim(d);
    const int64_t tile = std::max<int64_t>(1, std::min(t.tileOf(d), q.of(x)));
    m.rows[nest::at(x)] = spatial_rows;
    m.cols[nest::at(x)] = spatial_cols;
    m.levels[size_t(hw.pe())].factor[nest::at(x)] = pe;
    m.levels[size_t(hw.local())].factor[nest::at(x)] = ceilDiv(tile, spatial_rows * spatial_cols * pe);
    m.levels[0].factor[nest::at(x)] = ceilDiv(q.of(x), tile);
  };
  set(df.row_dim, std::min<int64_t>(hw.rows, std::min(t.tileOf(df.row_dim), q.of(nestDim(df.row_dim)))), 1, 1);
  set(df.col_dim, 1, std::min<int64_t>(hw.cols, std::min(t.tileOf(df.col_dim), q.of(nestDim(df.col_dim)))), 1);
  set(df.stream_dim, 1, 1, std::max<int64_t>(1, std::min(t.tileOf(df.stream_dim), q.of(nestDim(df.stream_dim)))));
  m.levels[0].factor[nest::at(nest::Dim::G)] = q.of(nest::Dim::G);
  std::vector<nest::Dim> outer{nest::Dim::G};
  for (Dim d : t.loop_order) outer.push_back(nestDim(d));
  for (size_t l = 0; l < m.levels.size(); ++l) {
    auto& lv = m.levels[l];
    lv.order.clear();
    const std::vector<nest::Dim> pref =
        static_cast<int>(l) < hw.local() ? outer
                                         : std::vector<nest::Dim>{nest::Dim::K, nest::Dim::C, nest::Dim::P};
    for (nest::Dim d : pref) {
      if (lv.factor[nest::at(d)] > 1) lv.order.push_back(d);
    }
  }
  if (!nest::checkShape(m, q, hw).empty() || !nest::checkCapacity(q, m, hw).empty()) return std::nullopt;
  return m;
}

namespace {

class SearchMapper final : public Mapper {
 public:
  explicit SearchMapper(const MapperOptions& o) : o_(o) {}
  std::string_view name() const override { return "search"; }

  MapResult map(const Problem& p, const arch::Accelerator& acc, const Dataflow& df,
                const MapConstraints& constraints) const override {
    const std::string key = keyOf(p, acc, df, constraints);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    }
    MapResult r = mapUncached(p, acc, df, constraints, o_.threads);
    std::lock_guard<std::mutex> lock(mu_);
    cache_.emplace(key, r);
    return r;
  }

  // Distinct layers on all cores, one search per core (a search's result does not depend on its
  // thread count, so this changes nothing but the wall time).
  void prefetch(const std::vector<MapRequest>& requests, const arch::Accelerator& acc,
                const Dataflow& df) const override {
    std::vector<std::pair<std::string, const MapRequest*>> pending;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::set<std::string> queued;  // a set: a graph of a million distinct layers stays linear
      for (const MapRequest& q : requests) {
        std::string key = keyOf(q.problem, acc, df, q.constraints);
        if (cache_.count(key) == 0 && queued.insert(key).second) pending.emplace_back(std::move(key), &q);
      }
    }
    const int cores = o_.threads > 0 ? o_.threads
                                     : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    // Hours of searching before any output are refused up front (util/budget.h), naming --budget.
    if (o_.budget > 0) {
      budget::checkWork(static_cast<double>(pending.size()),
                        static_cast<double>(o_.budget) * kSecondsPerEvaluation / cores,
                        "distinct layers to map at " + std::to_string(o_.budget) +
                            " cost evaluations each (on " + std::to_string(cores) + " cores)",
                        {"", 0, 0, "--budget"});
    }
    const size_t workers = std::min<size_t>(static_cast<size_t>(cores), pending.size());
    if (workers < 2) return;  // map() will do it, with all cores inside the one search
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i = next++; i < pending.size(); i = next++) {
        const MapRequest& q = *pending[i].second;
        try {
          MapResult r = mapUncached(q.problem, acc, df, q.constraints, 1);
          std::lock_guard<std::mutex> lock(mu_);
          cache_.emplace(pending[i].first, std::move(r));
        } catch (...) {
          // Left uncached: the planner's own map() call meets the error again and reports it.
        }
      }
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < workers; ++t) pool.emplace_back(work);
    work();
    for (auto& th : pool) th.join();
  }

 private:
  static std::string keyOf(const Problem& p, const arch::Accelerator& acc, const Dataflow& df,
                           const MapConstraints& constraints) {
    return p.loops.describe() + " in " + std::to_string(p.loops.input_h) + "x" +
           std::to_string(p.loops.input_w) + "|" + std::string(nameOf(p.input_dtype)) +
           std::string(nameOf(p.weight_dtype)) + std::string(nameOf(p.output_dtype)) + "|" +
           std::to_string(constraints.homes[0]) + std::to_string(constraints.homes[1]) +
           std::to_string(constraints.homes[2]) + (constraints.whole_rows ? "w" : "") + "|" +
           df.name + "|" + acc.hash() + "|" + sparsityKey(p.loops.sparsity[0]) + "," +
           sparsityKey(p.loops.sparsity[1]);
  }

  MapResult mapUncached(const Problem& p, const arch::Accelerator& acc, const Dataflow& df,
                        const MapConstraints& constraints, int threads) const {
    MapResult r;
    const auto objective = nest::parseObjective(o_.objective);
    if (!objective) {
      r.reason = "unknown objective '" + o_.objective + "' (latency, energy, edp)";
      return r;
    }
    auto hw = std::make_shared<const nest::Hardware>(nest::hardwareOf(acc));
    nest::SearchOptions so;
    so.objective = *objective;
    so.budget = o_.budget;
    so.tolerance = o_.tolerance;
    so.threads = threads;
    so.whole_rows = constraints.whole_rows;
    so.cost.mac_rate = acc.array.macRate(p.input_dtype, p.weight_dtype);
    so.cost.ideal_memory = o_.ideal_memory;
    for (size_t t = 0; t < 3; ++t) {
      const int home = constraints.homes[t];
      const bool in_l2 = home >= 0 && static_cast<size_t>(home) < acc.levels.size() &&
                         acc.levels[static_cast<size_t>(home)].kind == arch::LevelKind::L2;
      so.cost.home[t] = in_l2 && hw->l2 >= 0 ? hw->l2 : hw->dram;
    }
    if (so.cost.mac_rate <= 0) {
      r.reason = "the array has no " + std::string(nameOf(p.input_dtype)) + " MACs";
      return r;
    }
    if (so.budget <= 0) {
      // The whole space is a promise to evaluate every candidate: refuse one that would take
      // hours (and more memory than the machine has) instead of hanging.
      const double space = nest::spaceSize(p.loops, *hw, df.nest);
      if (space > kMaxExhaustive) {
        throw ConfigError({"", 0, 0, "--budget"},
                          "0 asks for the whole space, and " + p.loops.describe() + " has " +
                              std::to_string(static_cast<int64_t>(std::min(space, 9e18))) +
                              " candidates (at most " +
                              std::to_string(static_cast<int64_t>(kMaxExhaustive)) +
                              " are searched whole); give a budget, e.g. --budget 200000");
      }
    }
    const bool systolic = acc.array.kind == arch::ArrayKind::Systolic;
    // A convolution on a systolic array is searched in two views; they share the budget.
    const bool two_views = systolic && df.gemm_view && !p.loops.gemm;
    if (two_views && so.budget > 0) so.budget = std::max<int64_t>(1, so.budget / 2);
    nest::SearchResult s = nest::search(p.loops, *hw, df.nest, so);
    nest::Problem loops = p.loops;
    std::vector<nest::Problem> views{p.loops};
    if (systolic && df.gemm_view) {
      // A systolic array may also run the op as the GEMM Gemmini's hardware im2col presents (a
      // convolution's window flattened into k, so all rows fill); that view starts from the
      // mapping gemmini-auto picks. The better of the two views wins.
      Problem gemm = p;
      gemm.loops = gemmView(p);
      views.push_back(gemm.loops);
      nest::SearchOptions go = so;
      const MapResult seed = makeGemminiAutoMapper(o_)->map(gemm, acc, df, constraints);
      if (seed.ok) {
        if (auto m = tileAsNest(seed.mapping, gemm, *hw, df)) go.seeds.push_back(*m);
      }
      nest::SearchResult g = nest::search(gemm.loops, *hw, df.nest, go);
      if (g.ok && (!s.ok || nest::preferred(g.cost, s.cost, *objective, so.tolerance))) {
        g.space += s.space;
        g.evaluated += s.evaluated;
        s = g;
        loops = gemm.loops;
      }
    }
    if (!s.ok) {
      r.reason = s.reason;
      return r;
    }
    r.ok = true;
    Mapping& m = r.mapping;
    m.dataflow = df.name;
    m.mapper = "search";
    m.array_rows = acc.array.rows;
    m.array_cols = acc.array.cols;
    m.tile_m = s.mapping.tile(hw->local(), nest::Dim::P, hw->array());
    m.tile_n = s.mapping.tile(hw->local(), nest::Dim::K, hw->array());
    m.tile_k = s.mapping.tile(hw->local(), nest::Dim::C, hw->array());
    m.double_buffered = s.mapping.double_buffered;
    m.has_nest = true;
    m.nest = s.mapping;
    m.loops = loops;
    m.hw = hw;
    m.space = s.space;
    m.evaluated = s.evaluated;
    m.bound = bestBound(views, *hw, df.nest, so.cost.mac_rate, s.cost.lower_bound);
    m.gap = m.bound.gap(s.cost.cycles);
    return r;
  }

  MapperOptions o_;
  mutable std::mutex mu_;
  mutable std::map<std::string, MapResult> cache_;
};

}  // namespace

std::unique_ptr<Mapper> makeSearchMapper(const MapperOptions& options) {
  return std::make_unique<SearchMapper>(options);
}

}  // namespace tessel::dataflows
