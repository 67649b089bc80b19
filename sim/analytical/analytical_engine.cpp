// The analytical engine: closed-form per-tile-class timing of GEMMs (gemm_model), streaming
// costs of vector ops (vector_model), and the memory model both share.
#include <algorithm>

#include "sim/analytical/gemm_model.h"
#include "sim/analytical/memory_model.h"
#include "sim/analytical/vector_model.h"
#include "sim/engine.h"

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
    if (plan.op->isGemmLike() && plan.placement != dataflows::Placement::Host) {
      fillGemm(s, plan);
    } else {
      fillVector(s, plan);
    }
    s.cycles = 0;
    for (double c : s.cycles_by_cause) s.cycles += c;
    const double pes = static_cast<double>(acc_.array.rows) * acc_.array.cols;
    s.utilization = s.cycles > 0 ? static_cast<double>(s.macs) / (s.cycles * pes) : 0;
    return s;
  }

 private:
  OpStats header(const dataflows::OpPlan& plan) const {
    OpStats s;
    s.op_id = plan.op->id;
    s.name = plan.op->name;
    s.kind = plan.op->kind;
    s.op_class = plan.op->opClass();
    s.placement = toStats(plan.placement);
    s.fused_into = plan.fused_into;
    s.macs = plan.op->macs;
    for (const auto& level : acc_.levels) s.traffic.push_back(LevelTraffic{level.name, {}, {}});
    return s;
  }

  void fillGemm(OpStats& s, const dataflows::OpPlan& plan) const {
    const GemmCost c = evaluateGemm(plan, acc_, df_, mem_);
    s.cycles_by_cause[static_cast<size_t>(Cause::Compute)] = c.compute;
    s.cycles_by_cause[static_cast<size_t>(Cause::FillDrain)] = c.fill_drain;
    s.cycles_by_cause[static_cast<size_t>(Cause::Noc)] = c.noc;
    s.cycles_by_cause[static_cast<size_t>(Cause::MemoryStall)] = c.memory;
    for (size_t l = 0; l < acc_.levels.size(); ++l) {
      for (size_t x = 0; x < kNumOperands; ++x) {
        s.traffic[l].read_bytes[x] = static_cast<int64_t>(c.read[l][x] + 0.5);
        s.traffic[l].write_bytes[x] = static_cast<int64_t>(c.write[l][x] + 0.5);
      }
    }
    s.mapping = plan.mapping.flatten();
    s.loop_nest = plan.mapping.loopNest(plan.problem);
    addEnergy(s, static_cast<double>(s.macs) * acc_.array.mac_energy_pj,
              c.noc_bytes * acc_.noc.energy_pj_per_byte, 0);
  }

  void fillVector(OpStats& s, const dataflows::OpPlan& plan) const {
    VectorCost c;
    switch (plan.placement) {
      case dataflows::Placement::Array:
        c = evaluateArrayVector(plan, graph(plan), acc_, mem_);
        break;
      case dataflows::Placement::Sfu:
        c = evaluateSfu(plan, graph(plan), acc_, mem_);
        break;
      case dataflows::Placement::Host:
        c = evaluateHost(plan, graph(plan), acc_, options_.ideal_memory);
        break;
      case dataflows::Placement::Fused:
        c = evaluateFused(plan, graph(plan), acc_, mem_);
        break;
    }
    s.cycles_by_cause = c.cycles;
    for (size_t l = 0; l < acc_.levels.size(); ++l) {
      s.traffic[l].read_bytes[0] = static_cast<int64_t>(c.traffic.read[l] + 0.5);
      s.traffic[l].write_bytes[2] = static_cast<int64_t>(c.traffic.write[l] + 0.5);
    }
    const auto local = static_cast<size_t>(mem_.localInputs());
    s.traffic[local].write_bytes[0] += static_cast<int64_t>(c.local_write);
    s.traffic[local].read_bytes[2] += static_cast<int64_t>(c.local_read);
    s.mapping = {{"placement", std::string(nameOf(s.placement))}, {"unit_op", plan.unit_op}};
    if (plan.fused_into >= 0) s.mapping.emplace_back("fused_into", std::to_string(plan.fused_into));
    const double sfu_pj = acc_.sfu ? c.sfu_elements * acc_.sfu->energy_pj_per_element : 0;
    addEnergy(s, 0, 0, sfu_pj);
  }

  void addEnergy(OpStats& s, double array_pj, double noc_pj, double sfu_pj) const {
    for (size_t l = 0; l < acc_.levels.size(); ++l) {
      const auto& lv = acc_.levels[l];
      double pj = 0;
      for (size_t x = 0; x < kNumOperands; ++x) {
        pj += static_cast<double>(s.traffic[l].read_bytes[x]) * lv.read_energy_pj_per_byte;
        pj += static_cast<double>(s.traffic[l].write_bytes[x]) * lv.write_energy_pj_per_byte;
      }
      s.energy_pj.emplace_back(lv.name, pj);
    }
    s.energy_pj.emplace_back("array", array_pj);
    s.energy_pj.emplace_back("noc", noc_pj);
    s.energy_pj.emplace_back("sfu", sfu_pj);
  }

  const models::Graph& graph(const dataflows::OpPlan& plan) const { return *plan.graph; }

  const arch::Accelerator& acc_;
  dataflows::Dataflow df_;
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
