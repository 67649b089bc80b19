#include "sim/stats.h"

#include <algorithm>

#include "util/checked.h"

namespace tessel::sim {

std::string_view nameOf(Cause c) {
  // snake_case: these names are JSON keys and CSV column suffixes.
  switch (c) {
    case Cause::Compute:
      return "compute";
    case Cause::FillDrain:
      return "fill_drain";
    case Cause::MemoryStall:
      return "memory_stall";
    case Cause::Noc:
      return "noc";
    case Cause::Sfu:
      return "sfu";
    case Cause::Host:
      return "host";
  }
  return "?";
}

std::string_view nameOf(Operand r) {
  switch (r) {
    case Operand::Input:
      return "input";
    case Operand::Weight:
      return "weight";
    case Operand::Output:
      return "output";
  }
  return "?";
}

std::string_view nameOf(Placement p) {
  switch (p) {
    case Placement::Array:
      return "array";
    case Placement::Sfu:
      return "sfu";
    case Placement::Host:
      return "host";
    case Placement::Fused:
      return "fused";
  }
  return "?";
}

bool LevelAccesses::listed(int t) const {
  const auto i = static_cast<size_t>(t);
  return holds[i] || read_bytes[i] > 0 || fill_bytes[i] > 0 || update_bytes[i] > 0;
}

int64_t LevelTraffic::total() const {
  int64_t sum = 0;
  for (int i = 0; i < kNumOperands; ++i) {
    sum = checked::add(sum, read_bytes[i], [&] { return "the bytes at " + level; });
    sum = checked::add(sum, write_bytes[i], [&] { return "the bytes at " + level; });
  }
  return sum;
}

double OpStats::energyTotal() const {
  double sum = 0;
  for (const auto& [component, pj] : energy_pj) sum += pj;
  return sum;
}

int64_t OpStats::bytesAt(std::string_view level) const {
  // Sums every entry for the level, in case an engine reports one level in several parts.
  int64_t sum = 0;
  for (const LevelTraffic& t : traffic) {
    if (t.level == level)
      sum = checked::add(sum, t.total(), [&] { return "the bytes at " + t.level; });
  }
  return sum;
}

// The run's time is the sum of its ops' time: the schedule has already charged any overlap
// to the ops, so every breakdown below adds up to this total by construction.
double RunStats::totalCycles() const {
  double sum = 0;
  for (const OpStats& op : ops) sum += op.cycles;
  return sum;
}

int64_t RunStats::totalMacs() const {
  int64_t sum = 0;
  for (const OpStats& op : ops) sum = checked::add(sum, op.macs, "the run's MACs");
  return sum;
}

double RunStats::dynamicEnergyPj() const {
  double sum = 0;
  for (const OpStats& op : ops) sum += op.energyTotal();
  return sum;
}

double RunStats::arrayCycles() const {
  double sum = 0;
  for (const OpStats& op : ops) {
    sum += op.cycles_by_cause[static_cast<size_t>(Cause::Compute)] +
           op.cycles_by_cause[static_cast<size_t>(Cause::FillDrain)];
  }
  return sum;
}

double RunStats::clockedPjPerCycle() const {
  double sum = 0;
  for (const Clocked& c : clocked) sum += c.while_computing ? 0 : c.pj_per_cycle;
  return sum;
}

double RunStats::clockedWhileComputingPj() const {
  double per_cycle = 0;
  for (const Clocked& c : clocked) per_cycle += c.while_computing ? c.pj_per_cycle : 0;
  return per_cycle * arrayCycles();
}

double RunStats::clockedEnergyPj() const { return clockedPjPerCycle() * totalCycles() + clockedWhileComputingPj(); }

double RunStats::energyTotalPj() const { return dynamicEnergyPj() + clockedEnergyPj() + staticEnergyPj(); }

double RunStats::leakageMw() const {
  double sum = 0;
  for (const auto& [component, mw] : leakage_mw) sum += mw;
  return sum;
}

// mW x s = 1e-3 J = 1e9 pJ.
double RunStats::staticEnergyPj() const { return leakageMw() * seconds() * 1e9; }

std::vector<std::pair<std::string, double>> RunStats::staticEnergyByComponent() const {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [component, mw] : leakage_mw) out.emplace_back(component, mw * seconds() * 1e9);
  return out;
}

double RunStats::areaMm2() const {
  double sum = 0;
  for (const auto& [component, mm2] : area_mm2) sum += mm2;
  return sum;
}

double RunStats::powerW() const {
  const double s = seconds();
  return s > 0 ? energyTotalPj() * 1e-12 / s : 0.0;
}

double RunStats::chipPowerW() const {
  const double s = seconds();
  if (s <= 0) return 0;
  double off_chip = 0;
  for (const auto& [component, pj] : energyByComponent()) {
    if (component == "host" || (!level_names.empty() && component == level_names.front())) off_chip += pj;
  }
  return (energyTotalPj() - off_chip) * 1e-12 / s;
}

double RunStats::energyPerMacPj() const {
  const int64_t macs = totalMacs();
  return macs > 0 ? energyTotalPj() / static_cast<double>(macs) : 0.0;
}

double RunStats::tops() const {
  const double s = seconds();
  return s > 0 ? 2.0 * static_cast<double>(totalMacs()) / s * 1e-12 : 0.0;
}

double RunStats::peakTops() const { return 2.0 * peak_macs_per_cycle * clock_hz * 1e-12; }

// 2 x MACs / (pJ x 1e-12) ops per joule = ops/s per watt; / 1e12 for tera.
double RunStats::topsPerW() const {
  const double e = energyTotalPj();
  return e > 0 ? 2.0 * static_cast<double>(totalMacs()) / e : 0.0;
}

double RunStats::topsPerMm2() const {
  const double a = areaMm2();
  return a > 0 ? tops() / a : 0.0;
}

namespace {

// One per-op byte count summed over the run, checked against overflow.
int64_t sumOf(const std::vector<OpStats>& ops, int64_t OpStats::*count, const char* what) {
  int64_t sum = 0;
  for (const OpStats& op : ops) sum = checked::add(sum, op.*count, what);
  return sum;
}

}  // namespace

int64_t RunStats::registerFileBytes() const {
  return sumOf(ops, &OpStats::register_file_bytes, "the RF bytes");
}

RunStats::SparseTotals RunStats::sparseTotals() const {
  SparseTotals t;
  for (const OpStats& op : ops) {
    t.any = t.any || op.sparsity.sparse;
    t.performed_macs += op.sparsity.sparse ? op.sparsity.effective_macs : static_cast<double>(op.macs);
    t.gated_macs += op.sparsity.gated_macs;
    t.metadata_bytes += op.sparsity.metadata_bytes;
  }
  return t;
}

int64_t RunStats::nocBytes() const { return sumOf(ops, &OpStats::noc_bytes, "the NoC bytes"); }

std::vector<std::pair<std::string, double>> RunStats::energyByComponent() const {
  std::vector<std::pair<std::string, double>> sums;
  const auto add = [&sums](const std::string& component, double pj) {
    auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& e) { return e.first == component; });
    if (it == sums.end()) {
      sums.emplace_back(component, pj);
    } else {
      it->second += pj;
    }
  };
  for (const OpStats& op : ops) {
    for (const auto& entry : op.energy_pj) add(entry.first, entry.second);
  }
  const double all = totalCycles(), computing = arrayCycles();
  for (const Clocked& c : clocked) add(c.component, c.pj_per_cycle * (c.while_computing ? computing : all));
  sums.emplace_back("static", staticEnergyPj());
  return sums;
}

std::array<double, kNumOperands> RunStats::energyByOperand() const {
  std::array<double, kNumOperands> sums{};
  for (const OpStats& op : ops) {
    for (int t = 0; t < kNumOperands; ++t) sums[t] += op.energy_by_operand_pj[t];
  }
  return sums;
}

// The cycle-weighted mean of the ops' utilizations: each is against the peak of its own dtype
// (rows x cols x MACs per PE per cycle), so the run's never exceeds 1 either.
double RunStats::utilization() const {
  double busy = 0, cycles = 0;
  for (const OpStats& op : ops) {
    busy += op.utilization * op.cycles;
    cycles += op.cycles;
  }
  return cycles > 0 ? busy / cycles : 0.0;
}

int64_t RunStats::bytesAt(std::string_view level) const {
  int64_t sum = 0;
  for (const OpStats& op : ops) {
    sum = checked::add(sum, op.bytesAt(level),
                       [&] { return "the run's bytes at " + std::string(level); });
  }
  return sum;
}

std::array<double, kNumCauses> RunStats::cyclesByCause() const {
  std::array<double, kNumCauses> sum{};
  for (const OpStats& op : ops) {
    for (int c = 0; c < kNumCauses; ++c) sum[c] += op.cycles_by_cause[c];
  }
  return sum;
}

std::vector<std::pair<models::OpClass, double>> RunStats::cyclesByClass() const {
  constexpr int kNumClasses = static_cast<int>(models::OpClass::Other) + 1;
  std::vector<std::pair<models::OpClass, double>> rows;
  rows.reserve(kNumClasses);
  for (int c = 0; c < kNumClasses; ++c) rows.emplace_back(static_cast<models::OpClass>(c), 0.0);
  for (const OpStats& op : ops) rows.at(static_cast<size_t>(op.op_class)).second += op.cycles;
  return rows;
}

}  // namespace tessel::sim
