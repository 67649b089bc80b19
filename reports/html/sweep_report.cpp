// The report of a sweep directory: per workload, heatmaps and lines of the metric over the swept
// keys, Pareto fronts, the best point; then every point with failures and their reasons.
#include <algorithm>
#include <cmath>
#include <set>

#include "reports/html/build.h"
#include "reports/html/palette.h"
#include "reports/html/sweep_charts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

std::vector<std::string> keysOf(const SweepData& d) {
  std::vector<std::string> keys;
  for (const Json& k : d.meta["keys"]) keys.push_back(scalarText(k));
  return keys;
}

// The workloads in first-seen order ("" when the sweep has no workload key).
std::vector<std::string> workloadsOf(const SweepData& d) {
  std::vector<std::string> names;
  for (const SweepPoint& p : d.points) {
    const std::string w = p.params.contains("workload") ? scalarText(p.params["workload"]) : "";
    if (std::find(names.begin(), names.end(), w) == names.end()) names.push_back(w);
  }
  return names;
}

std::string workloadOf(const SweepPoint& p) {
  return p.params.contains("workload") ? scalarText(p.params["workload"]) : "";
}

WorkloadView viewOf(const SweepData& d, const std::string& name, size_t number) {
  WorkloadView w{name, "sweep-" + std::to_string(number), {}, {}, keysOf(d), "cycles"};
  std::vector<const SweepPoint*> ran;
  for (const SweepPoint& p : d.points) {
    if (p.ok && workloadOf(p) == name) ran.push_back(&p);
  }
  if (!ran.empty() && std::isnan(metricOf(*ran[0], "cycles"))) {
    for (const auto& [k, v] : ran[0]->metrics.items()) {
      if (v.is_number()) {
        w.metric = k;
        break;
      }
    }
  }
  for (const SweepPoint* p : ran) {
    if (!std::isnan(metricOf(*p, w.metric))) w.ok.push_back(p);
  }
  for (const std::string& k : w.all_keys) {
    std::set<double> values;
    bool all = !w.ok.empty();
    for (const SweepPoint* p : w.ok) {
      all = all && p->numeric.contains(k) && p->numeric[k].is_number();
      if (all) values.insert(p->numeric[k].get<double>());
    }
    if (all && values.size() > 1) w.keys.push_back(k);
  }
  return w;
}

const SweepPoint* bestOf(const WorkloadView& w) {
  const SweepPoint* best = nullptr;
  for (const SweepPoint* p : w.ok) {
    if (!best || metricOf(*p, w.metric) < metricOf(*best, w.metric)) best = p;
  }
  return best;
}

// The best point's by_class and by_cause cycles as two bars, when the sweep recorded them.
std::vector<Chart> bestBreakdown(const WorkloadView& w) {
  const SweepPoint* best = bestOf(w);
  if (!best) return {};
  StackedBars c{w.prefix + "-best-breakdown", "cycles", {}, {}};
  for (const auto& [map, color] : {std::pair{"by_class", classColor}, {"by_cause", causeColor}}) {
    if (!best->metrics.contains(map) || !best->metrics[map].is_object()) continue;
    const std::string key = std::string(map).substr(3);  // "class" or "cause"
    StackedBars::Row row{key == "class" ? "by op class" : "by cause", {}};
    for (const auto& [name, v] : best->metrics[map].items()) {
      if (!v.is_number()) continue;
      const double cyc = v.get<double>();
      row.segments.push_back({color(name),
                              {cyc,
                               name + ": " + metricText("cycles", cyc),
                               {{key, name}, {"cycles", exactNumber(cyc)}}}});
      c.legend.push_back({name, color(name)});
    }
    c.rows.push_back(std::move(row));
  }
  if (c.rows.empty()) return {};
  return {{c.id, "Where the best point's time goes", stackedBarsSvg(c),
           "Point " + std::to_string(best->index) +
               "'s cycles by op class and by cause, as far as the sweep recorded them."}};
}

Note bestNote(const WorkloadView& w) {
  const SweepPoint* best = bestOf(w);
  if (!best) return {"No point of this workload ran.", w.prefix + "-best", {}};
  const double v = metricOf(*best, w.metric);
  return {
      "Best (lowest " + w.metric + "): point " + std::to_string(best->index) + ", " +
          paramsText(*best, w.all_keys) + ": " + metricText(w.metric, v) + ".",
      w.prefix + "-best",
      {{"index", std::to_string(best->index)}, {"metric", w.metric}, {"value", exactNumber(v)}}};
}

Section workloadSection(const SweepData& d, const std::string& name, size_t number, Table& pareto) {
  const WorkloadView w = viewOf(d, name, number);
  Section s{w.prefix, name.empty() ? "Sweep results" : "Workload " + name, {}, {}, {}};
  s.notes.push_back(bestNote(w));
  size_t failed = 0, total = 0;
  for (const SweepPoint& p : d.points) {
    if (workloadOf(p) != name) continue;
    ++total;
    failed += p.ok ? 0 : 1;
  }
  s.notes.push_back({std::to_string(total) + " points, " + std::to_string(failed) +
                         " failed (listed in the table of points, not plotted).",
                     "",
                     {}});
  for (Chart& c : bestBreakdown(w)) s.charts.push_back(std::move(c));
  for (Chart& c : heatmaps(w)) s.charts.push_back(std::move(c));
  for (Chart& c : linePlots(w)) s.charts.push_back(std::move(c));
  for (Chart& c : paretoCharts(w, pareto)) s.charts.push_back(std::move(c));
  return s;
}

}  // namespace

// Defined in sweep_tables.cpp.
Table pointsTable(const SweepData& d);
void addSweepHeader(Report& r, const SweepData& d);

Report sweepReport(const std::string& dir) {
  try {
    const SweepData d = readSweep(dir);
    Report r;
    r.kind = "sweep";
    r.source = dir;
    addSweepHeader(r, d);
    Table pareto{"pareto",
                 "Points on a Pareto front",
                 {{"workload", false},
                  {"front", false},
                  {"index", true},
                  {"params", false},
                  {"x", true},
                  {"y", true}},
                 {}};
    const auto names = workloadsOf(d);
    for (size_t i = 0; i < names.size(); ++i) {
      r.sections.push_back(workloadSection(d, names[i], i, pareto));
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
