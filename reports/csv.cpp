#include "reports/csv.h"

#include <sstream>

#include "reports/format.h"

namespace tessel::reports {
namespace {

void writeLine(std::ostream& os, const std::vector<std::string>& cells) {
  for (size_t i = 0; i < cells.size(); ++i) os << (i ? "," : "") << csvField(cells[i]);
  os << "\n";
}

std::vector<std::string> opCells(const sim::RunStats& run, const sim::OpStats& op) {
  std::vector<std::string> cells = {
      std::to_string(op.op_id),
      op.name,
      std::string(models::nameOf(op.kind)),
      std::string(models::nameOf(op.op_class)),
      std::string(sim::nameOf(op.placement)),
      std::to_string(op.fused_into),
      std::to_string(op.macs),
      quantityText(op.cycles),
  };
  for (double cycles : op.cycles_by_cause) cells.push_back(quantityText(cycles));
  for (const std::string& level : run.level_names) {
    cells.push_back(std::to_string(op.bytesAt(level)));
  }
  // The op's share of the leakage (the design's leakage over the op's cycles), and its average
  // power, dynamic and static.
  const double seconds = op.cycles / run.clock_hz;
  const double static_pj = run.leakageMw() * seconds * 1e9;
  cells.push_back(quantityText(op.energyTotal()));
  cells.push_back(ratioText(op.utilization));
  cells.push_back(mappingKv(op));
  cells.push_back(quantityText(static_pj));
  cells.push_back(quantityText(seconds > 0 ? (op.energyTotal() + static_pj) * 1e-12 / seconds : 0.0));
  cells.push_back(csvField(op.dtype));
  cells.push_back(csvField(op.weight_dtype));
  cells.push_back(csvField(op.fusion_group));
  return cells;
}

}  // namespace

std::vector<std::string> csvColumns(const sim::RunStats& run) {
  std::vector<std::string> columns = {"id",        "name",       "kind", "class",
                                      "placement", "fused_into", "macs", "cycles"};
  for (int c = 0; c < sim::kNumCauses; ++c) {
    columns.push_back("cycles_" + std::string(sim::nameOf(static_cast<sim::Cause>(c))));
  }
  for (const std::string& level : run.level_names) columns.push_back("bytes_" + level);
  // Columns are only appended (reports/SCHEMA.md): the silicon ones came after mapping.
  for (const char* tail : {"energy_pj", "utilization", "mapping", "static_energy_pj", "power_w", "dtype",
                           "weight_dtype", "fusion_group"}) {
    columns.push_back(tail);
  }
  return columns;
}

void writeCsv(const sim::RunStats& run, std::ostream& os) {
  writeLine(os, csvColumns(run));
  for (const sim::OpStats& op : run.ops) writeLine(os, opCells(run, op));
}

std::string csvString(const sim::RunStats& run) {
  std::ostringstream os;
  writeCsv(run, os);
  return os.str();
}

std::string csvField(std::string_view field) {
  const bool quote = field.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!quote) return std::string(field);
  std::string out = "\"";
  for (char ch : field) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

}  // namespace tessel::reports
