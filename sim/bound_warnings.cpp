#include "sim/bound_warnings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace tessel::sim {

namespace {

namespace nest = dataflows::nest;

// "96.2%", "0.439%", "0.0488%": three significant digits.
std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g%%", 100 * fraction);
  return buf;
}

// "depthwise: ", "grouped (4 groups): " or "": what kind of layer, when that is the reason.
std::string kindOf(const nest::Problem& p) {
  using nest::Dim;
  if (p.gemm || p.of(Dim::G) <= 1) return "";
  if (p.of(Dim::C) == 1 && p.of(Dim::K) == 1) return "depthwise: ";
  return "grouped (" + std::to_string(p.of(Dim::G)) + " groups): ";
}

// "depthwise: 9 of 64 rows and 1 of 32 columns usable under dataflow ws (rows take C=1 R=3 S=3,
// columns K=1; G=96 has no place on the array): at most 0.439% of the array's MACs".
std::string shapeText(const dataflows::OpPlan& plan) {
  const nest::Bound& b = plan.mapping.bound;
  const std::string what = b.unused.empty() ? "at best " + b.spatial : b.unused;
  const std::string why = b.unused_why.empty() ? "" : " (" + b.unused_why + ")";
  return kindOf(plan.problem.loops) + what + " under dataflow " + plan.mapping.dataflow + why +
         ": at most " + percent(b.share) + " of the array's MACs";
}

// "25.0x the bound of dataflow os (376536 cycles, unrolling rows P:8  cols -); its cycles
// beyond compute: memory_stall 96.2%, fill_drain 3.15%". Compute is the ideal's share (at
// most the bound), so what binds is among the other causes: the two largest are named.
std::string gapText(const dataflows::OpPlan& plan, const OpStats& op) {
  const dataflows::Mapping& m = plan.mapping;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.1fx", 1 + m.gap);
  std::string text = std::string(ratio) + " the bound of dataflow " + m.dataflow + " (" +
                     std::to_string(std::llround(m.bound.cycles)) + " cycles, unrolling " +
                     m.bound.spatial + ")";
  std::vector<int> causes;
  for (int c = 0; c < kNumCauses; ++c) {
    if (static_cast<Cause>(c) != Cause::Compute &&
        op.cycles_by_cause[size_t(c)] >= 0.01 * op.cycles) {
      causes.push_back(c);
    }
  }
  std::stable_sort(causes.begin(), causes.end(), [&](int a, int b) {
    return op.cycles_by_cause[size_t(a)] > op.cycles_by_cause[size_t(b)];
  });
  if (causes.size() > 2) causes.resize(2);
  std::string list;
  for (int c : causes) {
    list += (list.empty() ? "" : ", ") + std::string(nameOf(static_cast<Cause>(c))) + " " +
            percent(op.cycles_by_cause[size_t(c)] / op.cycles);
  }
  return text + "; its cycles beyond compute: " + (list.empty() ? "none above 1%" : list);
}

struct Finding {
  std::string text;   // without the op's name
  std::string first;  // the first op it was found for
  int more = 0;       // further ops with the same text (identical layers)
};

void add(std::vector<Finding>& found, const std::string& op, std::string text) {
  for (Finding& f : found) {
    if (f.text == text) {
      ++f.more;
      return;
    }
  }
  found.push_back({std::move(text), op, 0});
}

}  // namespace

std::vector<std::string> boundWarnings(const std::vector<dataflows::OpPlan>& plans,
                                       const std::vector<OpStats>& ops) {
  std::vector<Finding> found;
  for (size_t i = 0; i < plans.size() && i < ops.size(); ++i) {
    const dataflows::OpPlan& plan = plans[i];
    const dataflows::Mapping& m = plan.mapping;
    // Only searched mappings carry a bound (a heuristic's or a pinned mapping has none: no steps).
    if (plan.placement != dataflows::Placement::Array || !m.has_nest || m.evaluated <= 0 ||
        m.bound.steps <= 0) {
      continue;
    }
    // At most 1/8, with room for rounding: one row in eight is named.
    if (m.bound.share <= kSmallArrayShare * (1 + 1e-9)) add(found, plan.op->name, shapeText(plan));
    if (1 + m.gap > kFarFromBound && ops[i].cycles > 0) {
      add(found, plan.op->name, gapText(plan, ops[i]));
    }
  }
  std::vector<std::string> out;
  for (const Finding& f : found) {
    const std::string also = f.more == 0 ? "" : " and " + std::to_string(f.more) + " more like it";
    out.push_back(f.first + also + ": " + f.text);
  }
  return out;
}

}  // namespace tessel::sim
