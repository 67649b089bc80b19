// The analytical engine: GEMMs and convolutions costed by the loop-nest model of
// dataflows/nest/cost.h (whichever mapper chose the nest), streaming costs of vector ops
// (vector_model) and the memory model they use.
#include <algorithm>
#include <map>

#include "sim/analytical/energy.h"
#include "sim/analytical/fused_cost.h"
#include "sim/analytical/memory_model.h"
#include "sim/analytical/nest_stats.h"
#include "sim/analytical/vector_model.h"
#include "sim/engine.h"
#include "util/checked.h"

namespace tessel::sim {
namespace analytical {
namespace {

Placement toStats(dataflows::Placement p) {
  switch (p) {
    case dataflows::Placement::Array:
      return Placement::Array;
    case dataflows::Placement::Sfu:
      return Placement::Sfu;
    case dataflows::Placement::Host:
      return Placement::Host;
    case dataflows::Placement::Fused:
      return Placement::Fused;
  }
  return Placement::Array;
}

class AnalyticalEngine final : public Engine {
 public:
  AnalyticalEngine(const arch::Accelerator& acc, const dataflows::Dataflow& df,
                   const EngineOptions& options)
      : acc_(acc), df_(df), options_(options), mem_(acc, options.ideal_memory) {}

  std::string_view name() const override { return "analytical"; }

  OpStats evaluate(const dataflows::OpPlan& plan) override {
    OpStats s = header(plan);
    if (plan.group) {
      fillGroupMember(s, plan);
    } else if (plan.op->isGemmLike() && plan.placement != dataflows::Placement::Host) {
      // Every mapper hands over a loop nest; one cost model times them all.
      if (!plan.mapping.has_nest) {
        throw InfeasibleError("op '" + plan.op->name + "': mapper '" + plan.mapping.mapper +
                              "' gave no loop nest the engine can cost");
      }
      fillNestStats(s, plan, acc_, options_.ideal_memory);
    } else {
      fillVector(s, plan);
    }
    if (dataflows::startsKernel(plan)) s.cycles_by_cause[static_cast<size_t>(Cause::Host)] += acc_.controller.launch_cycles;
    s.cycles = 0;
    for (size_t c = 0; c < s.cycles_by_cause.size(); ++c) {
      s.cycles += checked::finite(s.cycles_by_cause[c], [&] {
        return what(plan, std::string(nameOf(Cause(c))) + " cycles");
      });
    }
    checked::finite(s.cycles, [&] { return what(plan, "cycles"); });
    for (const auto& entry : s.energy_pj) {
      checked::finite(entry.second, [&] { return what(plan, entry.first + " energy (pJ)"); });
    }
    // Against the real peak: every PE at the MAC rate of the op's input dtype. Host-run ops
    // leave the array idle.
    const double peak = static_cast<double>(acc_.array.rows) * acc_.array.cols * static_cast<double>(acc_.arrays()) *
                        acc_.array.macRate(plan.problem.input_dtype, plan.problem.weight_dtype);
    const bool on_array = plan.placement != dataflows::Placement::Host && plan.op->isGemmLike();
    s.utilization = on_array && s.cycles > 0 && peak > 0
                        ? std::min(1.0, static_cast<double>(s.macs) / (s.cycles * peak))
                        : 0;
    return s;
  }

 private:
  static std::string what(const dataflows::OpPlan& plan, const std::string& quantity) {
    return "op '" + plan.op->name + "': " + quantity;
  }

  // A byte count for the reports: rounded, and checked to be a countable number.
  static int64_t bytes(const dataflows::OpPlan& plan, double v, const std::string& level,
                       const char* dir) {
    return checked::toCount(v,
                            [&] { return what(plan, std::string("bytes ") + dir + " " + level); });
  }

  OpStats header(const dataflows::OpPlan& plan) const {
    OpStats s;
    s.op_id = plan.op->id;
    s.name = plan.op->name;
    s.kind = plan.op->kind;
    s.op_class = plan.op->opClass();
    s.placement = toStats(plan.placement);
    s.fused_into = plan.fused_into;
    const models::Graph& g = *plan.graph;
    if (!plan.op->inputs.empty()) s.dtype = nameOf(g.tensor(plan.op->inputs[0]).dtype);
    if (plan.op->isGemmLike() && plan.op->inputs.size() > 1 &&
        g.tensor(plan.op->inputs[1]).role == models::TensorRole::Weight) {
      s.weight_dtype = nameOf(g.tensor(plan.op->inputs[1]).dtype);
    }
    s.macs = plan.op->macs;
    for (const auto& level : acc_.levels) s.traffic.push_back(LevelTraffic{level.name, {}, {}});
    return s;
  }

  void fillVector(OpStats& s, const dataflows::OpPlan& plan) const {
    const VectorCost c = evaluateVector(plan, acc_, mem_, options_.ideal_memory);
    s.cycles_by_cause = c.cycles;
    for (size_t l = 0; l < acc_.levels.size(); ++l) {
      s.traffic[l].read_bytes[0] = bytes(plan, c.traffic.read[l], acc_.levels[l].name, "read from");
      s.traffic[l].write_bytes[2] =
          bytes(plan, c.traffic.write[l], acc_.levels[l].name, "written to");
    }
    const auto local = static_cast<size_t>(mem_.localInputs());
    const std::string& local_name = acc_.levels[local].name;
    s.traffic[local].write_bytes[0] = checked::add(
        s.traffic[local].write_bytes[0], bytes(plan, c.local_write, local_name, "written to"),
        [&] { return what(plan, "bytes written to " + local_name); });
    s.traffic[local].read_bytes[2] = checked::add(
        s.traffic[local].read_bytes[2], bytes(plan, c.local_read, local_name, "read from"),
        [&] { return what(plan, "bytes read from " + local_name); });
    s.mapping = {{"placement", std::string(nameOf(s.placement))}, {"unit_op", plan.unit_op}};
    if (plan.fused_into >= 0) s.mapping.emplace_back("fused_into", std::to_string(plan.fused_into));
    const double sfu_pj = acc_.sfu ? c.sfu_elements * acc_.sfu->energy_pj_per_element : 0;
    const double host_pj =
        c.host_flops * acc_.host.energy_pj_per_flop + c.host_bytes * acc_.host.energy_pj_per_byte;
    addEnergy(s, acc_, EnergyParts{0, 0, 0, sfu_pj, host_pj, c.epilogue_pj});
  }

  // A fused group's member: its part of the group's cost, the group costed once.
  void fillGroupMember(OpStats& s, const dataflows::OpPlan& plan) {
    const dataflows::FusedGroup& grp = *plan.group;
    auto it = groups_.find(&grp);
    if (it == groups_.end()) {
      GroupCost c = evaluateGroup(grp, *plan.graph, acc_, mem_, options_.ideal_memory);
      if (!c.ok) throw InfeasibleError("fused group " + grp.name + ": " + c.reason);
      it = groups_.emplace(&grp, std::move(c)).first;
    }
    const GroupCost& c = it->second;
    const auto m = std::find_if(c.members.begin(), c.members.end(),
                                [&](const MemberCost& x) { return x.op == plan.op->id; });
    if (m == c.members.end()) throw Error("op '" + plan.op->name + "' is not in " + grp.name);
    s.macs = m->macs;
    s.cycles_by_cause = m->cycles;
    for (size_t l = 0; l < acc_.levels.size(); ++l) {
      for (size_t t = 0; t < kNumOperands; ++t) {
        s.traffic[l].read_bytes[t] = bytes(plan, m->reads[l][t], acc_.levels[l].name, "read from");
        s.traffic[l].write_bytes[t] =
            bytes(plan, m->writes[l][t], acc_.levels[l].name, "written to");
        s.energy_by_operand_pj[t] +=
            m->reads[l][t] * acc_.levels[l].readPj(static_cast<int>(t)) +
            m->writes[l][t] * acc_.levels[l].writePj(static_cast<int>(t));
      }
    }
    addEnergy(s, acc_, EnergyParts{m->rf_pj, m->mac_pj, m->noc_pj, m->sfu_pj, 0, m->epilogue_pj});
    s.register_file_bytes = bytes(plan, m->rf_bytes, "register files", "moved in");
    s.noc_bytes = bytes(plan, m->noc_bytes, "the NoC", "moved over");
    s.accesses = groupAccesses(plan, *m);
    s.mapping = groupMapping(plan, c);
  }

  // A fused member's accesses per storage level (--accesses), in its operands' words: what it
  // reads there, the operands filled into it, the results written into it.
  std::vector<LevelAccesses> groupAccesses(const dataflows::OpPlan& plan,
                                           const MemberCost& m) const {
    std::vector<LevelAccesses> out;
    if (!plan.op->isGemmLike()) return out;
    const models::Graph& g = *plan.graph;
    std::array<int64_t, kNumOperands> word{};
    word[0] = storageBytes(g.tensor(plan.op->inputs.at(0)).dtype, 1);
    word[1] = storageBytes(g.tensor(plan.op->inputs.at(1)).dtype, 1);
    word[2] = storageBytes(g.tensor(plan.op->outputs.at(0)).dtype, 1);
    for (size_t l = 0; l < acc_.levels.size(); ++l) {
      LevelAccesses a;
      a.level = acc_.levels[l].name;
      bool any = false;
      for (size_t t = 0; t < kNumOperands; ++t) {
        const int64_t read = bytes(plan, m.reads[l][t], a.level, "read from");
        const int64_t written = bytes(plan, m.writes[l][t], a.level, "written to");
        a.holds[t] = read + written > 0;
        any = any || a.holds[t];
        a.read_bytes[t] = read;
        a.reads[t] = a.timeloop_reads[t] = read / std::max<int64_t>(1, word[t]);
        auto& into = t == 2 ? a.update_bytes : a.fill_bytes;
        auto& words = t == 2 ? a.updates : a.fills;
        into[t] = written;
        words[t] = written / std::max<int64_t>(1, word[t]);
      }
      if (any) out.push_back(std::move(a));
    }
    return out;
  }

  std::vector<std::pair<std::string, std::string>> groupMapping(const dataflows::OpPlan& plan,
                                                                const GroupCost& c) const {
    const dataflows::FusedGroup& grp = *plan.group;
    std::vector<std::pair<std::string, std::string>> m{
        {"placement", std::string(nameOf(toStats(plan.placement)))},
        {"fusion_group", grp.name},
        {"schedule", std::string(grp.schedule())},
        {"block_rows", std::to_string(grp.block_rows)},
        {"block_cols", std::to_string(grp.block_cols)},
        {"resident", grp.resident_level < 0
                         ? std::string("-")
                         : acc_.levels[static_cast<size_t>(grp.resident_level)].name},
        {"binds", c.binds}};
    if (grp.partials_level >= 0) {
      m.emplace_back("partials", acc_.levels[static_cast<size_t>(grp.partials_level)].name);
    }
    if (grp.partials_level >= 0 || grp.chain.gateUp()) {
      m.emplace_back("input", !grp.stream_input ? "per row block"
                              : grp.stagingLevel() >= 0
                                  ? "per chunk, staged in " +
                                        acc_.levels[static_cast<size_t>(grp.stagingLevel())].name
                                  : std::string("per chunk"));
    }
    for (const dataflows::FusedGroup::Block& b : grp.blocks) {
      if (b.op != plan.op->id) continue;
      for (auto& kv : b.mapping.flatten()) m.emplace_back("block." + kv.first, kv.second);
    }
    if (plan.fused_into >= 0) m.emplace_back("fused_into", std::to_string(plan.fused_into));
    return m;
  }

  const arch::Accelerator& acc_;
  dataflows::Dataflow df_;
  std::map<const dataflows::FusedGroup*, GroupCost> groups_;
  EngineOptions options_;
  MemoryModel mem_;
};

}  // namespace
}  // namespace analytical

std::unique_ptr<Engine> makeAnalyticalEngine(const arch::Accelerator& acc,
                                             const dataflows::Dataflow& df,
                                             const EngineOptions& options) {
  return std::make_unique<analytical::AnalyticalEngine>(acc, df, options);
}

}  // namespace tessel::sim
