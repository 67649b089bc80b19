#include "reports/json.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/breakdown.h"
#include "reports/format.h"
#include "arch/accelerator.h"
#include "sim/categories.h"

namespace tessel::reports {
namespace {

// ordered_json keeps keys in insertion order, which is the documented order.
using Json = nlohmann::ordered_json;

Json metadata(const sim::RunStats& run) {
  Json options = Json::object();
  for (const auto& [key, value] : run.options) options[key] = value;  // a repeated key: last wins
  return {{"tool", kToolName},
          {"tool_version", run.tool_version},
          {"arch", {{"name", run.arch_name}, {"hash", run.arch_hash}}},
          {"workload", run.workload},
          {"engine", run.engine},
          {"clock_hz", roundQuantity(run.clock_hz)},
          {"pes", run.pes},
          {"offchip_bandwidth",
           {{"bytes_per_cycle", roundQuantity(run.offchip_bytes_per_cycle)},
            {"limit", run.offchip_limit},
            {"why", run.offchip_why}}},
          {"warnings", run.warnings},
          {"workload_warnings", run.workload_warnings},
          {"mapping_warnings", run.mapping_warnings},
          {"options", options}};
}

Json perTensor(const std::array<double, sim::kNumOperands>& pj) {
  Json out = Json::object();
  for (int r = 0; r < sim::kNumOperands; ++r) {
    out[std::string(sim::nameOf(static_cast<sim::Operand>(r)))] = roundQuantity(pj[r]);
  }
  return out;
}

// Sparse operands over the run: MACs performed of the dense count, gated, metadata moved. Only
// when an op has a sparse operand, so a dense run's JSON is as before.
void addSparseTotals(Json& totals, const sim::RunStats& run) {
  const sim::RunStats::SparseTotals t = run.sparseTotals();
  if (!t.any) return;
  totals["sparsity"] = {{"effective_macs", roundQuantity(t.performed_macs)},
                        {"gated_macs", roundQuantity(t.gated_macs)},
                        {"metadata_bytes", roundQuantity(t.metadata_bytes)}};
}

Json totals(const sim::RunStats& run) {
  Json levels = Json::object();
  for (const std::string& level : run.level_names) levels[level] = run.bytesAt(level);
  Json energy = Json::object();
  for (const auto& [component, pj] : run.energyByComponent()) energy[component] = roundQuantity(pj);
  Json leakage = Json::object();
  for (const auto& [component, pj] : run.staticEnergyByComponent()) leakage[component] = roundQuantity(pj);
  Json area = Json::object();
  for (const auto& [component, mm2] : run.area_mm2) area[component] = roundQuantity(mm2);
  Json gates = Json::object();
  double total_gates = 0;
  for (const auto& [component, n] : run.logic_gates) {
    gates[component] = roundQuantity(n);
    total_gates += n;
  }
  Json sram = Json::object();
  double sram_bytes = 0, sram_macros = 0;
  for (const sim::RunStats::Sram& m : run.sram) {
    sram[m.component] = {{"bytes", roundQuantity(m.bytes)}, {"macros", roundQuantity(m.macros)}};
    sram_bytes += m.bytes;
    sram_macros += m.macros;
  }
  Json categories = Json::array();
  for (const sim::CategoryRow& r : sim::byCategory(run)) {
    categories.push_back({{"category", r.category},
                          {"on_die", r.on_die},
                          {"area_mm2", roundQuantity(r.area_mm2)},
                          {"dynamic_w", roundQuantity(r.dynamic_w)},
                          {"leakage_w", roundQuantity(r.leakage_w)}});
  }
  return {{"cycles", roundQuantity(run.totalCycles())},
          {"seconds", roundQuantity(run.seconds())},
          {"energy_pj", roundQuantity(run.energyTotalPj())},
          {"dynamic_energy_pj", roundQuantity(run.dynamicEnergyPj())},
          {"clocked_energy_pj", roundQuantity(run.clockedEnergyPj())},
          {"static_energy_pj", roundQuantity(run.staticEnergyPj())},
          {"power_w", roundQuantity(run.powerW())},
          {"chip_power_w", roundQuantity(run.chipPowerW())},
          {"energy_per_mac_pj", roundQuantity(run.energyPerMacPj())},
          {"area_mm2", roundQuantity(run.areaMm2())},
          {"tops", roundQuantity(run.tops())},
          {"peak_tops", roundQuantity(run.peakTops())},
          {"tops_per_w", roundQuantity(run.topsPerW())},
          {"tops_per_mm2", roundQuantity(run.topsPerMm2())},
          {"macs", run.totalMacs()},
          {"utilization", roundRatio(run.utilization())},
          {"dram_bytes", dramBytes(run)},
          {"bytes_by_level", levels},
          {"register_file_bytes", run.registerFileBytes()},
          {"noc_bytes", run.nocBytes()},
          {"energy_by_component", energy},
          {"static_energy_by_component", leakage},
          {"area_by_component", area},
          {"logic_gates", roundQuantity(total_gates)},
          {"logic_gates_by_component", gates},
          {"sram_bytes", roundQuantity(sram_bytes)},
          {"sram_macros", roundQuantity(sram_macros)},
          {"sram_by_component", sram},
          {"by_category", categories},
          {"not_modeled", std::string(arch::kNotModeled)},
          {"energy_by_tensor", perTensor(run.energyByOperand())}};
}

Json totalsOf(const sim::RunStats& run) {
  Json t = totals(run);
  addSparseTotals(t, run);
  return t;
}

Json breakdown(const sim::RunStats& run) {
  Json by_class = Json::array();
  const bool sparse = run.sparseTotals().any;
  for (const ClassRow& row : byClass(run)) {
    Json entry = {{"class", models::nameOf(row.op_class)},
                  {"cycles", roundQuantity(row.cycles)},
                  {"fraction", roundRatio(row.fraction)},
                  {"ops", row.ops}};
    if (sparse) {
      entry["sparsity"] = {{"macs", roundQuantity(row.macs)},
                           {"effective_macs", roundQuantity(row.performed_macs)},
                           {"gated_macs", roundQuantity(row.gated_macs)}};
    }
    by_class.push_back(std::move(entry));
  }
  Json by_cause = Json::array();
  for (const CauseRow& row : byCause(run)) {
    by_cause.push_back({{"cause", sim::nameOf(row.cause)},
                        {"cycles", roundQuantity(row.cycles)},
                        {"fraction", roundRatio(row.fraction)}});
  }
  return {{"by_class", by_class}, {"by_cause", by_cause}};
}

Json perOperand(const std::array<int64_t, sim::kNumOperands>& bytes) {
  Json out = Json::object();
  for (int r = 0; r < sim::kNumOperands; ++r) {
    out[std::string(sim::nameOf(static_cast<sim::Operand>(r)))] = bytes[r];
  }
  return out;
}

// One element per level and tensor the level holds (or that touched it), outermost level first.
Json accesses(const sim::OpStats& op) {
  Json out = Json::array();
  for (const sim::LevelAccesses& a : op.accesses) {
    for (int t = 0; t < sim::kNumOperands; ++t) {
      if (!a.listed(t)) continue;
      out.push_back({{"level", a.level},
                     {"instances", a.instances},
                     {"tensor", sim::nameOf(static_cast<sim::Operand>(t))},
                     {"reads", a.reads[t]},
                     {"fills", a.fills[t]},
                     {"updates", a.updates[t]},
                     {"read_bytes", a.read_bytes[t]},
                     {"fill_bytes", a.fill_bytes[t]},
                     {"update_bytes", a.update_bytes[t]},
                     {"timeloop_reads", a.timeloop_reads[t]}});
    }
  }
  return out;
}

Json networks(const sim::OpStats& op) {
  Json out = Json::array();
  for (const sim::NetworkTraffic& n : op.networks) {
    out.push_back({{"level", n.level},
                   {"kind", n.kind},
                   {"fanout", n.fanout},
                   {"instances", n.instances},
                   {"sent_bytes", perOperand(n.sent_bytes)},
                   {"delivered_bytes", perOperand(n.delivered_bytes)}});
  }
  return out;
}

Json opRecord(const sim::OpStats& op) {
  Json causes = Json::object();
  for (int c = 0; c < sim::kNumCauses; ++c) {
    causes[std::string(sim::nameOf(static_cast<sim::Cause>(c)))] =
        roundQuantity(op.cycles_by_cause[c]);
  }
  Json traffic = Json::array();
  for (const sim::LevelTraffic& t : op.traffic) {
    traffic.push_back({{"level", t.level},
                       {"read", perOperand(t.read_bytes)},
                       {"write", perOperand(t.write_bytes)}});
  }
  Json energy = Json::object();
  for (const auto& [component, pj] : op.energy_pj) energy[component] = roundQuantity(pj);
  Json mapping = Json::object();
  for (const auto& [key, value] : op.mapping) mapping[key] = value;
  Json waits = Json::object();
  for (const auto& [why, cycles] : op.waits) waits[why] = roundQuantity(cycles);
  Json j = {{"id", op.op_id},
            {"name", op.name},
            {"kind", models::nameOf(op.kind)},
            {"class", models::nameOf(op.op_class)},
            {"placement", sim::nameOf(op.placement)},
            {"fused_into", op.fused_into},
            {"fusion_group", op.fusion_group.empty() ? Json() : Json(op.fusion_group)},
            {"macs", op.macs},
            {"cycles", roundQuantity(op.cycles)},
            {"cycles_by_cause", causes},
            {"traffic", traffic},
            {"energy_pj", energy},
            {"energy_by_tensor", perTensor(op.energy_by_operand_pj)},
            {"register_file_bytes", op.register_file_bytes},
            {"noc_bytes", op.noc_bytes},
            {"accesses", accesses(op)},
            {"network", networks(op)},
            {"utilization", roundRatio(op.utilization)},
            {"mapping", mapping},
            {"loop_nest", op.loop_nest}};
  // Engines that execute commands say what the op's unit waited on.
  if (!op.waits.empty()) j["waits"] = waits;
  if (op.sparsity.sparse) {
    j["sparsity"] = {{"inputs", op.sparsity.inputs},
                     {"weights", op.sparsity.weights},
                     {"effective_macs", roundQuantity(op.sparsity.effective_macs)},
                     {"gated_macs", roundQuantity(op.sparsity.gated_macs)},
                     {"metadata_bytes", roundQuantity(op.sparsity.metadata_bytes)}};
  }
  j["dtype"] = op.dtype;
  if (!op.weight_dtype.empty()) j["weight_dtype"] = op.weight_dtype;
  return j;
}

Json groupRecords(const sim::RunStats& run) {
  Json groups = Json::array();
  for (const sim::GroupRecord& g : run.fusion_groups) {
    groups.push_back({{"name", g.name},
                      {"kind", g.kind},
                      {"schedule", g.schedule},
                      {"block_rows", g.block_rows},
                      {"block_cols", g.block_cols},
                      {"resident", g.resident.empty() ? Json() : Json(g.resident)},
                      {"partials", g.partials.empty() ? Json() : Json(g.partials)},
                      {"ops", g.ops},
                      {"cycles", roundQuantity(g.cycles)},
                      {"offchip_bytes", g.offchip_bytes},
                      {"epilogue_cycles", roundQuantity(g.epilogue_cycles)},
                      {"epilogue_offchip_bytes", g.epilogue_offchip_bytes},
                      {"macs", g.macs},
                      {"epilogue_macs", g.epilogue_macs}});
  }
  return groups;
}

}  // namespace

void writeJson(const sim::RunStats& run, std::ostream& os, int indent) {
  Json ops = Json::array();
  for (const sim::OpStats& op : run.ops) ops.push_back(opRecord(op));
  const Json doc = {{"schema_version", kJsonSchemaVersion},
                    {"metadata", metadata(run)},
                    {"totals", totalsOf(run)},
                    {"breakdown", breakdown(run)},
                    {"fusion_groups", groupRecords(run)},
                    {"ops", ops}};
  // Invalid UTF-8 in a name becomes U+FFFD instead of throwing: a report is always written.
  os << doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

std::string toJsonString(const sim::RunStats& run, int indent) {
  std::ostringstream os;
  writeJson(run, os, indent);
  return os.str();
}

}  // namespace tessel::reports
