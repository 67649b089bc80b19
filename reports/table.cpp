#include "reports/table.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "reports/accesses_table.h"
#include "reports/breakdown.h"
#include "reports/format.h"
#include "reports/top_ops.h"
#include "arch/accelerator.h"
#include "sim/categories.h"

namespace tessel::reports {
namespace {

constexpr int kLabel = 22;  // first column of the summary sections
constexpr int kNumber = 14;
constexpr int kPercent = 9;
constexpr int kCount = 8;

void writeHeader(const sim::RunStats& run, std::ostream& os) {
  os << "tessel " << run.tool_version << " | arch " << run.arch_name;
  if (!run.arch_hash.empty()) os << " (" << run.arch_hash.substr(0, 8) << ")";
  os << " | workload " << run.workload << " | engine " << run.engine << "\n";
  if (!run.options.empty()) {
    os << "options:";
    for (const auto& [key, value] : run.options) os << " " << key << "=" << value;
    os << "\n";
  }
  os << "clock " << engHertz(run.clock_hz) << " | " << withCommas(run.pes) << " PEs";
  if (!run.offchip_limit.empty()) {
    os << " | off-chip " << run.offchip_bytes_per_cycle << " B/cycle, set by " << run.offchip_limit;
  }
  os << "\n";
  for (const std::string& w : run.warnings) os << "warning: " << w << "\n";
  for (const std::string& w : run.mapping_warnings) os << "warning: " << w << "\n";
}

// With sparse operands: the MACs performed (skipped ones not), gated, and the metadata moved.
template <class Line>
void writeSparseLines(const sim::RunStats& run, Line& line) {
  const sim::RunStats::SparseTotals t = run.sparseTotals();
  if (!t.any || run.totalMacs() <= 0) return;
  const double performed = t.performed_macs, gated = t.gated_macs, metadata = t.metadata_bytes;
  const double dense = static_cast<double>(run.totalMacs());
  line("MACs performed", withCommas(static_cast<int64_t>(std::llround(performed))) + " (" +
                             percentText(performed / dense) + " % of dense; " +
                             percentText(gated / dense) + " % more gated)");
  line("metadata bytes", binaryBytes(static_cast<int64_t>(std::llround(metadata))) +
                             " moved (all levels)");
}

void writeTotals(const sim::RunStats& run, std::ostream& os) {
  auto line = [&os](std::string_view label, const std::string& value) {
    os << "  " << padRight(label, kLabel - 2) << value << "\n";
  };
  const int64_t dram = dramBytes(run);
  os << "\nTotals\n";
  line("cycles", cyclesText(run.totalCycles()));
  line("time", engSeconds(run.seconds()));
  line("MACs", withCommas(run.totalMacs()));
  writeSparseLines(run, line);
  line("utilization", percentText(run.utilization()) + " %");
  line("DRAM bytes", binaryBytes(dram) + " (" + withCommas(dram) + " B)");
  const double energy = run.energyTotalPj();
  if (energy != 0) {
    line("energy", engEnergyPj(energy) + " (dynamic " + engEnergyPj(run.dynamicEnergyPj()) + ", clocked " +
                       engEnergyPj(run.clockedEnergyPj()) + ", static " + engEnergyPj(run.staticEnergyPj()) + ")");
    line("power", significant(run.powerW(), 3) + " W (accelerator chip " + significant(run.chipPowerW(), 3) +
                      " W, without DRAM and host)");
    if (run.totalMacs() > 0) {
      line("energy per MAC", significant(run.energyPerMacPj(), 3) + " pJ");
      line("TOPS/W", significant(run.topsPerW(), 3) + "  (" + significant(run.tops(), 3) + " TOPS of " +
                         significant(run.peakTops(), 3) + " peak)");
    }
  }
  if (run.areaMm2() > 0) {
    line("area", significant(run.areaMm2(), 3) + " mm2");
    if (run.totalMacs() > 0) line("TOPS/mm2", significant(run.topsPerMm2(), 3));
  }
}

// One breakdown line: label, cycles, percent of the run, and optionally an op count and more
// columns already padded (`tail`).
void breakdownRow(std::ostream& os, std::string_view label, double cycles, double fraction,
                  const std::string& ops = "", const std::string& tail = "") {
  os << "  " << padRight(label, kLabel - 3) << padLeft(cyclesText(cycles), kNumber)
     << padLeft(percentText(fraction), kPercent) << (ops.empty() ? "" : padLeft(ops, kCount))
     << tail << "\n";
}

// A sparse run's class rows add the share of their MACs the array performs and gates.
std::string sparseColumns(double macs, double performed, double gated) {
  if (macs <= 0) return padLeft("-", kPercent + 1) + padLeft("-", kPercent);
  return padLeft(percentText(performed / macs), kPercent + 1) +
         padLeft(percentText(gated / macs), kPercent);
}

void writeClasses(const sim::RunStats& run, std::ostream& os) {
  const bool sparse = run.sparseTotals().any;
  os << "\n"
     << padRight("By op class", kLabel - 1) << padLeft("cycles", kNumber) << padLeft("%", kPercent)
     << padLeft("ops", kCount)
     << (sparse ? padLeft("MACs done", kPercent + 1) + padLeft("gated", kPercent) : "") << "\n";
  double macs = 0, performed = 0, gated = 0;
  for (const ClassRow& row : byClass(run)) {
    macs += row.macs, performed += row.performed_macs, gated += row.gated_macs;
    if (row.cycles == 0) continue;  // absent classes, and fused epilogues charged to anchors
    breakdownRow(os, models::nameOf(row.op_class), row.cycles, row.fraction,
                 std::to_string(row.ops),
                 sparse ? sparseColumns(row.macs, row.performed_macs, row.gated_macs) : "");
  }
  const double total = run.totalCycles();
  breakdownRow(os, "total", total, total > 0 ? 1.0 : 0.0, std::to_string(run.ops.size()),
               sparse ? sparseColumns(macs, performed, gated) : "");
}

void writeCauses(const sim::RunStats& run, std::ostream& os) {
  os << "\n"
     << padRight("By cause", kLabel - 1) << padLeft("cycles", kNumber) << padLeft("%", kPercent)
     << "\n";
  for (const CauseRow& row : byCause(run)) {
    breakdownRow(os, sim::nameOf(row.cause), row.cycles, row.fraction);
  }
  const double total = run.totalCycles();
  breakdownRow(os, "total", total, total > 0 ? 1.0 : 0.0);
}

// What the SystemC engine's units waited on, summed over the ops, largest first (absent for the
// analytical engine, whose ops report no waits).
void writeWaits(const sim::RunStats& run, std::ostream& os) {
  std::vector<std::pair<std::string, double>> sums;
  for (const sim::OpStats& op : run.ops) {
    // No structured binding: a C++17 lambda cannot capture one (clang rejects it).
    for (const auto& wait : op.waits) {
      auto it = std::find_if(sums.begin(), sums.end(),
                             [&](const auto& e) { return e.first == wait.first; });
      if (it == sums.end()) {
        sums.emplace_back(wait.first, wait.second);
      } else {
        it->second += wait.second;
      }
    }
  }
  if (sums.empty()) return;
  std::stable_sort(sums.begin(), sums.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const double total = run.totalCycles();
  os << "\n"
     << padRight("Units waited on", kLabel - 1) << padLeft("cycles", kNumber) << padLeft("%", kPercent)
     << "\n";
  for (const auto& [why, cycles] : sums) breakdownRow(os, why, cycles, total > 0 ? cycles / total : 0.0);
}

void writeLevels(const sim::RunStats& run, std::ostream& os) {
  if (run.level_names.empty()) return;
  os << "\n" << padRight("Bytes by level", kLabel - 1) << padLeft("bytes", kNumber) << "\n";
  auto row = [&os](std::string_view name, int64_t bytes) {
    os << "  " << padRight(name, kLabel - 3) << padLeft(binaryBytes(bytes), kNumber) << "  ("
       << withCommas(bytes) << " B)\n";
  };
  for (const std::string& level : run.level_names) row(level, run.bytesAt(level));
  // Below the storage levels, when the mappings modeled them.
  if (run.registerFileBytes() > 0) row("register files", run.registerFileBytes());
  if (run.nocBytes() > 0) row("NoC", run.nocBytes());
}

// Energy per component and per tensor moved, when the engine reported any.
void writeEnergy(const sim::RunStats& run, std::ostream& os) {
  const double total = run.energyTotalPj();
  if (total <= 0) return;
  os << "\n" << padRight("Energy by component", kLabel - 1) << padLeft("energy", kNumber)
     << padLeft("%", kPercent) << "\n";
  auto row = [&](std::string_view name, double pj) {
    os << "  " << padRight(name, kLabel - 3) << padLeft(engEnergyPj(pj), kNumber)
       << padLeft(percentText(pj / total), kPercent) << "\n";
  };
  for (const auto& [name, pj] : run.energyByComponent()) {
    if (pj != 0) row(name, pj);
  }
  const auto by_tensor = run.energyByOperand();
  if (by_tensor[0] + by_tensor[1] + by_tensor[2] <= 0) return;
  os << "  by tensor, array ops: inputs " << engEnergyPj(by_tensor[0]) << ", weights "
     << engEnergyPj(by_tensor[1]) << ", outputs " << engEnergyPj(by_tensor[2]) << "\n";
}

// On-chip area per component, and the leakage it draws.
void writeArea(const sim::RunStats& run, std::ostream& os) {
  const double total = run.areaMm2();
  if (total <= 0) return;
  os << "\n" << padRight("Area by component", kLabel - 1) << padLeft("mm2", kNumber)
     << padLeft("%", kPercent) << padLeft("leakage", kNumber) << "\n";
  for (size_t i = 0; i < run.area_mm2.size(); ++i) {
    const auto& [name, mm2] = run.area_mm2[i];
    const double mw = i < run.leakage_mw.size() ? run.leakage_mw[i].second : 0.0;
    os << "  " << padRight(name, kLabel - 3) << padLeft(significant(mm2, 3), kNumber)
       << padLeft(percentText(mm2 / total), kPercent) << padLeft(significant(mw, 3) + " mW", kNumber) << "\n";
  }
  os << "  " << padRight("total", kLabel - 3) << padLeft(significant(total, 3), kNumber)
     << padLeft(percentText(1.0), kPercent) << padLeft(significant(run.leakageMw(), 3) + " mW", kNumber)
     << "\n";
}

// The chip by the categories publications use: area, dynamic power from the run's activity,
// leakage; then the off-die energy (DRAM, host) as power, and what is not modeled.
void writeCategories(const sim::RunStats& run, std::ostream& os) {
  const std::vector<sim::CategoryRow> rows = sim::byCategory(run);
  if (rows.empty() || run.seconds() <= 0) return;
  const double total = run.powerW();
  os << "\n" << padRight("Power by category", kLabel - 1) << padLeft("mm2", kNumber)
     << padLeft("dynamic", kNumber) << padLeft("leakage", kNumber) << padLeft("%", kPercent) << "\n";
  for (const sim::CategoryRow& r : rows) {
    const std::string name = r.on_die ? r.category : r.category + " (off chip)";
    os << "  " << padRight(name, kLabel - 3)
       << padLeft(r.on_die ? significant(r.area_mm2, 3) : "-", kNumber)
       << padLeft(engWatts(r.dynamic_w), kNumber)
       << padLeft(r.on_die ? engWatts(r.leakage_w) : "-", kNumber)
       << padLeft(percentText(total > 0 ? (r.dynamic_w + r.leakage_w) / total : 0), kPercent) << "\n";
  }
  os << "  not modeled: " << arch::kNotModeled << "\n";
}

// Fused groups, one line per kind and schedule (identical layers share one), with what fusing
// saved against the epilogue plan of the same ops.
void writeGroups(const sim::RunStats& run, std::ostream& os) {
  if (run.fusion_groups.empty()) return;
  struct Line {
    std::string label;
    int count = 0;
    double cycles = 0, epilogue_cycles = 0;
    int64_t bytes = 0, epilogue_bytes = 0;
    int64_t macs = 0, epilogue_macs = 0;
  };
  std::vector<Line> lines;
  for (const sim::GroupRecord& g : run.fusion_groups) {
    std::string label = g.kind + " " + g.schedule + " " + std::to_string(g.block_rows) + "x" +
                        std::to_string(g.block_cols);
    if (!g.resident.empty()) label += ", resident " + g.resident;
    if (!g.partials.empty()) label += ", partial sums in " + g.partials;
    auto it = std::find_if(lines.begin(), lines.end(), [&](const Line& l) { return l.label == label; });
    if (it == lines.end()) it = lines.insert(lines.end(), Line{label});
    it->count += 1;
    it->cycles += g.cycles;
    it->epilogue_cycles += g.epilogue_cycles;
    it->bytes += g.offchip_bytes;
    it->epilogue_bytes += g.epilogue_offchip_bytes;
    it->macs += g.macs;
    it->epilogue_macs += g.epilogue_macs;
  }
  os << "\nFused groups (off-chip bytes: DRAM + L2; against --fusion epilogue)\n";
  for (const Line& l : lines) {
    os << "  " << l.count << " x " << l.label << ": " << withCommas(static_cast<int64_t>(l.cycles))
       << " cycles (epilogue " << withCommas(static_cast<int64_t>(l.epilogue_cycles)) << "), "
       << binaryBytes(l.bytes) << " off chip (epilogue " << binaryBytes(l.epilogue_bytes) << ")";
    if (l.macs > l.epilogue_macs && l.epilogue_macs > 0) {  // a conv chain's recomputed halos
      os << ", "
         << percentText(static_cast<double>(l.macs - l.epilogue_macs) /
                        static_cast<double>(l.epilogue_macs))
         << " % more MACs";
    }
    os << "\n";
  }
}

}  // namespace

void writeTable(const sim::RunStats& run, std::ostream& os, const TableOptions& options) {
  writeHeader(run, os);
  writeTotals(run, os);
  writeClasses(run, os);
  writeCauses(run, os);
  writeWaits(run, os);
  writeLevels(run, os);
  writeEnergy(run, os);
  writeArea(run, os);
  writeCategories(run, os);
  writeGroups(run, os);
  if (options.top_n != 0) writeTopOps(run, os, options.top_n, options.width);
  if (options.accesses) writeAccesses(run, os);
}

std::string tableString(const sim::RunStats& run, const TableOptions& options) {
  std::ostringstream os;
  writeTable(run, os, options);
  return os.str();
}

}  // namespace tessel::reports
