#include "reports/top_ops.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <vector>

#include "reports/breakdown.h"
#include "reports/format.h"

namespace tessel::reports {
namespace {

// Column widths of the fixed columns (each cell is followed by one space).
constexpr int kRank = 4, kClass = 12, kPlace = 5, kCycles = 12, kPercent = 8, kRatio = 8,
              kCause = 12;
// Everything on a line except the name and mapping cells and the bound's two ratio columns.
constexpr int kFixed =
    2 + kRank + 1 + kClass + 1 + kPlace + 1 + kCycles + kPercent + kPercent + 2 + kCause + 1;
constexpr int kMinName = 12, kMaxName = 32, kMinMapping = 16;

struct Widths {
  int name = kMinName;
  int mapping = kMinMapping;
  bool ratios = false;  // the gap and shape columns: only when a listed op has a searched mapping
};

// Names get what they need up to kMaxName; the mapping gets the rest; when the line is too
// narrow, names give back space down to kMinName before the mapping drops below its minimum.
// The mapping, last on the line, is printed whole even past the width.
Widths fit(const std::vector<const sim::OpStats*>& ops, int width) {
  int longest = 4;
  Widths w;
  for (const sim::OpStats* op : ops) {
    longest = std::max(longest, static_cast<int>(op->name.size()));
    w.ratios = w.ratios || !mappingValue(*op, "gap_to_bound").empty();
  }
  const int fixed = kFixed + (w.ratios ? 2 * kRatio : 0);
  w.name = std::min(longest, kMaxName);
  const int shortfall = kMinMapping - (width - fixed - (w.name + 1));
  if (shortfall > 0) w.name = std::max(std::min(w.name, kMinName), w.name - shortfall);
  w.mapping = std::max(kMinMapping, width - fixed - (w.name + 1));
  return w;
}

// rank, name, class, placement, cycles, %, util%, gap, shape, cause, mapping
using Cells = std::array<std::string, 11>;

void writeRow(std::ostream& os, const Widths& w, const Cells& cells) {
  std::string line = "  " + padLeft(cells[0], kRank) + " " + padRight(cells[1], w.name) +
                     padRight(cells[2], kClass) + padRight(cells[3], kPlace) +
                     padLeft(cells[4], kCycles) + padLeft(cells[5], kPercent) +
                     padLeft(cells[6], kPercent) +
                     (w.ratios ? padLeft(cells[7], kRatio) + padLeft(cells[8], kRatio) : "") +
                     "  " + padRight(cells[9], kCause) +
                     cells[10];  // the mapping is never cut: it is what the row is for
  line.erase(line.find_last_not_of(' ') + 1);  // an empty mapping leaves trailing blanks
  os << line << "\n";
}

// A searched mapping's ratio with two decimals ("24.00"), "-" for ops without one.
std::string ratioCell(const sim::OpStats& op, std::string_view key) {
  const std::string text = mappingValue(op, key);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return text.empty() || ec != std::errc() ? "-" : fixedText(v, 2);
}

}  // namespace

void writeTopOps(const sim::RunStats& run, std::ostream& os, int top_n, int width) {
  const std::vector<const sim::OpStats*> ops = topOps(run, top_n);
  if (ops.empty()) return;
  const Widths w = fit(ops, width);
  const double total = run.totalCycles();
  os << "\nTop " << std::to_string(ops.size()) << " ops by cycles\n";
  const Cells header = {"#",     "name", "class", "place", "cycles", "%",
                        "util%", "gap",  "shape", "cause", "mapping"};
  writeRow(os, w, header);
  int rank = 0;
  for (const sim::OpStats* op : ops) {
    const Cells row = {std::to_string(++rank),
                       op->name,
                       std::string(models::nameOf(op->op_class)),
                       std::string(sim::nameOf(op->placement)),
                       cyclesText(op->cycles),
                       percentText(total > 0 ? op->cycles / total : 0.0),
                       percentText(op->utilization),
                       ratioCell(*op, "gap_to_bound"),
                       ratioCell(*op, "array_shape_cost"),
                       std::string(sim::nameOf(dominantCause(*op))),
                       mappingShort(*op)};
    writeRow(os, w, row);
  }
}

}  // namespace tessel::reports
