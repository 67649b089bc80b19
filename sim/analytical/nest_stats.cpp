#include "sim/analytical/nest_stats.h"

#include <algorithm>

#include "sim/analytical/energy.h"
#include "sim/analytical/nest_accesses.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::sim::analytical {

NestCost nestCost(const dataflows::OpPlan& plan, const arch::Accelerator& acc, bool ideal_memory) {
  namespace nest = dataflows::nest;
  const dataflows::Mapping& mp = plan.mapping;
  const nest::Hardware& hw = *mp.hw;
  NestCost r;
  nest::CostOptions& o = r.options;
  o.mac_rate = acc.array.macRate(plan.problem.input_dtype, plan.problem.weight_dtype);
  o.ideal_memory = ideal_memory;
  for (size_t t = 0; t < 3; ++t) {
    const int home = t == 0 ? plan.input_home : t == 1 ? plan.weight_home : plan.output_home;
    const bool in_l2 = home >= 0 && static_cast<size_t>(home) < acc.levels.size() &&
                       acc.levels[static_cast<size_t>(home)].kind == arch::LevelKind::L2;
    o.home[t] = in_l2 && hw.l2 >= 0 ? hw.l2 : hw.dram;
  }
  r.problem = mp.loops;
  r.problem.output_dtype = plan.problem.output_dtype;
  r.cost = nest::evaluate(r.problem, mp.nest, hw, o);
  if (!r.cost.ok) throw InfeasibleError("op '" + plan.op->name + "': " + r.cost.reason);
  return r;
}

namespace {

void addTo(std::vector<std::pair<std::string, double>>& parts, const std::string& name, double pj) {
  for (auto& [n, v] : parts) {
    if (n == name) v += pj;
  }
}

// Partial sums a level drains up to its parent are read there first (reads - timeloop_reads);
// the counts charged them at the outputs' read energy. A design that gives a drain energy
// (StorageLevel::drain_pj_per_byte, ComputeArray::rf_drain_pj_per_byte) pays that instead.
void chargeDrains(OpStats& s, const dataflows::nest::Hardware& hw, const arch::Accelerator& acc) {
  const auto out = static_cast<size_t>(Operand::Output);
  for (size_t l = 0; l < hw.levels.size() && l < s.accesses.size(); ++l) {
    const LevelAccesses& a = s.accesses[l];
    const int64_t words = a.reads[out] - a.timeloop_reads[out];
    if (words <= 0 || a.reads[out] <= 0) continue;
    const int at = hw.levels[l].arch_level[out];
    const double drain = at < 0 ? acc.array.rf_drain_pj_per_byte
                                : acc.levels[static_cast<size_t>(at)].drain_pj_per_byte;
    if (drain < 0) continue;
    const double bytes = static_cast<double>(a.read_bytes[out]) * static_cast<double>(words) /
                         static_cast<double>(a.reads[out]);
    const double pj = bytes * (drain - hw.levels[l].read_pj[out]);
    addTo(s.energy_pj, at < 0 ? "register_file" : acc.levels[static_cast<size_t>(at)].name, pj);
    s.energy_by_operand_pj[out] += pj;
  }
}

}  // namespace

void fillNestStats(OpStats& s, const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                   bool ideal_memory) {
  const dataflows::Mapping& mp = plan.mapping;
  const dataflows::nest::Hardware& hw = *mp.hw;
  const NestCost nc = nestCost(plan, acc, ideal_memory);
  const dataflows::nest::Cost& c = nc.cost;
  const double busy = std::max({c.array, c.local, c.noc});
  s.cycles_by_cause[static_cast<size_t>(Cause::Compute)] = c.compute;
  s.cycles_by_cause[static_cast<size_t>(Cause::FillDrain)] = c.array - c.compute;
  s.cycles_by_cause[static_cast<size_t>(Cause::Noc)] = busy - c.array;
  s.cycles_by_cause[static_cast<size_t>(Cause::MemoryStall)] = c.cycles - busy;
  double rf_pj = 0, rf_bytes = 0;
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (size_t t = 0; t < 3; ++t) {
      const int a = hw.levels[l].arch_level[t];
      if (a < 0) {
        rf_pj += c.reads[l][t] * hw.levels[l].read_pj[t] + c.writes[l][t] * hw.levels[l].write_pj[t];
        rf_bytes += c.reads[l][t] + c.writes[l][t];
        continue;
      }
      LevelTraffic& tr = s.traffic[static_cast<size_t>(a)];
      auto count = [&](double v, const char* dir) {
        return checked::toCount(v, [&] {
          return "op '" + plan.op->name + "': bytes " + dir + " " + tr.level;
        });
      };
      tr.read_bytes[t] += count(c.reads[l][t], "read from");
      tr.write_bytes[t] += count(c.writes[l][t], "written to");
    }
  }
  addEnergy(s, acc, EnergyParts{rf_pj, c.mac_energy, c.noc_energy, 0, 0});
  for (size_t t = 0; t < 3; ++t) s.energy_by_operand_pj[t] = c.tensor_energy[t];
  s.register_file_bytes = checked::toCount(rf_bytes, [&] {
    return "op '" + plan.op->name + "': register-file bytes";
  });
  s.noc_bytes = checked::toCount(c.noc_bytes[0] + c.noc_bytes[1] + c.noc_bytes[2], [&] {
    return "op '" + plan.op->name + "': NoC bytes";
  });
  fillNestAccesses(s, nc, mp.nest, hw, plan.op->name);
  chargeDrains(s, hw, acc);
  s.mapping = mp.flatten();
  s.loop_nest = mp.loopNest(plan.problem);
  if (nc.problem.sparse()) {
    s.sparsity.sparse = true;
    s.sparsity.inputs = toString(nc.problem.sparsity[0]);
    s.sparsity.weights = toString(nc.problem.sparsity[1]);
    s.sparsity.effective_macs = c.effective_macs;
    s.sparsity.gated_macs = c.gated_macs;
    s.sparsity.metadata_bytes = c.metadata_bytes;
  }
}

}  // namespace tessel::sim::analytical
