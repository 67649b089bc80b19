// Lowering a loop-nest mapping to commands: see lower.h.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "dataflows/nest/cost.h"
#include "sim/systemc/lower/lower.h"
#include "sim/systemc/lower/spread.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::sim::systemc {

namespace nest = dataflows::nest;
using dataflows::Operand;

namespace {

constexpr int kIn = 0, kW = 1, kOut = 2;

// What the lowering needs of a tile's shape. Along each dim a tile is full or the remainder,
// so a mask of the remainder dims names its shape: at most 256, each computed once.
struct Shape {
  bool known = false;
  std::array<double, 3> footprint{};
  double steps = 0;
  double macs = 0;
};

struct OuterLoop {
  nest::Dim d;
  int64_t factor;
  int64_t stride;  // elements per step: the tile of the level below
};

// What each command class weighs when bytes are spread over it.
struct Classes {
  std::array<std::vector<uint32_t>, 3> loads;  // per tensor (outputs: partial-sum reloads)
  std::array<std::vector<double>, 3> load_w;
  std::vector<uint32_t> stores, computes;
  std::vector<double> store_w, compute_w;
};

int64_t count(double v, const dataflows::OpPlan& plan, const char* what) {
  return checked::toCount(v, [&] { return "op '" + plan.op->name + "': " + what; });
}

}  // namespace

GemmLowering lowerGemm(const dataflows::OpPlan& plan, const analytical::NestCost& nc) {
  GemmLowering out;
  lowerGemm(plan, nc, out);
  return out;
}

void lowerGemm(const dataflows::OpPlan& plan, const analytical::NestCost& nc, GemmLowering& out) {
  const nest::Mapping& m = plan.mapping.nest;
  const nest::Hardware& hw = *plan.mapping.hw;
  const nest::Problem& p = nc.problem;
  const nest::Cost& c = nc.cost;
  const int local = hw.local();

  std::vector<OuterLoop> loops;
  int64_t visits = 1;
  for (int l = 0; l < local; ++l) {
    for (nest::Dim d : m.levels[size_t(l)].order) {
      const int64_t f = m.levels[size_t(l)].factor[nest::at(d)];
      if (f <= 1) continue;
      loops.push_back({d, f, m.tile(l + 1, d, hw.array())});
      visits *= f;
      if (visits > kMaxTiles) {
        throw InfeasibleError("op '" + plan.op->name + "': its mapping visits more than " +
                              std::to_string(kMaxTiles) +
                              " local tiles; the SystemC engine would need a command per tile");
      }
    }
  }
  // Partial sums come back only when a loop outside the tile runs over a dim the outputs do
  // not depend on; only then do stores need remembering.
  bool revisits = false;
  for (const OuterLoop& l : loops) revisits |= !nest::Problem::relevant(Operand::Output, l.d);
  nest::Factors tile{};
  for (nest::Dim d : nest::kAllDims) tile[nest::at(d)] = std::min(p.of(d), m.tile(local, d, hw.array()));

  out.tiles = 0;
  out.enumerated_bytes = {};
  out.stream.clear();
  CommandStream& s = out.stream;
  s.macs = c.macs;
  s.ideal_compute = c.compute;
  const double rate = c.steps > 0 && c.array > 0 ? nc.options.mac_rate : 1;
  const int slots = m.double_buffered ? 2 : 1;

  Classes k;
  std::array<uint32_t, 3> last_load{kNone, kNone, kNone};
  std::array<std::array<uint32_t, 2>, 3> slot_user{};  // last compute reading each buffer half
  for (auto& u : slot_user) u = {kNone, kNone};
  std::array<int64_t, 3> fills{};
  std::array<int, 3> slot{};
  std::array<uint32_t, 2> out_store{kNone, kNone};  // last store draining each output half
  std::unordered_map<uint64_t, uint32_t> stored;     // output tile -> its last store
  std::array<std::unordered_set<uint64_t>, 2> kept;  // Reload::Once: input / weight tiles in
  uint32_t last_compute = kNone;
  double out_weight = 0;
  uint64_t out_key = 0;
  bool have_out = false;

  auto store = [&] {
    Command st;
    st.kind = Kind::Store;
    st.queue = Queue::Store;
    st.tensor = kOut;
    st.tile = static_cast<int32_t>(out.tiles - 1);
    st.request_bytes = c.request_bytes[kOut];
    const uint32_t id = s.add(st);
    s.dependOn(last_compute);
    out_store[size_t(slot[kOut])] = id;
    if (revisits) stored[out_key] = id;
    k.stores.push_back(id);
    k.store_w.push_back(out_weight);
    out.enumerated_bytes[kOut] += out_weight * static_cast<double>(bytesOf(p.output_dtype));
  };

  std::array<Shape, 1 << nest::kDims> shapes{};
  auto shapeOf = [&](const nest::Factors& size) -> const Shape& {
    size_t mask = 0;
    for (nest::Dim d : nest::kAllDims) mask = mask << 1 | (size[nest::at(d)] != tile[nest::at(d)]);
    Shape& sh = shapes[mask];
    if (!sh.known) {
      sh.known = true;
      for (int t = 0; t < 3; ++t) sh.footprint[size_t(t)] = p.footprint(Operand(t), size);
      sh.steps = nest::tileSteps(m, hw, size, &c);
      sh.macs = 1;
      for (nest::Dim d : nest::kAllDims) sh.macs *= static_cast<double>(size[nest::at(d)]);
    }
    return sh;
  };
  const size_t expected = static_cast<size_t>(visits) * 4 + 8;
  s.commands.reserve(expected);
  s.deps.reserve(expected * 2);
  std::vector<int64_t> index(loops.size(), 0);
  std::array<bool, 3> pending{true, true, true};
  std::vector<double> compute_steps;
  for (int64_t v = 0; v < visits; ++v) {
    // Which loops moved since the last visit: the odometer's changed suffix.
    if (v > 0) {
      size_t j = loops.size();
      while (j-- > 0) {
        if (++index[j] < loops[j].factor) break;
        index[j] = 0;
      }
      for (size_t i = j; i < loops.size(); ++i) {
        for (int t = 0; t < 3; ++t) pending[size_t(t)] |= nest::Problem::relevant(Operand(t), loops[i].d);
      }
      for (int t : {kIn, kW}) pending[size_t(t)] |= m.reload[size_t(t)] == nest::Mapping::Reload::EveryTile;
    }
    nest::Factors start{}, size = tile;
    bool empty = false, revisit = false;
    for (size_t i = 0; i < loops.size(); ++i) start[nest::at(loops[i].d)] += index[i] * loops[i].stride;
    for (size_t i = 0; i < loops.size(); ++i) {
      if (index[i] > 0 && !nest::Problem::relevant(Operand::Output, loops[i].d)) revisit = true;
    }
    uint64_t key = 0;
    for (nest::Dim d : nest::kAllDims) {
      const size_t a = nest::at(d);
      if (start[a] >= p.of(d)) empty = true;
      size[a] = std::min(tile[a], p.of(d) - start[a]);
      if (nest::Problem::relevant(Operand::Output, d)) {
        key = key * static_cast<uint64_t>(p.of(d) + 1) + static_cast<uint64_t>(start[a]);
      }
    }
    if (empty) continue;
    ++out.tiles;
    const Shape& shape = shapeOf(size);
    const int32_t tile_id = static_cast<int32_t>(out.tiles - 1);
    for (int t : {kIn, kW}) {
      if (!pending[size_t(t)]) continue;
      pending[size_t(t)] = false;
      if (m.reload[size_t(t)] == nest::Mapping::Reload::Once) {
        // A tile kept from an earlier visit (at most two, one per buffer half) is not moved.
        uint64_t tk = 0;
        for (nest::Dim d : nest::kAllDims) {
          if (nest::Problem::relevant(Operand(t), d)) {
            tk = tk * static_cast<uint64_t>(p.of(d) + 1) + static_cast<uint64_t>(start[nest::at(d)]);
          }
        }
        if (!kept[size_t(t)].insert(tk).second) continue;
      }
      slot[size_t(t)] = static_cast<int>(fills[size_t(t)]++ % slots);
      Command ld;
      ld.kind = Kind::Load;
      ld.queue = Queue::Load;
      ld.tensor = static_cast<int8_t>(t);
      ld.tile = tile_id;
      ld.request_bytes = c.request_bytes[size_t(t)];
      last_load[size_t(t)] = s.add(ld);
      s.dependOn(slot_user[size_t(t)][size_t(slot[size_t(t)])]);
      const double fp = shape.footprint[size_t(t)];
      k.loads[size_t(t)].push_back(last_load[size_t(t)]);
      k.load_w[size_t(t)].push_back(fp);
      const double b = static_cast<double>(bytesOf(t == kIn ? p.input_dtype : p.weight_dtype));
      out.enumerated_bytes[size_t(t)] += fp * b;
    }
    uint32_t reload = kNone;
    const bool new_out = pending[kOut];
    if (new_out) {
      pending[kOut] = false;
      if (have_out) store();
      slot[kOut] = static_cast<int>(fills[kOut]++ % slots);
      out_key = key;
      out_weight = shape.footprint[kOut];
      have_out = true;
      if (revisit) {
        Command ld;
        ld.kind = Kind::Load;
        ld.queue = Queue::Load;
        ld.tensor = kOut;
        ld.tile = tile_id;
        ld.request_bytes = c.request_bytes[kOut];
        reload = s.add(ld);
        s.dependOn(out_store[size_t(slot[kOut])]);
        const auto it = stored.find(key);
        if (it != stored.end()) s.dependOn(it->second);
        k.loads[kOut].push_back(reload);
        k.load_w[kOut].push_back(out_weight);
      }
    }
    Command cp;
    cp.kind = Kind::Compute;
    cp.queue = Queue::Execute;
    cp.tile = tile_id;
    last_compute = s.add(cp);
    s.dependOn(last_load[kIn]);
    s.dependOn(last_load[kW]);
    s.dependOn(reload);
    if (new_out) s.dependOn(out_store[size_t(slot[kOut])]);
    for (int t : {kIn, kW}) slot_user[size_t(t)][size_t(slot[size_t(t)])] = last_compute;
    k.computes.push_back(last_compute);
    k.compute_w.push_back(shape.macs);
    compute_steps.push_back(shape.steps);
  }
  if (have_out) store();

  // The array's time per tile: its steps at the MAC rate, its share of the stationary swaps'
  // exposed preloads and its pipeline latency (spatial arrays); the run's first preload and the
  // last results' way out are the array block's (run_start, pipeline_tail).
  const double per_tile =
      out.tiles > 0 ? c.swaps * c.swap_exposed / static_cast<double>(out.tiles) + c.tile_overhead : 0;
  for (size_t i = 0; i < k.computes.size(); ++i) {
    s.commands[k.computes[i]].work = compute_steps[i] / rate + per_tile;
  }
  s.run_start = c.run_start;
  s.pipeline_tail = c.pipeline_tail;

  // Bytes: each level's count for each tensor, spread over the commands that move it.
  std::vector<Share> shares;
  shares.reserve(s.commands.size() * 3);
  auto onto = [&](const std::vector<uint32_t>& cmds, const std::vector<double>& w,
                  const std::vector<uint32_t>& fallback, const std::vector<double>& fw) {
    return !cmds.empty() ? std::make_pair(&cmds, &w) : std::make_pair(&fallback, &fw);
  };
  int64_t rf = 0;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (int t = 0; t < 3; ++t) {
      for (bool write : {false, true}) {
        const double v = write ? c.writes[l][size_t(t)] : c.reads[l][size_t(t)];
        const int64_t total = count(v, plan, write ? "bytes written" : "bytes read");
        if (total == 0) continue;
        const int a = hw.levels[l].arch_level[size_t(t)];
        if (a < 0) {
          rf += total;
          continue;
        }
        const Access proto{static_cast<uint8_t>(a), static_cast<uint8_t>(t), write, 0};
        const bool off = hw.levels[l].off_chip;
        std::pair<const std::vector<uint32_t>*, const std::vector<double>*> to;
        if (off && t != kOut) {
          to = onto(k.loads[size_t(t)], k.load_w[size_t(t)], k.computes, k.compute_w);
        } else if (off && write) {
          to = onto(k.stores, k.store_w, k.computes, k.compute_w);
        } else if (off) {
          to = onto(k.loads[kOut], k.load_w[kOut], k.stores, k.store_w);
        } else if (t != kOut && write) {
          to = onto(k.loads[size_t(t)], k.load_w[size_t(t)], k.computes, k.compute_w);
        } else {
          to = {&k.computes, &k.compute_w};
        }
        spread(total, *to.first, *to.second, proto, shares);
      }
    }
  }
  attach(s, shares);
  // Register-file and NoC bytes ride on the computes.
  std::vector<Share> extra;
  spread(rf, k.computes, k.compute_w, Access{0, 0, false, 0}, extra);
  for (const Share& x : extra) s.commands[x.command].register_file_bytes += x.access.bytes;
  extra.clear();
  spread(count(c.noc_bytes[0] + c.noc_bytes[1] + c.noc_bytes[2], plan, "NoC bytes"), k.computes,
         k.compute_w, Access{0, 0, false, 0}, extra);
  for (const Share& x : extra) s.commands[x.command].noc_bytes += x.access.bytes;
}

}  // namespace tessel::sim::systemc
