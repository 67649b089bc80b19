#include "dataflows/nest/cost.h"

#include "dataflows/nest/small_vector.h"

#include <algorithm>
#include <cmath>

namespace tessel::dataflows::nest {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct Loop {
  Dim d = Dim::G;
  int64_t f = 1;
  int level = 0;
  bool spatial = false;
};

// How the spatial loops above a cut count: every PE's copy (All), or one read per distinct
// value when the NoC multicasts inputs / reduces partial sums (Collapse).
enum class Space : uint8_t { All, Collapse };

class Nest {
 public:
  Nest(const Problem& p, const Mapping& m, const Hardware& hw) : p_(p), m_(m), hw_(hw) {
    for (size_t l = 0; l < m.levels.size(); ++l) {
      for (Dim d : m.levels[l].order) {
        if (m.levels[l].factor[at(d)] > 1) loops_.push_back({d, m.levels[l].factor[at(d)], int(l), false});
      }
      if (static_cast<int>(l) == hw.local()) {
        for (Dim d : kAllDims) {
          if (m.rows[at(d)] > 1) loops_.push_back({d, m.rows[at(d)], int(l), true});
        }
        for (Dim d : kAllDims) {
          if (m.cols[at(d)] > 1) loops_.push_back({d, m.cols[at(d)], int(l), true});
        }
      }
    }
  }

  size_t size() const { return loops_.size(); }

  // Loops above the tile of `level`: the spatial ones count above the PEs only.
  size_t cut(int level) const {
    size_t c = 0;
    for (const Loop& x : loops_) {
      if (x.level < level || (x.spatial && level > hw_.local())) ++c;
    }
    return c;
  }

  // Elements of tensor t moved across a cut, summed over every time the tile below it changes.
  // With `reuse`, trailing loops the tensor does not depend on leave the tile in place; for the
  // input, the innermost sliding loop (p, q, r, s) only brings in the new rows (halo reuse).
  double volume(Operand t, size_t cut, bool reuse, Space space) const {
    int jstar = -1;
    for (size_t i = 0; i < cut; ++i) {
      if (!loops_[i].spatial && Problem::relevant(t, loops_[i].d)) jstar = static_cast<int>(i);
    }
    const bool sliding = t == Operand::Input && jstar >= 0 && isWindow(loops_[size_t(jstar)].d);
    const bool halo = reuse && sliding;
    Factors g = kOnes;  // per dim: the extent one enumerated position covers
    for (size_t i = 0; i < loops_.size(); ++i) {
      const Loop& x = loops_[i];
      bool enumerated = true;
      if (i >= cut) {
        enumerated = false;
      } else if (x.spatial) {
        // A multicast feeds all PEs that share a value; for the input that includes the PEs
        // whose windows overlap (Eyeriss' diagonal reuse): count the union of their rows.
        enumerated = space == Space::All ||
                     (Problem::relevant(t, x.d) && !(t == Operand::Input && isWindow(x.d)));
      } else if (reuse) {
        enumerated = static_cast<int>(i) <= jstar && !(halo && static_cast<int>(i) == jstar);
      }
      if (!enumerated) g[at(x.d)] *= x.f;
    }
    double v = 1;
    for (Dim d : kAllDims) {
      if (t == Operand::Input && isWindow(d)) continue;
      const int64_t e = p_.of(d);
      v *= Problem::relevant(t, d) ? static_cast<double>(e)
                                   : static_cast<double>(ceilDiv(e, std::min(e, g[at(d)])));
    }
    if (t == Operand::Input) {
      v *= windowSum(Dim::P, Dim::R, g, true) * windowSum(Dim::Q, Dim::S, g, false);
    }
    return v;
  }

  // Distinct tiles of the level below a cut over time, one PE's view (spatial loops excluded).
  double fills(Operand t, size_t cut) const {
    int jstar = -1;
    for (size_t i = 0; i < cut; ++i) {
      if (!loops_[i].spatial && Problem::relevant(t, loops_[i].d)) jstar = static_cast<int>(i);
    }
    Factors g = kOnes;
    for (size_t i = 0; i < loops_.size(); ++i) {
      const Loop& x = loops_[i];
      if (i >= cut || x.spatial || static_cast<int>(i) > jstar) g[at(x.d)] *= x.f;
    }
    double n = 1;
    for (Dim d : kAllDims) n *= static_cast<double>(ceilDiv(p_.of(d), std::min(p_.of(d), g[at(d)])));
    return n;
  }

 private:
  static bool isWindow(Dim d) { return d == Dim::P || d == Dim::Q || d == Dim::R || d == Dim::S; }

  // Sum over the tiles of (out, win) at granularity g of the input rows (or columns) each needs.
  double windowSum(Dim out, Dim win, const Factors& g, bool rows) const {
    double sum = 0;
    for (const auto& [po, no] : pieces(p_.of(out), g[at(out)])) {
      for (const auto& [pw, nw] : pieces(p_.of(win), g[at(win)])) {
        const int64_t span = rows ? p_.inputRows(po, pw) : p_.inputCols(po, pw);
        sum += static_cast<double>(no) * static_cast<double>(nw) * static_cast<double>(span);
      }
    }
    return sum;
  }

  // The tiles of an extent at granularity g: (size, count) for the full ones and the last.
  static std::vector<std::pair<int64_t, int64_t>> pieces(int64_t e, int64_t g) {
    g = std::min(g, e);
    std::vector<std::pair<int64_t, int64_t>> v;
    if (e / g > 0) v.emplace_back(g, e / g);
    if (e % g > 0) v.emplace_back(e % g, 1);
    return v;
  }

  const Problem& p_;
  const Mapping& m_;
  const Hardware& hw_;
  SmallVector<Loop, 6 * kDims + 2 * kDims> loops_;
};

// Array steps along one dim: the nested tiles of each level, down to an array tile spread over
// its PEs (spatial factor s, each PE running t steps): the longest PE takes min(t, elements).
// `e` elements starting at level `from` (1 = below DRAM: the whole extent; local: one tile).
double stepsAlong(const Mapping& m, const Hardware& hw, Dim d, int64_t e, int from) {
  SmallVector<int64_t, 8> sizes;
  for (int l = from; l <= hw.local(); ++l) sizes.push_back(m.tile(l, d, hw.local()));
  const int64_t t = m.tile(hw.pe(), d, hw.local());
  sizes.push_back(t * m.spatial(d));
  // steps(e, i): e elements inside a tile of level i (sizes[i] the child tile size).
  auto steps = [&](auto&& self, int64_t x, size_t i) -> double {
    if (i == sizes.size()) return static_cast<double>(std::min(t, x));
    const int64_t child = sizes[i];
    if (x <= child) return self(self, x, i + 1);
    const int64_t full = x / child, rem = x % child;
    return static_cast<double>(full) * self(self, child, i + 1) + (rem ? self(self, rem, i + 1) : 0.0);
  };
  return steps(steps, e, 0);
}

// The local tiles of a mapping, grouped by shape: along each dim a tile is full or the
// remainder, so there are at most 2^dims classes (one when every factor divides).
struct TileClass {
  Factors size = kOnes;
  double count = 1;
};

SmallVector<TileClass, 16> tileClasses(const Problem& p, const Mapping& m, const Hardware& hw) {
  SmallVector<TileClass, 16> classes;
  classes.push_back(TileClass{});
  for (Dim d : kAllDims) {
    const int64_t e = p.of(d), g = std::min(e, m.tile(hw.local(), d, hw.local()));
    const int64_t full = e / g, rem = e % g;
    const size_t n = classes.size();
    for (size_t i = 0; i < n; ++i) {
      if (rem > 0) {
        if (classes.size() == classes.capacity()) return {};  // too many shapes: caller averages
        TileClass r = classes[i];
        r.size[at(d)] = rem;
        classes.push_back(r);
      }
      classes[i].size[at(d)] = g;
      classes[i].count *= static_cast<double>(full);
    }
  }
  return classes;
}

double sizeOf(DType t) { return static_cast<double>(tessel::bytesOf(t)); }

}  // namespace

double Cost::dramBytes() const {
  if (reads.empty()) return 0;
  return reads[0][0] + reads[0][1] + reads[0][2] + writes[0][0] + writes[0][1] + writes[0][2];
}

// Capacity: each level's kept tiles (two of each when double-buffered on chip) within its pools.
std::string checkCapacity(const Problem& p, const Mapping& m, const Hardware& hw) {
  for (int l = 1; l < static_cast<int>(hw.levels.size()); ++l) {
    const Level& lv = hw.levels[size_t(l)];
    std::array<double, kTensors> pool{};
    const Factors tile = m.tileAt(l, hw.local());
    const double copies = m.double_buffered && !lv.per_pe && !lv.off_chip ? 2.0 : 1.0;
    for (int t = 0; t < kTensors; ++t) {
      if (!m.levels[size_t(l)].keeps[size_t(t)]) continue;
      const auto x = static_cast<Operand>(t);
      const DType dt = x == Operand::Input    ? p.input_dtype
                       : x == Operand::Weight ? p.weight_dtype
                                              : (lv.off_chip ? p.output_dtype : hw.accum_dtype);
      pool[size_t(lv.pool_of[size_t(t)])] += copies * p.footprint(x, tile) * sizeOf(dt);
    }
    for (size_t k = 0; k < kTensors; ++k) {
      if (lv.pool_bytes[k] >= 0 && pool[k] > lv.pool_bytes[k]) {
        return lv.name + " needs " + std::to_string(static_cast<int64_t>(pool[k])) +
               " B for its tiles, has " + std::to_string(static_cast<int64_t>(lv.pool_bytes[k]));
      }
    }
  }
  return "";
}

namespace {

// Double buffering hides a tile's transfers behind a tile's compute, not behind the whole op's:
// a short remainder tile next to a long transfer still waits. Per tile class (full or remainder
// along each dim), each tensor's off-chip time is shared among the tiles by its tile's size, and
// the tile takes the longest of these bounds (the SystemC engine, which runs the tiles as
// commands, showed each one binding somewhere):
//  - work: the array (or the local ports, or the NoC) on the tile;
//  - throughput: every transfer's time, loads and stores, on average per tile;
//  - bursts: a tensor is refilled at a fraction f of the tiles and then moves its whole tile
//    before the tile may start (a store, in the tile after, ahead of the next loads). Loops
//    nest, so the tiles that refill a rarely refilled tensor refill the often refilled ones
//    too: sorted by f1 >= f2 >= f3, a share f_j - f_j+1 of the tiles moves the first j
//    tensors. And two buffer halves bound how far loads run ahead: a half is
//    refilled only once the compute that read it is done, so one half's cycle (its transfer,
//    the request round trip, its compute) spans two tiles: (move + latency + work) / 2;
//  - outputs: an output half cycles through its residency's computes (1/f tiles), the
//    pipeline's tail (the last results leaving the array), its store and, when partial sums
//    come back, their reload and round trip, over two residencies:
//    (work + f (tail + store [+ reload + latency])) / 2.
// `rest` is the off-chip time left once the first tile's loads and the last tile's store are
// taken out (the prologue and the epilogue); it overlaps the first n - 1 tiles' work, and the
// last tile's work waits for its own operands, alone.
// Off-chip level l's transfer time: each tensor's bytes at the rate its requests stream at.
double levelTime(const Hardware& hw, const Cost& c, int l) {
  double time = 0;
  for (size_t t = 0; t < kTensors; ++t) {
    const double bytes = c.reads[size_t(l)][t] + c.writes[size_t(l)][t];
    const double rate = offchipRate(hw, l, c.request_bytes[t]);
    if (bytes > 0 && rate > 0) time += bytes / rate;
  }
  return time;
}

double pingPong(double work, double move, double latency) {
  return std::max({work, move, (move + latency + work) / 2});
}

double overlapped(const Problem& p, const Mapping& m, const Hardware& hw, const Cost& c,
                  double busy, double tiles, double rest, const CostOptions& o,
                  const std::array<double, kTensors>& fills) {
  if (o.ideal_memory || c.offchip <= 0) return busy;
  const auto classes = tileClasses(p, m, hw);
  if (classes.empty()) {  // too many tile shapes: the average tile
    return std::max({tiles * pingPong(busy / tiles, rest / tiles, hw.offchip_latency), busy, rest});
  }
  const double scale = rest / c.offchip;
  // The binding off-chip level's time, per tensor.
  int bind = 0;
  double worst = -1;
  for (int l = 0; l < hw.local(); ++l) {
    const double time = levelTime(hw, c, l);
    if (time > worst) worst = time, bind = l;
  }
  std::array<double, kTensors> off{}, total_fp{};
  for (size_t t = 0; t < kTensors; ++t) {
    const double rate = offchipRate(hw, bind, c.request_bytes[t]);
    off[t] = rate > 0 ? scale * (c.reads[size_t(bind)][t] + c.writes[size_t(bind)][t]) / rate : 0;
    for (const TileClass& k : classes) total_fp[t] += k.count * p.footprint(static_cast<Operand>(t), k.size);
  }
  const double overhead = (c.array - c.steps / o.mac_rate) / tiles;  // skew and swaps per tile
  // The transfers left (the tiles after the first's loads, the stores before the last's) overlap
  // the first n - 1 tiles' work; the last tile's work waits for its own operands, alone.
  const double spread = tiles > 1 ? tiles / (tiles - 1) : 1.0;
  // How often tiles refill each tensor, and the tensors by that frequency. A store drains while
  // the next tiles load, so a tile that stores moves its outputs too.
  std::array<double, kTensors> f{};
  for (size_t t = 0; t < kTensors; ++t) f[t] = tiles > 0 ? std::clamp(fills[t] / tiles, 0.0, 1.0) : 1.0;
  std::array<size_t, kTensors> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return f[x] > f[y]; });
  double sum = 0;
  for (const TileClass& k : classes) {
    const double steps = tileSteps(m, hw, k.size);
    const double share = c.steps > 0 ? steps / c.steps : 0;
    const double work = std::max({steps / o.mac_rate + overhead, c.local * share, c.noc * share});
    // Each tensor's transfer time per refill in a tile of this class.
    std::array<double, kTensors> fill_time{};
    double average = 0;
    for (size_t t = 0; t < kTensors; ++t) {
      const double per_tile =
          total_fp[t] > 0 ? spread * off[t] * p.footprint(static_cast<Operand>(t), k.size) / total_fp[t] : 0;
      average += per_tile;
      fill_time[t] = f[t] > 0 ? per_tile / f[t] : 0;
    }
    double load = 0, loads = (1 - f[order[0]]) * work;
    for (size_t j = 0; j < kTensors; ++j) {
      load += fill_time[order[j]];
      const double next = j + 1 < kTensors ? f[order[j + 1]] : 0.0;
      loads += (f[order[j]] - next) * pingPong(work, load, hw.offchip_latency);
    }
    const bool reloads = c.reads[size_t(bind)][2] > 0;
    const double outputs =
        (work + f[2] * (c.pipeline_tail + fill_time[2] + (reloads ? hw.offchip_latency : 0))) / 2;
    const double per_tile = std::max({loads, outputs, average});
    sum += k.count * per_tile;
  }
  if (tiles > 1) sum = sum / spread + busy / tiles;
  return std::max({sum, busy, rest});
}

}  // namespace

PerTensor requestBytes(const Problem& p, const Mapping& m, const Hardware& hw) {
  PerTensor r{};
  const Dim run[kTensors] = {Dim::C, Dim::K, Dim::K};
  const DType dt[kTensors] = {p.input_dtype, p.weight_dtype, p.output_dtype};
  const int local = hw.local();
  for (size_t t = 0; t < kTensors; ++t) {
    r[t] = hw.dma_request;
    if (!hw.dma_row_requests) continue;
    const Dim d = run[t];
    const auto elements = std::min(p.of(d), m.tile(local, d, local));
    const double bytes = static_cast<double>(elements) * sizeOf(dt[t]);
    r[t] = bytes / std::ceil(bytes / hw.dma_request);
  }
  return r;
}

double offchipRate(const Hardware& hw, int level, double request_bytes) {
  const Level& lv = hw.levels[size_t(level)];
  double rate = lv.bandwidth[0];
  if (hw.dma_inflight > 0 && lv.latency > 0 && request_bytes > 0) {
    const double window = hw.dma_inflight * request_bytes / lv.latency;
    rate = rate > 0 ? std::min(rate, window) : window;
  }
  return rate;
}

double tileSteps(const Mapping& m, const Hardware& hw, const Factors& size) {
  double steps = 1;
  for (Dim d : kAllDims) steps *= stepsAlong(m, hw, d, size[at(d)], hw.local());
  return steps;
}

Cost evaluate(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o) {
  Cost c;
  c.reason = checkCapacity(p, m, hw);
  if (!c.reason.empty()) return c;
  c.ok = true;
  c.request_bytes = requestBytes(p, m, hw);
  const Nest nest(p, m, hw);
  const size_t nl = hw.levels.size();
  const int pe = hw.pe(), local = hw.local();
  c.reads.assign(nl, PerTensor{});
  c.writes.assign(nl, PerTensor{});
  c.macs = p.macs();
  const double out_total = p.elements(Operand::Output);

  for (int ti = 0; ti < kTensors; ++ti) {
    const auto t = static_cast<Operand>(ti);
    const auto ts = static_cast<size_t>(ti);
    std::vector<int> chain{o.home[ts]};
    for (int l = o.home[ts] + 1; l < static_cast<int>(nl); ++l) {
      if (m.levels[size_t(l)].keeps[ts]) chain.push_back(l);
    }
    chain.push_back(static_cast<int>(nl));  // the MACs
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
      const int par = chain[i], ch = chain[i + 1];
      const bool mac = ch == static_cast<int>(nl);
      const size_t cut = mac ? nest.size() : nest.cut(ch);
      const bool crosses = par <= local && (mac || ch == pe);
      const bool share = t == Operand::Output ? hw.reduction : hw.multicast;
      const Space space = crosses && share ? Space::Collapse : Space::All;
      // EveryTile re-loads into the local memory (an L2 above serves them); a tensor loaded
      // Once never moves again on any hop down to the local memory.
      Mapping::Reload how = t != Operand::Output && ch <= local ? m.reload[ts] : Mapping::Reload::Nest;
      if (how == Mapping::Reload::EveryTile && ch != local) how = Mapping::Reload::Nest;
      const bool reuse = !mac && how != Mapping::Reload::EveryTile;
      double u = nest.volume(t, cut, reuse, space);
      double dlv = crosses ? nest.volume(t, cut, reuse, Space::All) : u;
      if (how == Mapping::Reload::Once) u = dlv = p.elements(t);
      const Level& lp = hw.levels[size_t(par)];
      if (t != Operand::Output) {
        double b = sizeOf(t == Operand::Input ? p.input_dtype : p.weight_dtype);
        if (t == Operand::Input && lp.off_chip && !crosses) b *= p.im2col_unique;
        c.reads[size_t(par)][ts] += u * b;
        if (!mac) c.writes[size_t(ch)][ts] += dlv * b;
        if (crosses) c.noc_bytes[ts] += u * b, c.delivered[ts] += dlv * b;
        continue;
      }
      // Partial sums: every update lands in the parent; each one after the first of a parent
      // residency re-reads what is there (accumulate, or a partial re-entering the child).
      const double first = par == o.home[ts] ? out_total : nest.volume(t, nest.cut(par), true, Space::All);
      const double again = std::max(0.0, u - first);
      const double acc_b = sizeOf(hw.accum_dtype);
      if (lp.off_chip) {
        c.writes[size_t(par)][ts] += first * sizeOf(p.output_dtype) + again * acc_b;
      } else {
        c.writes[size_t(par)][ts] += u * acc_b;
      }
      c.reads[size_t(par)][ts] += again * acc_b;
      if (!mac) {
        c.reads[size_t(ch)][ts] += dlv * acc_b;
        c.writes[size_t(ch)][ts] += again * acc_b;
      }
      if (crosses) c.noc_bytes[ts] += u * acc_b, c.delivered[ts] += dlv * acc_b;
    }
  }

  // Time. The array: steps (partial tiles leave PEs idle), plus on a systolic array what the PE
  // grid measures (tile_timing.h): the stationary tensor swaps S times, each swap streaming
  // m = steps / S on average; back to back a swap issues every period(m) and the last one takes
  // the whole tile latency, so the op takes (S-1)·period + R + m + skew + 1
  //   = steps + (S-1)·(period - m) + R + skew + 1.
  // Local tiles follow each other without draining the pipeline: the first preload, the skew
  // and the edge register are paid once per op, not once per tile.
  c.steps = 1;
  for (Dim d : kAllDims) c.steps *= stepsAlong(m, hw, d, p.of(d), 1);
  const double pes = static_cast<double>(hw.pes());
  c.compute = static_cast<double>(c.macs) / (pes * o.mac_rate);
  c.array = c.steps / o.mac_rate;
  double tiles = 1;
  for (Dim d : kAllDims) {
    tiles *= static_cast<double>(ceilDiv(p.of(d), std::min(p.of(d), m.tile(local, d, local))));
  }
  c.tiles = tiles;
  if (hw.systolic) {
    int stationary = -1;
    for (int t = 0; t < kTensors; ++t) {
      if (m.levels[size_t(pe)].keeps[size_t(t)]) stationary = t;
    }
    c.swaps = tiles;
    double preload = 0;
    if (stationary >= 0) {
      c.swaps = std::max(tiles, nest.fills(static_cast<Operand>(stationary), nest.cut(pe)));
      const double stream = c.array / c.swaps;
      const double rows = hw.rows;
      // period - m: double-buffered, max(m, R) - m; single, (m + R - 1) - m.
      c.swap_exposed = hw.weight_double_buffered ? std::max(0.0, rows - stream) : rows - 1;
      preload = rows;
    }
    c.pipeline_tail = hw.fill_drain + 1;
    c.run_start = preload - c.swap_exposed;
    c.array += c.swaps * c.swap_exposed + c.run_start + c.pipeline_tail;
  } else {
    c.tile_overhead = hw.fill_drain;
    c.array += tiles * hw.fill_drain;
  }
  // Ports: each local pool and the NoC move their bytes at their bandwidth.
  const Level& ll = hw.levels[size_t(local)];
  std::array<double, kTensors> pool{};
  for (size_t t = 0; t < kTensors; ++t) {
    if (ll.bandwidth[t] > 0) {
      pool[size_t(ll.pool_of[t])] += (c.reads[size_t(local)][t] + c.writes[size_t(local)][t]) / ll.bandwidth[t];
    }
  }
  c.local = *std::max_element(pool.begin(), pool.end());
  const double noc_total = c.noc_bytes[0] + c.noc_bytes[1] + c.noc_bytes[2];
  c.noc = hw.noc_bandwidth > 0 ? noc_total / hw.noc_bandwidth : 0;
  double prologue = 0, epilogue = 0, edges = 0;
  if (!o.ideal_memory) {
    for (int l = 0; l < local; ++l) c.offchip = std::max(c.offchip, levelTime(hw, c, l));
    // The first tile's loads cannot hide behind compute, nor the last tile's store; they take
    // the whole path (DRAM, and the L2 when there is one) at the rate their requests stream.
    const Factors tile = m.tileAt(local, local);
    auto bw = [&](Operand t) {
      const double r = offchipRate(hw, hw.dram, c.request_bytes[at(t)]);
      return r > 0 ? r : 1e300;
    };
    const double loads =
        p.footprint(Operand::Input, tile) * sizeOf(p.input_dtype) * p.im2col_unique / bw(Operand::Input) +
        p.footprint(Operand::Weight, tile) * sizeOf(p.weight_dtype) / bw(Operand::Weight);
    prologue = hw.offchip_latency + loads;
    epilogue = p.footprint(Operand::Output, tile) * sizeOf(p.output_dtype) / bw(Operand::Output);
    // Those transfers are the first and last of the off-chip stream: the rest overlaps compute.
    edges = std::min(c.offchip, loads + epilogue);
  }
  const double busy = std::max({c.array, c.local, c.noc});
  std::array<double, kTensors> fills{};
  for (int t = 0; t < kTensors; ++t) {
    const auto x = static_cast<Operand>(t);
    fills[size_t(t)] = nest.fills(x, nest.cut(local));
    if (x == Operand::Output) continue;
    if (m.reload[size_t(t)] == Mapping::Reload::EveryTile) fills[size_t(t)] = tiles;
    if (m.reload[size_t(t)] == Mapping::Reload::Once) {  // each distinct tile once
      double distinct = 1;
      for (Dim d : kAllDims) {
        if (Problem::relevant(x, d)) {
          distinct *= static_cast<double>(ceilDiv(p.of(d), std::min(p.of(d), m.tile(local, d, local))));
        }
      }
      fills[size_t(t)] = distinct;
    }
  }
  c.cycles = m.double_buffered
                 ? overlapped(p, m, hw, c, busy, tiles, c.offchip - edges, o, fills) + prologue + epilogue
                               : busy + c.offchip + tiles * (o.ideal_memory ? 0 : hw.offchip_latency);
  c.utilization = c.cycles > 0 ? static_cast<double>(c.macs) / (c.cycles * pes * o.mac_rate) : 0;

  // Energy: every access at its level's price, every NoC byte, every MAC.
  c.level_energy.assign(nl, 0);
  for (size_t l = 0; l < nl; ++l) {
    for (size_t t = 0; t < kTensors; ++t) {
      const double e = c.reads[l][t] * hw.levels[l].read_pj[t] + c.writes[l][t] * hw.levels[l].write_pj[t];
      c.level_energy[l] += e;
      c.tensor_energy[t] += e;
    }
  }
  // The innermost holder feeding the MACs from a PE register file: one read per operand per MAC
  // is already in reads[pe]. The NoC: a bus pays once per distinct value it carries; neighbour
  // links and a mesh once per PE the value reaches (one link each). Partial sums add up over
  // the links between neighbouring PEs on every kind: one hop per PE that contributes.
  for (size_t t = 0; t < kTensors; ++t) {
    const bool per_transfer = hw.noc_bus && static_cast<Operand>(t) != Operand::Output;
    const double e = (per_transfer ? c.noc_bytes[t] : c.delivered[t]) * hw.noc_pj;
    c.tensor_energy[t] += e;
    c.noc_energy += e;
  }
  c.mac_energy = static_cast<double>(c.macs) * hw.mac_pj;
  c.energy = c.noc_energy + c.mac_energy;
  for (double e : c.level_energy) c.energy += e;

  double unique = 0;
  for (size_t t = 0; t < kTensors; ++t) {
    if (o.home[t] == hw.dram) {
      const auto x = static_cast<Operand>(t);
      const DType dt = x == Operand::Input ? p.input_dtype : x == Operand::Weight ? p.weight_dtype : p.output_dtype;
      unique += p.elements(x) * sizeOf(dt) * (x == Operand::Input ? p.im2col_unique : 1.0);
    }
  }
  const double dram_bw = hw.levels[size_t(hw.dram)].bandwidth[0];
  c.lower_bound = std::max(c.compute, o.ideal_memory || dram_bw <= 0 ? 0.0 : unique / dram_bw);
  return c;
}

}  // namespace tessel::dataflows::nest
