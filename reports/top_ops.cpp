#include "reports/top_ops.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "reports/breakdown.h"
#include "reports/format.h"

namespace tessel::reports {
namespace {

// Column widths of the fixed columns (each cell is followed by one space).
constexpr int kRank = 4, kClass = 12, kPlace = 5, kCycles = 12, kPercent = 8, kCause = 12;
// Everything on a line except the name and mapping cells.
constexpr int kFixed =
    2 + kRank + 1 + kClass + 1 + kPlace + 1 + kCycles + kPercent + kPercent + 2 + kCause + 1;
constexpr int kMinName = 12, kMaxName = 32, kMinMapping = 16;

struct Widths {
  int name = kMinName;
  int mapping = kMinMapping;
};

// Names get what they need up to kMaxName; the mapping gets the rest; when the line is too
// narrow, names give back space down to kMinName before the mapping drops below its minimum.
// The mapping, last on the line, is printed whole even past the width.
Widths fit(const std::vector<const sim::OpStats*>& ops, int width) {
  int longest = 4;
  for (const sim::OpStats* op : ops) longest = std::max(longest, static_cast<int>(op->name.size()));
  Widths w;
  w.name = std::min(longest, kMaxName);
  const int shortfall = kMinMapping - (width - kFixed - (w.name + 1));
  if (shortfall > 0) w.name = std::max(std::min(w.name, kMinName), w.name - shortfall);
  w.mapping = std::max(kMinMapping, width - kFixed - (w.name + 1));
  return w;
}

// rank, name, class, placement, cycles, %, util%, cause, mapping
using Cells = std::array<std::string, 9>;

void writeRow(std::ostream& os, const Widths& w, const Cells& cells) {
  std::string line = "  " + padLeft(cells[0], kRank) + " " + padRight(cells[1], w.name) +
                     padRight(cells[2], kClass) + padRight(cells[3], kPlace) +
                     padLeft(cells[4], kCycles) + padLeft(cells[5], kPercent) +
                     padLeft(cells[6], kPercent) + "  " + padRight(cells[7], kCause) +
                     cells[8];  // the mapping is never cut: it is what the row is for
  line.erase(line.find_last_not_of(' ') + 1);  // an empty mapping leaves trailing blanks
  os << line << "\n";
}

}  // namespace

void writeTopOps(const sim::RunStats& run, std::ostream& os, int top_n, int width) {
  const std::vector<const sim::OpStats*> ops = topOps(run, top_n);
  if (ops.empty()) return;
  const Widths w = fit(ops, width);
  const double total = run.totalCycles();
  os << "\nTop " << std::to_string(ops.size()) << " ops by cycles\n";
  const Cells header = {"#", "name", "class", "place", "cycles", "%", "util%", "cause", "mapping"};
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
                       std::string(sim::nameOf(dominantCause(*op))),
                       mappingShort(*op)};
    writeRow(os, w, row);
  }
}

}  // namespace tessel::reports
