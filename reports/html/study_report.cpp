#include "reports/html/study_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "reports/html/palette.h"
#include "reports/html/sweep_input.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

const char* kClasses[] = {"MatMul",      "Conv",        "Softmax", "LayerNorm", "GELU",
                          "ResidualAdd", "QuantDequant", "Pool",    "Layout",    "Activation",
                          "Elementwise", "RoPE",        "Reduce",  "Routing",   "Other"};

std::string param(const SweepPoint& p, const char* key) {
  return p.params.contains(key) ? scalarText(p.params[key]) : "";
}

double metric(const SweepPoint& p, const char* key) {
  return p.ok && p.metrics.contains(key) ? p.metrics[key].get<double>() : NAN;
}

double classCycles(const SweepPoint& p, const char* cls) {
  return p.ok && p.metrics.contains("by_class") && p.metrics["by_class"].contains(cls)
             ? p.metrics["by_class"][cls].get<double>()
             : 0.0;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string ratioText(double r) { return std::isfinite(r) ? fixed(r, 2) + "x" : "-"; }

// The steps sweep's points grouped by (workload, seq), each group in design order.
struct Group {
  std::string workload, seq;
  std::vector<const SweepPoint*> steps;
};

std::vector<Group> groups(const SweepData& d) {
  std::vector<Group> out;
  std::map<std::pair<std::string, std::string>, size_t> at;
  for (const SweepPoint& p : d.points) {
    const auto key = std::make_pair(param(p, "workload"), param(p, "workload.seq"));
    auto it = at.find(key);
    if (it == at.end()) {
      it = at.emplace(key, out.size()).first;
      out.push_back({key.first, key.second, {}});
    }
    out[it->second].steps.push_back(&p);
  }
  return out;
}

Table stepsTable(const std::vector<Group>& gs) {
  Table t{"steps", "Latency per step", {{"workload", false}, {"seq", true}, {"design", false},
          {"cycles", true}, {"matmul cycles", true}, {"matmul utilization", true},
          {"QuantDequant cycles", true}, {"softmax+layernorm+gelu cycles", true},
          {"speedup vs previous step", true}, {"matmul speedup vs previous step", true},
          {"status", false}}, {}};
  for (const Group& g : gs) {
    const SweepPoint* prev = nullptr;
    for (const SweepPoint* p : g.steps) {
      const double nonlinear = classCycles(*p, "Softmax") + classCycles(*p, "LayerNorm") + classCycles(*p, "GELU");
      const double total = metric(*p, "cycles"), mm = metric(*p, "matmul_cycles");
      const double speed = prev ? metric(*prev, "cycles") / total : NAN;
      const double mm_speed = prev ? metric(*prev, "matmul_cycles") / mm : NAN;
      if (!p->ok) {
        std::vector<Cell> row = {textCell(g.workload), textCell(g.seq), textCell(param(*p, "arch"))};
        while (row.size() + 1 < t.columns.size()) row.push_back(textCell("-"));
        row.push_back(textCell("refused: " + p->error));
        t.addRow(std::move(row));
        prev = nullptr;
        continue;
      }
      t.addRow({textCell(g.workload), textCell(g.seq), textCell(param(*p, "arch")),
                numberCell(total, humanCycles(total)), numberCell(mm, humanCycles(mm)),
                numberCell(metric(*p, "matmul_utilization"), fixed(metric(*p, "matmul_utilization") * 100, 1) + "%"),
                numberCell(classCycles(*p, "QuantDequant"), humanCycles(classCycles(*p, "QuantDequant"))),
                numberCell(nonlinear, humanCycles(nonlinear)),
                prev ? numberCell(speed, ratioText(speed)) : textCell("-"),
                prev ? numberCell(mm_speed, ratioText(mm_speed)) : textCell("-"), textCell("ok")});
      prev = p->ok ? p : nullptr;
    }
  }
  return t;
}

// One stacked bar per (seq, step) of a workload, split by op class.
Chart breakdownChart(const std::string& workload, const std::vector<Group>& gs, size_t n) {
  StackedBars c;
  c.id = "study-breakdown-" + std::to_string(n);
  c.unit = metricUnit("cycles");
  for (const char* cls : kClasses) c.legend.push_back({cls, classColor(cls)});
  for (const Group& g : gs) {
    if (g.workload != workload) continue;
    for (size_t i = 0; i < g.steps.size(); ++i) {
      const SweepPoint* p = g.steps[i];
      if (!p->ok) continue;
      StackedBars::Row row{"seq " + g.seq + " · step " + std::to_string(i), {}};
      for (const char* cls : kClasses) {
        const double v = classCycles(*p, cls);
        row.segments.push_back({cls, classColor(cls), {v, param(*p, "arch") + ", seq " + g.seq + ", " + cls + ": " + humanCycles(v),
                                                  {{"class", cls}, {"design", param(*p, "arch")},
                                                   {"seq", g.seq}, {"cycles", exactNumber(v)}}}});
      }
      c.rows.push_back(std::move(row));
    }
  }
  return {c.id, workload + ": cycles by op class at each step", stackedBarsSvg(c),
          "Each bar is one step (design) at one sequence length; segments are op classes; hover for the design."};
}

// Notes naming the speedups between consecutive steps.
std::vector<Note> speedupNotes(const std::vector<Group>& gs) {
  std::vector<Note> notes;
  for (const Group& g : gs) {
    for (size_t i = 1; i < g.steps.size(); ++i) {
      const SweepPoint &a = *g.steps[i - 1], &b = *g.steps[i];
      if (!a.ok || !b.ok) continue;
      const double total = metric(a, "cycles") / metric(b, "cycles");
      const double mm = metric(a, "matmul_cycles") / metric(b, "matmul_cycles");
      notes.push_back({g.workload + " seq " + g.seq + ": " + param(a, "arch") + " -> " + param(b, "arch") +
                           ": end to end " + ratioText(total) + ", matmuls " + ratioText(mm) +
                           " (QuantDequant " + humanCycles(classCycles(a, "QuantDequant")) + " -> " +
                           humanCycles(classCycles(b, "QuantDequant")) + ")",
                       "speedup-" + g.workload + "-" + g.seq + "-" + std::to_string(i),
                       {{"from", param(a, "arch")}, {"to", param(b, "arch")},
                        {"speedup", exactNumber(total)}, {"matmul-speedup", exactNumber(mm)}}});
    }
  }
  return notes;
}

// Matmul utilization over the grid's last two swept keys, per workload.
std::vector<Chart> gridCharts(const SweepData& d) {
  std::vector<Chart> charts;
  std::vector<std::string> keys;
  for (const auto& k : d.meta["keys"]) {
    const std::string key = k.get<std::string>();
    if (key != "workload" && key.rfind("workload.", 0) != 0 && key != "arch") keys.push_back(key);
  }
  if (keys.size() < 2) return charts;
  const std::string& xk = keys[keys.size() - 1];
  const std::string& yk = keys[keys.size() - 2];
  std::map<std::string, std::vector<const SweepPoint*>> by_workload;
  for (const SweepPoint& p : d.points) by_workload[param(p, "workload")].push_back(&p);
  for (const auto& [workload, points] : by_workload) {
    Heatmap h;
    h.id = "study-grid-" + std::to_string(charts.size());
    h.x_label = xk, h.y_label = yk, h.unit = metricUnit("matmul_utilization");
    std::map<double, std::string> xs, ys;
    for (const SweepPoint* p : points) {
      xs[p->numeric.value(xk, 0.0)] = param(*p, xk.c_str());
      ys[p->numeric.value(yk, 0.0)] = param(*p, yk.c_str());
    }
    for (const auto& [v, t] : xs) h.x_ticks.push_back(t);
    for (const auto& [v, t] : ys) h.y_ticks.push_back(t);
    for (const SweepPoint* p : points) {
      if (!p->ok) continue;
      const double u = metric(*p, "matmul_utilization");
      const int x = static_cast<int>(std::distance(xs.begin(), xs.find(p->numeric.value(xk, 0.0))));
      const int y = static_cast<int>(std::distance(ys.begin(), ys.find(p->numeric.value(yk, 0.0))));
      h.cells.push_back({x, y, {u, yk + "=" + param(*p, yk.c_str()) + ", " + xk + "=" +
                                       param(*p, xk.c_str()) + ": matmul utilization " +
                                       fixed(u * 100, 1) + "%, matmul " +
                                       humanCycles(metric(*p, "matmul_cycles")),
                                {{"x", param(*p, xk.c_str())}, {"y", param(*p, yk.c_str())},
                                 {"utilization", exactNumber(u)},
                                 {"matmul-cycles", exactNumber(metric(*p, "matmul_cycles"))}}}});
    }
    charts.push_back({h.id, workload + ": matmul utilization over " + yk + " x " + xk, heatmapSvg(h),
                      "Darker is higher. Failed points are left blank."});
  }
  return charts;
}

// The speedups of each step on the (workload, seq) that takes longest at step 0.
std::vector<Headline> headlines(const std::vector<Group>& gs) {
  const Group* big = nullptr;
  for (const Group& g : gs) {
    const bool all_ok = std::all_of(g.steps.begin(), g.steps.end(), [](const SweepPoint* p) { return p->ok; });
    if (all_ok && !g.steps.empty() && (!big || metric(*g.steps[0], "cycles") > metric(*big->steps[0], "cycles"))) big = &g;
  }
  std::vector<Headline> out;
  if (!big) return out;
  for (size_t i = 1; i < big->steps.size(); ++i) {
    const SweepPoint &a = *big->steps[i - 1], &b = *big->steps[i];
    const std::string when = " (" + big->workload + ", seq " + big->seq + ")";
    const double total = metric(a, "cycles") / metric(b, "cycles");
    const double mm = metric(a, "matmul_cycles") / metric(b, "matmul_cycles");
    const std::string step = "step " + std::to_string(i - 1) + " -> " + std::to_string(i);
    out.push_back({"speedup-" + std::to_string(i), "End to end, " + step + when, ratioText(total), exactNumber(total)});
    out.push_back({"matmul-speedup-" + std::to_string(i), "Matmuls, " + step + when, ratioText(mm), exactNumber(mm)});
  }
  return out;
}

}  // namespace

Report studyReport(const std::string& dir, const StudyText& text) {
  const SweepData steps = readSweep(dir + "/steps");
  const SweepData grid = readSweep(dir + "/grid");
  Report r;
  r.title = text.title;
  r.kind = "study";
  r.source = dir;
  r.metadata = {{"steps", dir + "/steps (" + std::to_string(steps.points.size()) + " points)"},
                {"grid", dir + "/grid (" + std::to_string(grid.points.size()) + " points)"}};
  const std::vector<Group> gs = groups(steps);
  r.headlines = headlines(gs);
  r.tables.push_back(stepsTable(gs));
  Section s{"steps", "Step by step", {}, {}, {"steps"}};
  if (!text.description.empty()) s.notes.push_back({text.description, "", {}});
  for (Note& n : speedupNotes(gs)) s.notes.push_back(std::move(n));
  std::set<std::string> seen;
  for (const Group& g : gs) {
    if (seen.insert(g.workload).second) s.charts.push_back(breakdownChart(g.workload, gs, seen.size()));
  }
  r.sections.push_back(std::move(s));
  r.sections.push_back({"grid", "Matmul utilization around the designs", {}, gridCharts(grid), {}});
  Section why{"mechanisms", "What produces each change, and where model and publication differ", {}, {}, {}};
  for (const auto& [heading, paragraph] : text.notes) why.notes.push_back({heading + ": " + paragraph, "", {}});
  r.sections.push_back(std::move(why));
  return r;
}

}  // namespace tessel::reports::html
