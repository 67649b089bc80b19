#include "sim/run.h"

#include <map>

#include "arch/bandwidth.h"
#include "dataflows/host_conversions.h"
#include "sim/bound_warnings.h"
#include "sim/footprint.h"
#include "sim/fusion.h"
#include "util/checked.h"

namespace tessel::sim {

std::string toolVersion() { return "0.1.0"; }

RunStats simulate(const models::Graph& graph, const arch::Accelerator& acc,
                  const dataflows::Dataflow& dataflow, const RunOptions& options) {
  // The plans point into the converted graph: it lives until the stats are made.
  const models::Graph converted = dataflows::withHostConversions(graph, acc, options.plan.fuse());
  const std::vector<dataflows::OpPlan> plans =
      planGraph(converted, acc, dataflow, options.plan, options.engine_options);
  checkFitsDram(converted, acc, &plans);
  if (options.on_plans) options.on_plans(plans);
  return evaluatePlans(converted, acc, dataflow, plans, options);
}

namespace {

std::vector<GroupRecord> groupRecords(const std::vector<dataflows::OpPlan>& plans,
                                      const std::vector<OpStats>& ops,
                                      const arch::Accelerator& acc) {
  std::vector<GroupRecord> records;
  std::map<const dataflows::FusedGroup*, size_t> index;
  for (size_t i = 0; i < plans.size(); ++i) {
    const dataflows::FusedGroup* g = plans[i].group.get();
    if (g == nullptr) continue;
    if (index.count(g) == 0) {
      index[g] = records.size();
      GroupRecord r;
      r.name = g->name;
      r.kind = std::string(models::nameOf(g->chain.kind));
      r.schedule = std::string(g->schedule());
      r.block_rows = g->block_rows;
      r.block_cols = g->block_cols;
      if (g->resident_level >= 0) r.resident = acc.levels[static_cast<size_t>(g->resident_level)].name;
      if (g->partials_level >= 0) r.partials = acc.levels[static_cast<size_t>(g->partials_level)].name;
      r.epilogue_cycles = g->unfused_cycles;
      r.epilogue_offchip_bytes = checked::toCount(g->unfused_offchip_bytes, "a fused group's bytes");
      records.push_back(std::move(r));
    }
    GroupRecord& r = records[index[g]];
    r.ops.push_back(plans[i].op->id);
    r.cycles += ops[i].cycles;
    r.macs += ops[i].macs;
    r.epilogue_macs += plans[i].op->macs;
    for (size_t l = 0; l < acc.levels.size() && l < ops[i].traffic.size(); ++l) {
      const arch::LevelKind k = acc.levels[l].kind;
      if (k == arch::LevelKind::DRAM || k == arch::LevelKind::L2) r.offchip_bytes += ops[i].traffic[l].total();
    }
  }
  return records;
}

}  // namespace

RunStats evaluatePlans(const models::Graph& graph, const arch::Accelerator& acc,
                       const dataflows::Dataflow& dataflow,
                       const std::vector<dataflows::OpPlan>& plans, const RunOptions& options) {
  auto engine = makeEngine(options.engine, acc, dataflow, options.engine_options);

  RunStats run;
  run.tool_version = toolVersion();
  run.arch_name = acc.name;
  run.arch_hash = acc.hash();
  run.workload = graph.name;
  run.engine = std::string(engine->name());
  run.clock_hz = acc.clock_hz;
  run.pes = static_cast<int64_t>(acc.array.rows) * acc.array.cols * acc.arrays();
  run.options = options.labels;
  const arch::OffChipBandwidth bw = arch::offChipBandwidth(acc);
  run.offchip_bytes_per_cycle = bw.bytes_per_cycle;
  run.offchip_limit = bw.limit;
  run.offchip_why = bw.why;
  run.area_mm2 = acc.silicon.area_mm2;
  run.logic_gates = acc.silicon.logic_gates;
  for (const arch::Silicon::Sram& m : acc.silicon.sram) run.sram.push_back({m.component, m.bytes, m.macros});
  run.leakage_mw = acc.silicon.leakage_mw;
  for (const auto& c : acc.silicon.clocked) run.clocked.push_back({c.component, c.pj_per_cycle, c.while_computing});
  run.peak_macs_per_cycle = acc.peakMacsPerCycle();
  run.warnings = acc.warnings;
  run.workload_warnings = graph.warnings;
  for (const auto& level : acc.levels) run.level_names.push_back(level.name);
  run.ops.reserve(plans.size());
  for (const auto& plan : plans) {
    run.ops.push_back(engine->evaluate(plan));
    if (plan.group) run.ops.back().fusion_group = plan.group->name;
  }
  run.fusion_groups = groupRecords(plans, run.ops, acc);
  run.mapping_warnings = boundWarnings(plans, run.ops);
  if (options.trace != nullptr) *options.trace = engine->trace();
  // Totals are sums of per-op counts: make sure they are countable before any report reads them.
  run.totalMacs();
  for (const auto& level : run.level_names) run.bytesAt(level);
  checked::finite(run.totalCycles(), "the run's cycles");
  checked::finite(run.energyTotalPj(), "the run's energy (pJ)");
  return run;
}

}  // namespace tessel::sim
