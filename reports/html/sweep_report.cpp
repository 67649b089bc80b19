// The report of a sweep directory: per workload and per chosen metric, heatmaps and lines over
// the swept numeric keys (panels or series for the non-numeric ones), the best points, the
// latency-energy-area front; then every point with failures and their reasons.
#include <algorithm>
#include <cmath>

#include "reports/format.h"
#include "reports/html/build.h"
#include "reports/html/palette.h"
#include "reports/html/svg_axis.h"
#include "reports/html/sweep_charts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {

// Defined in sweep_tables.cpp.
Table pointsTable(const SweepData& d);
void addSweepHeader(Report& r, const SweepData& d);
std::vector<std::string> scalarMetrics(const SweepData& d);
std::vector<Note> summaryNotes(const SweepData& d);

namespace {

std::string workloadOf(const SweepPoint& p) {
  return p.params.contains("workload") ? scalarText(p.params["workload"]) : "";
}

// The workloads in first-seen order ("" when the sweep has no workload key).
std::vector<std::string> workloadsOf(const SweepData& d) {
  std::vector<std::string> names;
  for (const SweepPoint& p : d.points) {
    const std::string w = workloadOf(p);
    if (std::find(names.begin(), names.end(), w) == names.end()) names.push_back(w);
  }
  return names;
}

bool anyPositive(const SweepData& d, const std::string& metric) {
  return std::any_of(d.points.begin(), d.points.end(),
                     [&](const SweepPoint& p) { return p.ok && metricOf(p, metric) > 0; });
}

// The metrics charted: those asked for, else the latency, the energy and the area (when the
// points have one), else the first numeric metric.
std::vector<std::string> chosenMetrics(const SweepData& d, const std::string& dir,
                                       const ReportOptions& o) {
  const std::vector<std::string> have = scalarMetrics(d);
  auto has = [&](const std::string& m) {
    return std::find(have.begin(), have.end(), m) != have.end();
  };
  std::vector<std::string> v;
  for (const std::string& m : o.metrics) {
    if (!has(m)) {
      std::string list;
      for (const std::string& h : have) list += (list.empty() ? "" : ", ") + h;
      badInput(dir, "--metric " + m +
                        ": the sweep's points recorded no numeric metric of that "
                        "name; they have: " +
                        (list.empty() ? "none" : list));
    }
    if (std::find(v.begin(), v.end(), m) == v.end()) v.push_back(m);
  }
  if (!o.metrics.empty()) return v;
  if (has("cycles") || has("seconds")) v.push_back(has("cycles") ? "cycles" : "seconds");
  if (has("energy_pj")) v.push_back("energy_pj");
  if (has("area_mm2") && anyPositive(d, "area_mm2")) v.push_back("area_mm2");
  if (v.empty() && !have.empty()) v.push_back(have[0]);
  return v;
}

const SweepPoint* bestOf(const MetricView& m) {
  const SweepPoint* best = nullptr;
  for (const SweepPoint* p : m.ok) {
    if (!best || better(m.metric, metricOf(*p, m.metric), metricOf(*best, m.metric))) best = p;
  }
  return best;
}

Note bestNote(const MetricView& m, bool first) {
  const std::string id = m.w->prefix + "-best" + (first ? "" : "-" + m.metric);
  const SweepPoint* best = bestOf(m);
  if (!best) return {"No point of this workload ran.", id, {}};
  const double v = metricOf(*best, m.metric);
  return {
      "Best (" + std::string(higherIsBetter(m.metric) ? "highest " : "lowest ") + m.metric +
          "): point " + std::to_string(best->index) + ", " + paramsText(*best, m.w->all_keys) +
          ": " + unitText(metricUnit(m.metric), v) + ".",
      id,
      {{"index", std::to_string(best->index)}, {"metric", m.metric}, {"value", exactNumber(v)}}};
}

// How far the metric moves over the points: a spread of 0.002% is a flat chart, and says so.
Note rangeNote(const MetricView& m) {
  double lo = INFINITY, hi = -INFINITY;
  for (const SweepPoint* p : m.ok) {
    lo = std::min(lo, metricOf(*p, m.metric)), hi = std::max(hi, metricOf(*p, m.metric));
  }
  const Unit u = metricUnit(m.metric);
  const double spread = hi > 0 ? (hi - lo) / hi : 0;
  std::string text = m.metric + " ranges from " + unitText(u, lo) + " to " + unitText(u, hi) +
                     " over " + std::to_string(m.ok.size()) + " points";
  const std::string pct = significant(spread * 100, 2) + "%";
  if (spread < svgparts::kMinSpread) {
    text += ": they differ by " + pct + " at most, so its charts, drawn from 0, are nearly flat.";
  } else if (lo >= svgparts::kZoomFloor * hi) {
    text += ", " + pct +
            " apart: its charts may start above 0 (their axes then show a break), which makes "
            "the differences look larger than they are.";
  } else {
    text += ".";
  }
  return {text,
          m.prefix + "-range",
          {{"metric", m.metric},
           {"min", exactNumber(lo)},
           {"max", exactNumber(hi)},
           {"spread", exactNumber(spread)}}};
}

// The best-latency point's by_class and by_cause cycles as two bars, when the sweep recorded them.
std::vector<Chart> bestBreakdown(const MetricView& m) {
  const SweepPoint* best = bestOf(m);
  if (!best) return {};
  StackedBars c{m.w->prefix + "-best-breakdown", metricUnit("cycles"), {}, {}};
  using Color = std::string (*)(const std::string&);  // spelled out: clang cannot deduce it
  for (const auto& [map, color] :
       {std::pair<const char*, Color>{"by_class", classColor}, {"by_cause", causeColor}}) {
    if (!best->metrics.contains(map) || !best->metrics[map].is_object()) continue;
    const std::string key = std::string(map).substr(3);  // "class" or "cause"
    StackedBars::Row row{key == "class" ? "by op class" : "by cause", {}};
    for (const auto& [name, v] : best->metrics[map].items()) {
      if (!v.is_number()) continue;
      const double cyc = v.get<double>();
      row.segments.push_back({name,
                              color(name),
                              {cyc,
                               name + ": " + unitText(c.unit, cyc),
                               {{key, name}, {"cycles", exactNumber(cyc)}}}});
    }
    c.rows.push_back(std::move(row));
  }
  if (c.rows.empty()) return {};
  return {{c.id, "Where the best point's time goes", stackedBarsSvg(c),
           "Point " + std::to_string(best->index) + " (the best " + m.metric +
               ")'s cycles by op class and by cause, as far as the sweep recorded them."}};
}

std::string countText(const SweepData& d, const WorkloadView& w) {
  size_t failed = 0, total = 0;
  for (const SweepPoint& p : d.points) {
    if (workloadOf(p) != w.name) continue;
    ++total;
    failed += p.ok ? 0 : 1;
  }
  std::string s = std::to_string(total) + " points, " + std::to_string(failed) +
                  " failed (listed in the table of points, not plotted).";
  for (const std::string& k : w.category_keys) {
    s += " " + k + " takes values that are not numbers: each value gets its own panel or line.";
  }
  return s;
}

Section workloadSection(const SweepData& d, const std::vector<std::string>& metrics,
                        const std::string& name, size_t number, Table& pareto) {
  const WorkloadView w = workloadView(d, name, number);
  Section s{w.prefix, name.empty() ? "Sweep results" : "Workload " + name, {}, {}, {}};
  std::vector<MetricView> views;
  for (const std::string& m : metrics) views.push_back(metricView(w, m));
  if (views.empty()) views.push_back(metricView(w, "cycles"));
  for (size_t i = 0; i < views.size(); ++i) s.notes.push_back(bestNote(views[i], i == 0));
  s.notes.push_back({countText(d, w), "", {}});
  if (!views[0].ok.empty()) {
    for (Chart& c : bestBreakdown(views[0])) s.charts.push_back(std::move(c));
  }
  for (const MetricView& m : views) {
    if (m.ok.empty()) continue;
    s.notes.push_back(rangeNote(m));
    for (Chart& c : panelBars(m)) s.charts.push_back(std::move(c));
    for (Chart& c : heatmaps(m)) s.charts.push_back(std::move(c));
    for (Chart& c : linePlots(m)) s.charts.push_back(std::move(c));
  }
  for (Chart& c : paretoCharts(w, d.summary, pareto)) s.charts.push_back(std::move(c));
  return s;
}

}  // namespace

Report sweepReport(const std::string& dir, const ReportOptions& options) {
  try {
    const SweepData d = readSweep(dir);
    const std::vector<std::string> metrics = chosenMetrics(d, dir, options);
    Report r;
    r.kind = "sweep";
    r.source = dir;
    addSweepHeader(r, d);
    std::string shown;
    for (const std::string& m : metrics) shown += (shown.empty() ? "" : ", ") + m;
    r.metadata.emplace_back("metrics charted", shown.empty() ? "none" : shown);
    Table pareto{"pareto",
                 "Points on a Pareto front",
                 {{"workload", false},
                  {"front", false},
                  {"index", true},
                  {"params", false},
                  {"x", true},
                  {"y", true},
                  {"z", true}},
                 {}};
    const std::vector<Note> findings = summaryNotes(d);
    if (!findings.empty())
      r.sections.push_back({"findings", "What the sweep found", findings, {}, {}});
    const auto names = workloadsOf(d);
    for (size_t i = 0; i < names.size(); ++i) {
      r.sections.push_back(workloadSection(d, metrics, names[i], i, pareto));
    }
    r.tables.push_back(pointsTable(d));
    r.tables.push_back(std::move(pareto));
    r.sections.push_back({"points", "All points", {}, {}, {"points", "pareto"}});
    return r;
  } catch (const nlohmann::json::exception& e) {
    badInput(dir, std::string("not a sweep as `tessel sweep` writes it: ") + e.what());
  }
}

}  // namespace tessel::reports::html
