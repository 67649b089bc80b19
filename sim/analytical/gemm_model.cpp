#include "sim/analytical/gemm_model.h"

#include <algorithm>

#include "util/error.h"

namespace tessel::sim::analytical {

using dataflows::Dim;
using dataflows::Operand;
using dataflows::Problem;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Tiles along one dim that behave alike: the first, the middle ones, the (smaller) last one.
struct Seg {
  int64_t size = 0;
  int64_t count = 0;
  bool first = false;
  bool last = false;
};

std::vector<Seg> segments(int64_t extent, int64_t tile) {
  const int64_t n = ceilDiv(extent, tile);
  if (n <= 1) return {{extent, 1, true, true}};
  std::vector<Seg> s{{tile, 1, true, false}};
  if (n > 2) s.push_back({tile, n - 2, false, false});
  s.push_back({extent - (n - 1) * tile, 1, false, true});
  return s;
}

struct Shape {
  int64_t m = 0, n = 0, k = 0;
  int64_t of(Dim d) const { return d == Dim::M ? m : d == Dim::N ? n : k; }
  int64_t elements(Operand x) const {
    return x == Operand::Input ? m * k : x == Operand::Weight ? k * n : m * n;
  }
};

Dim missingDim(Operand x) {
  return x == Operand::Input ? Dim::N : x == Operand::Weight ? Dim::M : Dim::K;
}

// Elements of operand x the array reads (or, for the output, writes) during one tile: a
// stationary operand once; a streamed one once per array block along the dim it ignores.
double localAccesses(Operand x, const Shape& s, const dataflows::Dataflow& df,
                     const arch::ComputeArray& a) {
  const double elems = static_cast<double>(s.elements(x));
  if (x == df.stationary) return elems;
  const Dim d = missingDim(x);
  const int64_t ext = d == df.row_dim ? a.rows : d == df.col_dim ? a.cols : s.of(d);
  return elems * static_cast<double>(ceilDiv(s.of(d), std::max<int64_t>(1, ext)));
}

// Everything one class of iterations costs.
struct Iteration {
  double array = 0, busy = 0, noc_bytes = 0;
  Transfer loads, stores;
  std::array<std::array<double, kNumOperands>, kMaxLevels> rd{}, wr{};
};

}  // namespace

double tileArrayCycles(const arch::ComputeArray& a, const dataflows::Dataflow& df, int64_t sm,
                       int64_t sn, int64_t sk, double rate) {
  const Shape s{sm, sn, sk};
  const double blocks =
      static_cast<double>(ceilDiv(s.of(df.row_dim), a.rows) * ceilDiv(s.of(df.col_dim), a.cols));
  const double stream = static_cast<double>(s.of(df.stream_dim)) / rate;
  // Swapping the stationary block shifts it through the rows; a second register set hides it
  // behind the previous block's stream. One swap per tile is always exposed: the preload
  // before the first block (WS, IS) or the shift-out after the last (OS).
  const double swap = a.rows;
  const double exposed = a.weight_double_buffered ? std::max(0.0, swap - stream) : swap;
  // Skew: the last operand enters row R-1 and column C-1 that many cycles after the first.
  const double fill = a.pipeline_latency >= 0 ? a.pipeline_latency : a.rows + a.cols - 2.0;
  return swap + blocks * stream + (blocks - 1) * exposed + fill;
}

namespace {

struct Context {
  const dataflows::OpPlan& plan;
  const arch::Accelerator& acc;
  const dataflows::Dataflow& df;
  const MemoryModel& mem;
  double rate = 1;
  bool weights_bypass = false;  // scratchpad holds: [inputs]; weights stream into the array
};

int sourceOf(const Context& c, bool first_load, int home, bool fits_l2) {
  if (first_load || c.mem.l2() < 0 || !fits_l2) return home;
  return c.mem.l2();
}

// Off-chip load (or store) of `bytes` of operand x at `level`, with the L2 fill it implies.
void move(Iteration& it, const Context& c, Operand x, int level, double bytes, bool store) {
  const auto xi = static_cast<size_t>(x);
  const auto li = static_cast<size_t>(level);
  (store ? it.stores.write : it.loads.read)[li] += bytes;
  (store ? it.wr : it.rd)[li][xi] += bytes;
  const int l2 = c.mem.l2();
  if (l2 >= 0 && level == 0) it.wr[static_cast<size_t>(l2)][xi] += bytes;  // passes the L2
  if (l2 >= 0 && level == 0 && !store) it.rd[static_cast<size_t>(l2)][xi] += bytes;
}

// Cycles the local SRAMs need to feed one tile: the scratchpad (or global buffer) delivers
// `bandwidth` bytes per cycle on each of its ports (banks x row_width, derived); the
// accumulator reads for accumulation and writes the sums, in parallel when it has two ports, on
// one port otherwise. A shared global buffer carries both. Beyond the array's own time this is a
// delivery stall, charged like the NoC's.
double localCycles(const Context& c, const Iteration& it, size_t li, size_t lo) {
  const arch::StorageLevel& in = c.acc.levels[li];
  const arch::StorageLevel& out = c.acc.levels[lo];
  double in_bytes = 0, out_rd = 0, out_wr = 0;
  for (size_t x = 0; x < kNumOperands; ++x) {
    if (x != 2) in_bytes += it.rd[li][x];
    if (x == 2) out_rd += it.rd[lo][x], out_wr += it.wr[lo][x];
  }
  const double out_bytes = out.ports >= 2 ? std::max(out_rd, out_wr) : out_rd + out_wr;
  // A bandwidth of 0 (a spec built in code, not loaded) means unlimited, as for the NoC.
  auto time = [](double bytes, double bandwidth) { return bandwidth > 0 ? bytes / bandwidth : 0; };
  if (li == lo) return time(in_bytes + out_bytes, in.bandwidth);
  return std::max(time(in_bytes, in.bandwidth * std::max(1, in.ports)),
                  time(out_bytes, out.bandwidth));
}

Iteration iterate(const Context& c, const Shape& s, bool load_a, bool first_a, bool load_b,
                  bool first_b, bool k_first, bool k_last) {
  const Problem& p = c.plan.problem;
  const arch::ComputeArray& a = c.acc.array;
  Iteration it;
  const double in_b = bytesOf(p.input_dtype), w_b = bytesOf(p.weight_dtype);
  const double out_b = bytesOf(p.output_dtype), acc_b = bytesOf(a.accum_dtype);
  const auto li = static_cast<size_t>(c.mem.localInputs());
  const auto lo = static_cast<size_t>(c.mem.localOutputs());
  if (load_a) {
    const double bytes = s.elements(Operand::Input) * in_b * p.input_footprint_ratio;
    move(it, c, Operand::Input, sourceOf(c, first_a, c.plan.input_home, c.plan.input_fits_l2),
         bytes, false);
    it.wr[li][0] += bytes;
  }
  if (load_b) {
    const double bytes = s.elements(Operand::Weight) * w_b;
    move(it, c, Operand::Weight, sourceOf(c, first_b, c.plan.weight_home, c.plan.weight_fits_l2),
         bytes, false);
    if (!c.weights_bypass) it.wr[li][1] += bytes;
  }
  const double c_tile = static_cast<double>(s.elements(Operand::Output));
  if (k_last) move(it, c, Operand::Output, c.plan.output_home, c_tile * out_b, true);
  const double reads_a = localAccesses(Operand::Input, s, c.df, a) * in_b;
  const double reads_b = localAccesses(Operand::Weight, s, c.df, a) * w_b;
  const double writes_c = localAccesses(Operand::Output, s, c.df, a);
  it.rd[li][0] += reads_a;
  if (!c.weights_bypass) it.rd[li][1] += reads_b;  // else the weight FIFO feeds the array
  it.wr[lo][2] += writes_c * acc_b;
  // Accumulating reads what is there (nothing before the first k tile); the store reads once.
  it.rd[lo][2] += (writes_c - (k_first ? c_tile : 0) + (k_last ? c_tile : 0)) * acc_b;
  it.noc_bytes = reads_a + reads_b;
  it.array = tileArrayCycles(a, c.df, s.m, s.n, s.k, c.rate);
  const double noc = c.acc.noc.bandwidth > 0 ? it.noc_bytes / c.acc.noc.bandwidth : 0;
  it.busy = std::max({it.array, noc, localCycles(c, it, li, lo)});
  return it;
}

Transfer merged(const Transfer& x, const Transfer& y) {
  Transfer t = x;
  for (size_t i = 0; i < kMaxLevels; ++i) {
    t.read[i] += y.read[i];
    t.write[i] += y.write[i];
  }
  return t;
}

}  // namespace

GemmCost evaluateGemm(const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                      const dataflows::Dataflow& df, const MemoryModel& mem) {
  const Problem& p = plan.problem;
  const dataflows::Mapping& mp = plan.mapping;
  const arch::StorageLevel& local_in = acc.levels.at(static_cast<size_t>(mem.localInputs()));
  Context c{plan, acc, df, mem, acc.array.macRate(p.input_dtype), !local_in.holds.weights};
  if (c.rate <= 0) {
    throw InfeasibleError("op '" + plan.op->name + "': the array has no " +
                          std::string(nameOf(p.input_dtype)) + " MACs");
  }
  if (mp.loop_order.size() != 3 || mp.loop_order.back() != Dim::K) {
    throw InfeasibleError("op '" + plan.op->name +
                          "': only loop orders with k innermost are modeled");
  }
  const std::array<Dim, 3> order{mp.loop_order[0], mp.loop_order[1], mp.loop_order[2]};
  std::array<std::vector<Seg>, 3> segs;
  for (int l = 0; l < 3; ++l) segs[l] = segments(p.extent(order[l]), mp.tileOf(order[l]));

  GemmCost cost;
  cost.read.assign(acc.levels.size(), {});
  cost.write.assign(acc.levels.size(), {});
  double sum_iter = 0, sum_array = 0, sum_busy = 0;
  double first_fix = 0, last_fix = 0, prologue = 0, epilogue = 0;
  const auto batch = static_cast<double>(p.batch);

  for (const Seg& s0 : segs[0]) {
    for (const Seg& s1 : segs[1]) {
      for (const Seg& s2 : segs[2]) {
        const std::array<const Seg*, 3> at{&s0, &s1, &s2};
        auto segOf = [&](Dim d) -> const Seg& {
          for (int l = 0; l < 3; ++l) {
            if (order[l] == d) return *at[l];
          }
          return s0;
        };
        // The innermost loop whose index is not 0 just advanced; the loops inside it wrapped.
        bool changed[3] = {false, false, false};
        const bool first_iter = s0.first && s1.first && s2.first;
        int j = 2;
        while (j >= 0 && at[j]->first) --j;
        for (int l = 0; l < 3; ++l) {
          changed[l] = first_iter || l == j || (l > j && segs[l].size() > 1);
        }
        auto reloads = [&](Operand x) {
          for (int l = 0; l < 3; ++l) {
            if (changed[l] && Problem::dependsOn(x, order[l])) return true;
          }
          return false;
        };
        const Shape s{segOf(Dim::M).size, segOf(Dim::N).size, segOf(Dim::K).size};
        const Iteration it =
            iterate(c, s, reloads(Operand::Input), segOf(Dim::N).first, reloads(Operand::Weight),
                    segOf(Dim::M).first, segOf(Dim::K).first, segOf(Dim::K).last);
        const double count = static_cast<double>(s0.count * s1.count * s2.count);
        const double m_all = mem.cycles(merged(it.loads, it.stores));
        const double iter = mp.double_buffered ? std::max(it.busy, m_all) : it.busy + m_all;
        sum_iter += count * iter;
        sum_array += count * it.array;
        sum_busy += count * it.busy;
        const bool last_iter = s0.last && s1.last && s2.last;
        if (mp.double_buffered && (first_iter || last_iter)) {
          // The op's first loads cannot hide behind earlier compute, nor its last store
          // behind later compute: they become a prologue and an epilogue.
          const Transfer loads = first_iter ? Transfer{} : it.loads;
          const Transfer stores = last_iter ? Transfer{} : it.stores;
          const double fixed = std::max(it.busy, mem.cycles(merged(loads, stores)));
          (first_iter ? first_fix : last_fix) = fixed - iter;
          if (first_iter) prologue = mem.cycles(it.loads);
          if (last_iter) epilogue = mem.cycles(it.stores);
          if (first_iter && last_iter) last_fix = 0;
        }
        for (size_t l = 0; l < acc.levels.size(); ++l) {
          for (size_t x = 0; x < kNumOperands; ++x) {
            cost.read[l][x] += batch * count * it.rd[l][x];
            cost.write[l][x] += batch * count * it.wr[l][x];
          }
        }
        cost.noc_bytes += batch * count * it.noc_bytes;
      }
    }
  }
  cost.array_cycles = batch * sum_array;
  cost.cycles = batch * sum_iter + first_fix + last_fix + prologue + epilogue;
  cost.compute = static_cast<double>(p.macs()) /
                 (static_cast<double>(acc.array.rows) * acc.array.cols * c.rate);
  cost.fill_drain = cost.array_cycles - cost.compute;
  cost.noc = batch * (sum_busy - sum_array);
  cost.memory = cost.cycles - batch * sum_busy;
  return cost;
}

}  // namespace tessel::sim::analytical
