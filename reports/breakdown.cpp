#include "reports/breakdown.h"

#include <algorithm>

namespace tessel::reports {
namespace {

double fractionOf(double part, double total) { return total > 0 ? part / total : 0.0; }

}  // namespace

std::vector<ClassRow> byClass(const sim::RunStats& run) {
  const double total = run.totalCycles();
  std::vector<ClassRow> rows;
  for (const auto& [op_class, cycles] : run.cyclesByClass()) {
    rows.push_back({op_class, cycles, fractionOf(cycles, total), 0});
  }
  for (const sim::OpStats& op : run.ops) {
    ClassRow& row = rows.at(static_cast<size_t>(op.op_class));
    row.ops += 1;
    const double macs = static_cast<double>(op.macs);
    row.macs += macs;
    row.performed_macs += op.sparsity.sparse ? op.sparsity.effective_macs : macs;
    row.gated_macs += op.sparsity.gated_macs;
  }
  return rows;
}

std::vector<CauseRow> byCause(const sim::RunStats& run) {
  const double total = run.totalCycles();
  const auto cycles = run.cyclesByCause();
  std::vector<CauseRow> rows;
  for (int c = 0; c < sim::kNumCauses; ++c) {
    rows.push_back({static_cast<sim::Cause>(c), cycles[c], fractionOf(cycles[c], total)});
  }
  return rows;
}

std::vector<const sim::OpStats*> topOps(const sim::RunStats& run, int n) {
  std::vector<const sim::OpStats*> ops;
  for (const sim::OpStats& op : run.ops) {
    if (op.cycles > 0) ops.push_back(&op);
  }
  // Stable sort on cycles alone keeps graph order (op id order) among equals.
  std::stable_sort(ops.begin(), ops.end(), [](const sim::OpStats* a, const sim::OpStats* b) {
    return a->cycles > b->cycles;
  });
  if (n >= 0 && ops.size() > static_cast<size_t>(n)) ops.resize(static_cast<size_t>(n));
  return ops;
}

int64_t dramBytes(const sim::RunStats& run) {
  return run.level_names.empty() ? 0 : run.bytesAt(run.level_names.front());
}

}  // namespace tessel::reports
