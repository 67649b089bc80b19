#include "dataflows/nest/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <iterator>
#include <thread>

#include "dataflows/nest/baselines.h"
#include "dataflows/nest/candidates.h"

namespace tessel::dataflows::nest {

std::optional<Objective> parseObjective(std::string_view s) {
  if (s == "latency") return Objective::Latency;
  if (s == "energy") return Objective::Energy;
  if (s == "edp") return Objective::Edp;
  return std::nullopt;
}

std::string_view nameOf(Objective o) {
  switch (o) {
    case Objective::Latency:
      return "latency";
    case Objective::Energy:
      return "energy";
    case Objective::Edp:
      return "edp";
  }
  return "?";
}

double score(const Cost& c, Objective o) {
  if (!c.ok) return std::numeric_limits<double>::infinity();
  switch (o) {
    case Objective::Latency:
      // Near-ties in time go to the cheaper mapping: each MAC's worth of energy spent beyond the
      // MACs' own costs 1e-4 of the cycles, so tripling an op's traffic energy is worth a few
      // hundredths of a percent of its latency, never more. (Compute-bound layers have flat
      // latency plateaus on which a pure latency order took 8x the weight traffic for 1e-4.)
      if (c.mac_energy > 0) return c.cycles * (1 + 1e-4 * c.energy / c.mac_energy);
      return c.cycles * (1 + 1e-9 * c.energy / std::max(1.0, c.cycles * 1e3));
    case Objective::Energy:
      return c.energy * (1 + 1e-9 * c.cycles / std::max(1.0, c.energy * 1e3));
    case Objective::Edp:
      return c.energy * c.cycles;
  }
  return c.cycles;
}

namespace {

// Cycles within this relative distance are equal: the same schedule summed in another order.
constexpr double kRounding = 1e-9;

// a before b under objective o; under latency, `band` is the slowest cycles still in the race.
bool prefer(double ca, double ea, double cb, double eb, Objective o, double band) {
  switch (o) {
    case Objective::Latency:
      if ((ca <= band) != (cb <= band)) return ca <= band;
      return ea < eb || (ea == eb && ca < cb);
    case Objective::Energy:
      return ea < eb || (ea == eb && ca < cb);
    case Objective::Edp:
      return ea * ca < eb * cb || (ea * ca == eb * cb && ca < cb);
  }
  return false;
}

}  // namespace

bool preferred(const Cost& a, const Cost& b, Objective o, double tolerance) {
  if (a.ok != b.ok) return a.ok;
  if (o == Objective::Latency && tolerance <= 0) return score(a, o) < score(b, o);
  return prefer(a.cycles, a.energy, b.cycles, b.energy, o, std::min(a.cycles, b.cycles) * (1 + tolerance + kRounding));
}

namespace {

struct Scored {
  double score = std::numeric_limits<double>::infinity();
  size_t index = 0;
  double cycles = 0, energy = 0;
  bool ok = false;
  bool operator<(const Scored& o) const {
    return score < o.score || (score == o.score && index < o.index);
  }
};

// The evaluated mappings no other evaluated one beats in both cycles and energy (and, under
// latency, that are still within the tolerance of the fastest): the search returns one of
// these, chosen by the objective's rule (`preferred`), so nothing it returns is dominated.
class Front {
 public:
  Front(Objective o, double tolerance) : o_(o), tolerance_(tolerance) {}

  void offer(const Scored& s, const Mapping& m) {
    if (!s.ok) return;
    if (banded() && s.cycles > fastest_ * (1 + tolerance_ + kRounding)) return;
    for (const Point& q : points_) {
      if (q.cycles <= s.cycles && q.energy <= s.energy) return;
    }
    fastest_ = std::min(fastest_, s.cycles);
    const double band = fastest_ * (1 + tolerance_ + kRounding);
    points_.erase(std::remove_if(points_.begin(), points_.end(),
                                 [&](const Point& q) {
                                   return (s.cycles <= q.cycles && s.energy <= q.energy) ||
                                          (banded() && q.cycles > band);
                                 }),
                  points_.end());
    points_.push_back({s.cycles, s.energy, s.score, m});
  }

  void offerAll(const std::vector<Scored>& scored, const std::vector<Mapping>& cands) {
    for (const Scored& s : scored) offer(s, cands[s.index]);
  }

  // The objective's choice among the front; nullptr when nothing fit.
  const Mapping* pick() const {
    const Point* best = nullptr;
    for (const Point& q : points_) {
      if (!best || better(q, *best)) best = &q;
    }
    return best ? &best->m : nullptr;
  }

 private:
  struct Point {
    double cycles, energy, score;
    Mapping m;
  };

  // Latency with a tolerance: the band of the fastest, least energy in it. Without one, the
  // walk's own score (the fastest, near-ties to the cheaper; see score()), which no point the
  // front dropped can beat: it grows with both cycles and energy.
  bool banded() const { return o_ == Objective::Latency && tolerance_ > 0; }

  bool better(const Point& a, const Point& b) const {
    if (o_ == Objective::Latency && !banded()) {
      return a.score < b.score || (a.score == b.score && a.cycles < b.cycles);
    }
    return prefer(a.cycles, a.energy, b.cycles, b.energy, o_, fastest_ * (1 + tolerance_ + kRounding));
  }

  Objective o_;
  double tolerance_;
  double fastest_ = std::numeric_limits<double>::infinity();
  std::vector<Point> points_;
};

// Scores candidates on `threads` threads; each thread takes a fixed stride, so results do not
// depend on scheduling.
std::vector<Scored> scoreAll(const std::vector<Mapping>& cands, const Problem& p,
                             const Hardware& hw, const SearchOptions& o, int threads) {
  std::vector<Scored> out(cands.size());
  auto work = [&](size_t first, size_t step) {
    for (size_t i = first; i < cands.size(); i += step) {
      const Cost c = evaluate(p, cands[i], hw, o.cost);
      out[i] = {score(c, o.objective), i, c.cycles, c.energy, c.ok};
    }
  };
  // A thread costs about as much to start as a few hundred evaluations: small batches stay on one.
  const size_t n = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(threads), cands.size() / 128 + 1));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < n; ++t) pool.emplace_back(work, t, n);
  work(0, n);
  for (auto& th : pool) th.join();
  return out;
}

}  // namespace

namespace {

// Why not even the smallest tile fits: one element of every dim below DRAM, no unrolling, each
// level keeping what it can hold; checkCapacity names the level, what it has and what it needs.
std::string smallestTileMisfit(const Problem& p, const Hardware& hw) {
  Mapping m;
  m.levels.resize(hw.levels.size());
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (size_t t = 0; t < kTensors; ++t) m.levels[l].keeps[t] = hw.levels[l].can_hold[t];
  }
  for (Dim d : kAllDims) {
    m.levels[0].factor[at(d)] = p.of(d);
    if (p.of(d) > 1) m.levels[0].order.push_back(d);
  }
  const std::string why = checkCapacity(p, m, hw);
  return "no tile of the array fits the local memories and register files" +
         (why.empty() ? std::string() : ": even the smallest tile (1 of every dim): " + why);
}

}  // namespace

// One thread's candidate lists, kept between searches (see enumerateTilings).
struct SearchBuffers {
  std::vector<Mapping> tilings, more, stage1, stage2;
};

SearchResult search(const Problem& p, const Hardware& hw, const Constraints& c,
                    const SearchOptions& o) {
  SearchResult r;
  const int threads = o.threads > 0 ? o.threads
                                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const bool exhaustive = o.budget <= 0;
  const int64_t budget = exhaustive ? std::numeric_limits<int64_t>::max() / 4 : o.budget;
  const size_t per = 3;
  const size_t room = static_cast<size_t>(std::max<int64_t>(1, budget * 2 / 5 / static_cast<int64_t>(per)));
  // Capacities prune most tilings, so a target of `budget` often yields far fewer: offer each
  // dim more sizes while stage 1 has room for them.
  int64_t target = std::max<int64_t>(64, o.budget);
  // The big candidate lists live in per-thread buffers reused from one search to the next.
  thread_local SearchBuffers buffers;
  std::vector<Mapping>& tilings = buffers.tilings;
  enumerateTilings(p, hw, c, o.whole_rows, exhaustive, target, tilings);
  for (int grow = 0; !exhaustive && grow < 1 && tilings.size() < room / 2; ++grow) {
    target *= 4;
    std::vector<Mapping>& more = buffers.more;
    enumerateTilings(p, hw, c, o.whole_rows, false, target, more);
    if (more.size() <= tilings.size()) break;
    tilings.swap(more);
  }
  const std::vector<std::vector<Dim>> dram_orders = orderChoices(p, hw, 0);
  r.space = static_cast<int64_t>(std::min(spaceSize(p, hw, c), 4e18));
  // Stage 1: every tiling (a deterministic stride through them when the budget is short) under
  // each tensor's stationary order at the outer levels.
  std::vector<Mapping>& stage1 = buffers.stage1;
  stage1.assign(o.seeds.begin(), o.seeds.end());
  for (Mapping& seed : stage1) conformOrders(seed, c, hw);
  for (Mapping& fold : foldAfterFold(p, hw, c)) stage1.push_back(std::move(fold));
  stage1.reserve(o.seeds.size() + per * std::min(tilings.size(), room + 1));
  const double stride = tilings.size() > room ? static_cast<double>(tilings.size()) / static_cast<double>(room) : 1.0;
  for (double x = 0; static_cast<size_t>(x) < tilings.size(); x += stride) {
    const Mapping& tiling = tilings[static_cast<size_t>(x)];
    if (exhaustive) {
      // Every order of every tiling: the whole space, nothing ranked away.
      for (Mapping& m : allOrders(tiling, p, hw, c, dram_orders)) stage1.push_back(std::move(m));
      continue;
    }
    for (int t = 0; t < kTensors; ++t) {
      stage1.push_back(withOrders(tiling, p, hw, static_cast<Operand>(t), Operand::Output));
      conformOrders(stage1.back(), c, hw);
    }
  }
  Front front(o.objective, o.tolerance);
  std::vector<Scored> s1 = scoreAll(stage1, p, hw, o, threads);
  front.offerAll(s1, stage1);
  r.evaluated = static_cast<int64_t>(stage1.size());
  std::sort(s1.begin(), s1.end());
  if (s1.empty() || !std::isfinite(s1.front().score)) {
    r.reason = tilings.empty() ? smallestTileMisfit(p, hw) : "no candidate fits";
    if (!s1.empty()) r.reason = evaluate(p, stage1[s1.front().index], hw, o.cost).reason;
    return r;
  }
  // Stage 2: the best distinct tilings under every order the outer levels and the PE allow, and
  // with the L2 blocking them.
  std::vector<Mapping>& stage2 = buffers.stage2;
  stage2.clear();
  const int64_t left = std::max<int64_t>(0, budget * 3 / 5 - r.evaluated);
  for (size_t i = 0; i < s1.size() && std::isfinite(s1[i].score); ++i) {
    const Mapping& base = stage1[s1[i].index];
    std::vector<Mapping> more = allOrders(base, p, hw, c, dram_orders);
    for (Mapping& b : l2Blocks(base, p, hw, c)) more.push_back(std::move(b));
    if (static_cast<int64_t>(stage2.size() + more.size()) > left && !stage2.empty()) break;
    stage2.insert(stage2.end(), more.begin(), more.end());
    if (i >= 63) break;
  }
  std::vector<Scored> s2 = scoreAll(stage2, p, hw, o, threads);
  front.offerAll(s2, stage2);
  r.evaluated += static_cast<int64_t>(stage2.size());
  Scored best = s1.front();
  const Mapping* best_m = &stage1[best.index];
  for (const Scored& s : s2) {
    if (s.score < best.score) {
      best = {s.score, 0};
      best_m = &stage2[s.index];
    }
  }
  // Stage 3: from the best distinct starts, walk while anything improves and the budget lasts:
  // one dim's tile through every size it may take, two factors traded, buffering flipped, the
  // L2 blocked, every order.
  std::vector<Mapping> starts{*best_m};
  for (size_t i = 0; i < s1.size() && starts.size() < 32; ++i) {
    if (std::isfinite(s1[i].score) && s1[i].index != best.index) starts.push_back(stage1[s1[i].index]);
  }
  std::vector<Mapping> climbed;
  climbed.reserve(starts.size());
  for (const Mapping& start : starts) {
    if (r.evaluated >= budget) break;
    Mapping cur = start;
    double cur_score = score(evaluate(p, cur, hw, o.cost), o.objective);
    ++r.evaluated;
    // Tile moves until they stop helping; then the orders once; go on while either helps.
    bool orders = false;
    for (int round = 0; round < 24 && r.evaluated < budget; ++round) {
      std::vector<Mapping> moves;
      if (orders) {
        moves = allOrders(cur, p, hw, c, dram_orders);
      } else {
        moves = neighbours(cur, p, hw, c, o.whole_rows);
        std::vector<Mapping> pairs = pairMoves(cur, p, hw, c);
        moves.insert(moves.end(), std::make_move_iterator(pairs.begin()), std::make_move_iterator(pairs.end()));
        std::vector<Mapping> blocks = l2Blocks(cur, p, hw, c);
        moves.insert(moves.end(), std::make_move_iterator(blocks.begin()), std::make_move_iterator(blocks.end()));
      }
      const std::vector<Scored> sc = scoreAll(moves, p, hw, o, threads);
      front.offerAll(sc, moves);
      r.evaluated += static_cast<int64_t>(moves.size());
      const auto it = std::min_element(sc.begin(), sc.end());
      if (it == sc.end() || !(it->score < cur_score)) {
        if (orders) break;
        orders = true;
        continue;
      }
      cur = moves[it->index];
      cur_score = it->score;
      orders = false;
    }
    climbed.push_back(cur);
    if (cur_score < best.score) {
      best = {cur_score, 0};
      best_m = &climbed.back();
    }
  }
  r.ok = true;
  const Mapping* chosen = front.pick();
  r.mapping = chosen ? *chosen : *best_m;
  r.cost = evaluate(p, r.mapping, hw, o.cost);
  r.gap = r.cost.lower_bound > 0 ? r.cost.cycles / r.cost.lower_bound - 1 : 0;
  return r;
}

}  // namespace tessel::dataflows::nest
