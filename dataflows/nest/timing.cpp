#include <algorithm>
#include <cmath>

#include "dataflows/nest/cost_parts.h"
#include "dataflows/nest/sparse.h"

namespace tessel::dataflows::nest {

namespace {

// Array steps along one dim: `e` elements in a tile of level `from` (1 = below DRAM: the whole
// extent; local: one tile). Within a tile of level l, its temporal loop runs its child tiles one
// after another; its fan-out's copies, then (below the last shared level) the array's PEs, take
// one piece each side by side, so the longest piece counts; in a PE every element is a step.
double stepsAlong(const Mapping& m, const Hardware& hw, Dim d, int64_t e, int from) {
  struct Split {
    int64_t child;
    bool parallel;
  };
  if (e <= 1) return static_cast<double>(e);  // one element is one step at every level
  SmallVector<Split, 16> splits;
  const int array = hw.array();
  // below[l]: what one instance of level l + 1 holds along d (Mapping::tile), from the bottom up.
  std::array<int64_t, decltype(m.levels)::capacity() + 1> below;
  below[m.levels.size()] = 1;
  for (size_t l = m.levels.size(); l-- > 0;) {
    below[l] = below[l + 1] * m.levels[l].factor[at(d)] * m.levels[l].spatial[at(d)];
  }
  for (int l = from; l <= array; ++l) {
    const int64_t below_l = (l + 1 <= array ? m.spatial(d) : 1) * below[size_t(l + 1)];
    const int64_t fan = m.levels[size_t(l)].spatial[at(d)];
    const int64_t pes = l == array ? m.spatial(d) : 1;
    splits.push_back({fan * pes * below_l, false});
    if (fan > 1) splits.push_back({pes * below_l, true});
    if (pes > 1) splits.push_back({below_l, true});
  }
  auto steps = [&](auto&& self, int64_t x, size_t i) -> double {
    if (i == splits.size()) return static_cast<double>(x);
    const int64_t child = splits[i].child;
    if (x <= child) return self(self, x, i + 1);
    if (splits[i].parallel) return self(self, child, i + 1);
    const int64_t full = x / child, rem = x % child;
    return static_cast<double>(full) * self(self, child, i + 1) + (rem ? self(self, rem, i + 1) : 0.0);
  };
  return steps(steps, e, 0);
}

// Elements along d the datapath steps through: an accelerated N:M reduction's kept ones.
int64_t keptExtent(const Cost& c, Dim d, int64_t e) {
  if (d != Dim::C || c.keep_m <= 1) return e;
  return (e * c.keep_n + c.keep_m - 1) / c.keep_m;
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
    const int64_t e = p.of(d), g = std::min(e, m.tile(hw.local(), d, hw.array()));
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
//    (work + f (tail + store [+ reload + latency])) / 2, the store and reload at the share of
//    the DMA the other tensors' loads leave them.
// `rest` is the off-chip time left once the first tile's loads and the last tile's store are
// taken out (the prologue and the epilogue, `edge` per tensor); it overlaps the first n - 1
// tiles' work, and the last tile's work waits for its own operands, alone. Each tensor keeps
// what is left of its own transfers: a tensor loaded once has moved whole in the prologue and
// bursts no refill later (one spread over every tensor had a once-loaded input refill a 1/n of
// the tiles, a burst as long as its whole load: a DRAM-bound TPU v1 GEMM 13 % slower than
// executed).

// The level a tensor lives in (DRAM, or the L2 holding a neighbour op's result), and the round
// trip of a request to it.
int homeLevel(const Hardware& hw, const CostOptions& o, size_t t) {
  const int h = o.home[t];
  return h >= 0 && h < hw.local() ? h : hw.dram;
}

double roundTrip(const Hardware& hw, const CostOptions& o, size_t t) {
  return hw.levels[size_t(homeLevel(hw, o, t))].latency;
}

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

// One buffer half's cycle spans two tiles: its transfers, the loads' round trip and its compute.
// `move` is every transfer of the half (a store included), `loads` the part that must come in:
// their requests go out while a store still drains, so the round trip hides behind it.
double pingPong(double work, double move, double latency, double loads) {
  return std::max({work, move, (std::max(move, loads + latency) + work) / 2});
}

double overlapped(const Problem& p, const Mapping& m, const Hardware& hw, const Cost& c,
                  double busy, double tiles, double rest, const CostOptions& o,
                  const std::array<double, kTensors>& fills,
                  const std::array<double, kTensors>& edge) {
  if (o.ideal_memory || c.offchip <= 0) return busy;
  const auto classes = tileClasses(p, m, hw);
  if (classes.empty()) {  // too many tile shapes: the average tile
    const double move = rest / tiles;
    double trip = 0;
    for (size_t t = 0; t < kTensors; ++t) trip = std::max(trip, roundTrip(hw, o, t));
    return std::max({tiles * pingPong(busy / tiles, move, trip, move), busy, rest});
  }
  // The binding off-chip level's time, per tensor.
  int bind = 0;
  double worst = -1;
  for (int l = 0; l < hw.local(); ++l) {
    const double time = levelTime(hw, c, l);
    if (time > worst) worst = time, bind = l;
  }
  std::array<double, kTensors> off{}, total_fp{};
  SmallVector<std::array<double, kTensors>, 16> class_fp;  // each class's tile footprints
  for (const TileClass& k : classes) {
    std::array<double, kTensors> fp{};
    for (size_t t = 0; t < kTensors; ++t) fp[t] = p.footprint(static_cast<Operand>(t), k.size);
    class_fp.push_back(fp);
  }
  double left = 0;
  for (size_t t = 0; t < kTensors; ++t) {
    const double rate = offchipRate(hw, bind, c.request_bytes[t]);
    const double all = rate > 0 ? (c.reads[size_t(bind)][t] + c.writes[size_t(bind)][t]) / rate : 0;
    off[t] = std::max(0.0, all - edge[t]);
    left += off[t];
    for (size_t i = 0; i < classes.size(); ++i) total_fp[t] += classes[i].count * class_fp[i][t];
  }
  for (size_t t = 0; t < kTensors; ++t) off[t] = left > 0 ? off[t] * rest / left : 0;
  const double overhead = (c.array - c.steps / o.mac_rate) / tiles;  // skew and swaps per tile
  // The transfers left (the tiles after the first's loads, the stores before the last's) overlap
  // the first n - 1 tiles' work; the last tile's work waits for its own operands, alone.
  const double spread = tiles > 1 ? tiles / (tiles - 1) : 1.0;
  // How often tiles refill each tensor, and the tensors by that frequency. A store drains while
  // the next tiles load, so a tile that stores moves its outputs too.
  // The prologue made the first fill (the epilogue the last store): the other tiles make the rest.
  std::array<double, kTensors> f{};
  for (size_t t = 0; t < kTensors; ++t) {
    f[t] = tiles > 1 ? std::clamp((fills[t] - 1) / (tiles - 1), 0.0, 1.0) : 1.0;
  }
  std::array<size_t, kTensors> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return f[x] > f[y]; });
  // A class is full or the remainder along each dim: each dim's steps are computed once per size
  // (stepsAlong dominated the cost model when every class recomputed all of them).
  std::array<std::array<int64_t, 2>, kDims> sizes{};
  std::array<std::array<double, 2>, kDims> along{};
  const auto stepsOf = [&](const Factors& size) {
    double steps = 1;
    for (Dim d : kAllDims) {
      const size_t i = at(d);
      size_t j = 0;
      while (j < 2 && sizes[i][j] != 0 && sizes[i][j] != size[i]) ++j;
      if (j == 2) return tileSteps(m, hw, size, &c);  // not a full/remainder class: no table
      if (sizes[i][j] == 0) {
        sizes[i][j] = size[i];
        along[i][j] = stepsAlong(m, hw, d, keptExtent(c, d, size[i]), hw.local());
      }
      steps *= along[i][j];
    }
    return steps * c.step_scale;
  };
  double sum = 0;
  for (size_t ki = 0; ki < classes.size(); ++ki) {
    const TileClass& k = classes[ki];
    const double steps = stepsOf(k.size);
    const double share = c.steps > 0 ? steps / c.steps : 0;
    const double work = std::max({steps / o.mac_rate + overhead, c.local * share, c.noc * share});
    // Each tensor's transfer time per refill in a tile of this class.
    std::array<double, kTensors> fill_time{};
    double average = 0;
    for (size_t t = 0; t < kTensors; ++t) {
      const double per_tile =
          total_fp[t] > 0 ? spread * off[t] * class_fp[ki][t] / total_fp[t] : 0;
      average += per_tile;
      fill_time[t] = f[t] > 0 ? per_tile / f[t] : 0;
    }
    double load = 0, in = 0, trip = 0, loads = (1 - f[order[0]]) * work;
    for (size_t j = 0; j < kTensors; ++j) {
      load += fill_time[order[j]];
      if (order[j] != 2) in += fill_time[order[j]];
      trip = std::max(trip, roundTrip(hw, o, order[j]));  // the farthest of the tensors refilled
      const double next = j + 1 < kTensors ? f[order[j + 1]] : 0.0;
      loads += (f[order[j]] - next) * pingPong(work, load, trip, in);
    }
    // The output half's store and reload share the DMA with the other tensors' loads, which
    // keep it busy a fraction `other` of the time: they move at what is left.
    const bool reloads = c.reads[size_t(bind)][2] > 0;
    const double other = average - f[2] * fill_time[2];
    const double busy_share = other > 0 ? other / std::max(work, average) : 0;
    const double outputs = (work + f[2] * (c.pipeline_tail + fill_time[2] / (1 - busy_share) +
                                           (reloads ? roundTrip(hw, o, 2) : 0))) /
                           2;
    const double per_tile = std::max({loads, outputs, average});
    sum += k.count * per_tile;
  }
  if (tiles > 1) sum = sum / spread + busy / tiles;
  return std::max({sum, busy, rest});
}

// The array's busy time (c.steps, c.compute, c.array and its parts); returns the local tiles.
double timeArray(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
                 const Nest& nest, Cost& c, const SparseEffect& sparse) {
  const int pe = hw.pe(), local = hw.local();
  // Time. The array: steps (partial tiles leave PEs idle), plus on a systolic array what the PE
  // grid measures (tile_timing.h): the stationary tensor swaps S times, each swap streaming
  // m = steps / S on average; back to back a swap issues every period(m) and the last one takes
  // the whole tile latency, so the op takes (S-1)·period + R + m + skew + 1
  //   = steps + (S-1)·(period - m) + R + skew + 1.
  // Local tiles follow each other without draining the pipeline: the first preload, the skew
  // and the edge register are paid once per op, not once per tile.
  c.steps = 1;
  for (Dim d : kAllDims) c.steps *= stepsAlong(m, hw, d, keptExtent(c, d, p.of(d)), 1);
  double tiles = 1;
  for (Dim d : kAllDims) {
    tiles *= static_cast<double>(ceilDiv(p.of(d), std::min(p.of(d), m.tile(local, d, hw.array()))));
  }
  c.tiles = tiles;
  if (sparse.skip_density < 1) {
    c.step_scale = skipScale(p, m, hw, sparse);  // each tile waits for its busiest PE
    c.steps *= c.step_scale;
  }
  c.compute = static_cast<double>(c.macs) * sparse.reduce_keep * sparse.skip_density /
              (static_cast<double>(hw.pes()) * o.mac_rate);
  c.array = c.steps / o.mac_rate;
  if (hw.systolic) {
    int stationary = -1;
    for (int t = 0; t < kTensors; ++t) {
      if (m.levels[size_t(pe)].keeps[size_t(t)]) stationary = t;
    }
    c.swaps = tiles;
    double preload = 0;
    if (stationary >= 0) {
      double fills = nest.fills(static_cast<Operand>(stationary), nest.cut(pe));
      // A stationary N:M operand the datapath runs compressed: each PE tile holds the kept
      // values of M/N times the reduction, so the reduction needs that many fewer swaps.
      if (c.keep_m > 1 && stationary == sparse.structured_operand) {
        fills = std::ceil(fills * static_cast<double>(keptExtent(c, Dim::C, p.of(Dim::C))) /
                          static_cast<double>(p.of(Dim::C)));
      }
      c.swaps = std::max(tiles, fills);
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
  return tiles;
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
    auto elements = std::min(p.of(d), m.tile(local, d, hw.array()));
    // A grouped convolution's channels of consecutive groups are adjacent (channel = g *
    // per_group + c): a tile that spans a group's whole run continues into the next group's.
    if (!p.gemm && elements == p.of(d)) elements *= std::min(p.of(Dim::G), m.tile(local, Dim::G, hw.array()));
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

double tileSteps(const Mapping& m, const Hardware& hw, const Factors& size, const Cost* sparse) {
  double steps = 1;
  for (Dim d : kAllDims) {
    const int64_t e = sparse ? keptExtent(*sparse, d, size[at(d)]) : size[at(d)];
    steps *= stepsAlong(m, hw, d, e, hw.local());
  }
  return sparse ? steps * sparse->step_scale : steps;
}

void timeOp(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o,
            const Nest& nest, Cost& c, const SparseEffect& sparse) {
  const int local = hw.local();
  const double pes = static_cast<double>(hw.pes());
  const double tiles = timeArray(p, m, hw, o, nest, c, sparse);
  // Ports: each on-chip pool and each network move their bytes at their bandwidth, every copy of
  // a level or network in parallel.
  for (int l = local; l <= hw.array(); ++l) {
    const Level& ll = hw.levels[size_t(l)];
    std::array<double, kTensors> pool{};
    for (size_t t = 0; t < kTensors; ++t) {
      if (ll.bandwidth[t] > 0) {
        pool[size_t(ll.pool_of[t])] += (c.reads[size_t(l)][t] + c.writes[size_t(l)][t]) /
                                       (ll.bandwidth[t] * static_cast<double>(ll.instances));
      }
    }
    c.local = std::max(c.local, *std::max_element(pool.begin(), pool.end()));
    if (ll.fanout > 1 && ll.fanout_bandwidth > 0) {
      const auto& got = c.fanout_delivered[size_t(l)];
      const double links = ll.fanout_bandwidth * static_cast<double>(ll.fanout * ll.instances);
      c.noc = std::max(c.noc, (got[0] + got[1] + got[2]) / links);
    }
  }
  const double noc_total = c.noc_bytes[0] + c.noc_bytes[1] + c.noc_bytes[2];
  if (hw.noc_bandwidth > 0) c.noc = std::max(c.noc, noc_total / (hw.noc_bandwidth * double(hw.arrays)));
  double prologue = 0, epilogue = 0, edges = 0;
  std::array<double, kTensors> edge{};  // the prologue's loads and the epilogue's store, per tensor
  if (!o.ideal_memory) {
    for (int l = 0; l < local; ++l) c.offchip = std::max(c.offchip, levelTime(hw, c, l));
    // The first tile's loads cannot hide behind compute, nor the last tile's store; each takes
    // the path from where its tensor lives (DRAM, through the L2 when there is one; or the L2,
    // holding a neighbour op's result) at the rate its requests stream, after that level's
    // round trip. (At DRAM's rate an L2-resident tensor's first tile had cost a small op on a
    // TPUv4i-like design a quarter more than executed.)
    const Factors tile = m.tileAt(local, hw.array());
    auto home = [&](Operand t) { return homeLevel(hw, o, at(t)); };
    auto bw = [&](Operand t) {
      const double r = offchipRate(hw, home(t), c.request_bytes[at(t)]);
      return r > 0 ? r : 1e300;
    };
    edge[at(Operand::Input)] = p.footprint(Operand::Input, tile) * sizeOf(p.input_dtype) *
                               p.im2col_unique / bw(Operand::Input);
    edge[at(Operand::Weight)] =
        p.footprint(Operand::Weight, tile) * sizeOf(p.weight_dtype) / bw(Operand::Weight);
    edge[at(Operand::Output)] =
        p.footprint(Operand::Output, tile) * sizeOf(p.output_dtype) / bw(Operand::Output);
    const double loads = edge[at(Operand::Input)] + edge[at(Operand::Weight)];
    double round_trip = 0;
    for (Operand t : {Operand::Input, Operand::Weight}) {
      if (edge[at(t)] > 0) round_trip = std::max(round_trip, roundTrip(hw, o, at(t)));
    }
    prologue = round_trip + loads;
    epilogue = edge[at(Operand::Output)];
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
          distinct *= static_cast<double>(ceilDiv(p.of(d), std::min(p.of(d), m.tile(local, d, hw.array()))));
        }
      }
      fills[size_t(t)] = distinct;
    }
  }
  c.cycles = m.double_buffered
                 ? overlapped(p, m, hw, c, busy, tiles, c.offchip - edges, o, fills, edge) +
                       prologue + epilogue
                 : busy + c.offchip + tiles * (o.ideal_memory ? 0 : hw.offchip_latency);
  c.utilization = c.cycles > 0 ? static_cast<double>(c.macs) / (c.cycles * pes * o.mac_rate) : 0;
}

}  // namespace tessel::dataflows::nest
