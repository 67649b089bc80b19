// Pareto fronts of a sweep: SRAM vs latency, and latency vs energy with the area as colour (the
// front then over all three). Points that broke a constraint are drawn but never on a front.
#include <algorithm>
#include <cmath>
#include <set>

#include "reports/html/pareto.h"
#include "reports/html/sweep_charts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// The points of `w` that recorded every metric of `ms`.
std::vector<const SweepPoint*> having(const WorkloadView& w, const std::vector<std::string>& ms) {
  std::vector<const SweepPoint*> pts;
  for (const SweepPoint* p : w.ran) {
    bool all = true;
    for (const std::string& m : ms) all = all && !std::isnan(metricOf(*p, m));
    if (all) pts.push_back(p);
  }
  return pts;
}

// Which of `pts` are on the front of the metrics `ms` (all lower-is-better).
std::vector<bool> onFront(const std::vector<const SweepPoint*>& pts,
                          const std::vector<std::string>& ms) {
  std::vector<std::vector<double>> coords;
  std::vector<size_t> candidate;
  for (size_t i = 0; i < pts.size(); ++i) {
    if (!pts[i]->violated.empty()) continue;
    candidate.push_back(i);
    coords.emplace_back();
    for (const std::string& m : ms) coords.back().push_back(metricOf(*pts[i], m));
  }
  std::vector<bool> on(pts.size(), false);
  for (const size_t i : paretoFront(coords)) on[candidate[i]] = true;
  return on;
}

std::string joined(const std::vector<std::string>& ms, const std::string& sep) {
  std::string s;
  for (const std::string& m : ms) s += (s.empty() ? "" : sep) + m;
  return s;
}

// The tooltip and data of one point of a front chart over the metrics `ms`.
std::pair<std::string, Attrs> describe(const WorkloadView& w, const SweepPoint& p,
                                       const std::vector<std::string>& ms, bool on) {
  static const char* const kAxes[] = {"x", "y", "z"};
  std::string tip = paramsText(p, w.all_keys) + ":";
  Attrs data = {{"index", std::to_string(p.index)}};
  for (size_t i = 0; i < ms.size(); ++i) {
    const double v = metricOf(p, ms[i]);
    tip += " " + ms[i] + " " + unitText(metricUnit(ms[i]), v) + (i + 1 < ms.size() ? "," : "");
    data.push_back({kAxes[i], exactNumber(v)});
  }
  tip += on ? " (on the front)" : p.violated.empty() ? " (dominated)" : " (broke a constraint)";
  data.push_back({"front", on ? "1" : "0"});
  return {tip, data};
}

void addRows(const WorkloadView& w, const std::vector<const SweepPoint*>& pts,
             const std::vector<bool>& on, const std::vector<std::string>& ms, Table& table) {
  for (size_t i = 0; i < pts.size(); ++i) {
    if (!on[i]) continue;
    const SweepPoint& p = *pts[i];
    std::vector<Cell> row = {textCell(w.name), textCell(joined(ms, " vs ")),
                             countCell(static_cast<double>(p.index)),
                             textCell(paramsText(p, w.all_keys))};
    for (size_t k = 0; k < 3; ++k) {
      const double v = k < ms.size() ? metricOf(p, ms[k]) : NAN;
      row.push_back(k < ms.size() ? numberCell(v, unitText(metricUnit(ms[k]), v)) : textCell(""));
    }
    table.addRow(std::move(row));
  }
}

const char* const kFrontCaption =
    "Highlighted points are on the front: no other point is as good in every metric and better "
    "in one. Grey points are dominated. Both axes start at 0 or show a break.";

const char* const kAreaCaption =
    "Colour is the area. Ringed points are on the latency-energy-area front (no other point is as "
    "good in all three and better in one; listed in the table below); the dashed line joins the "
    "latency-energy front, area aside. Both axes start at 0 or show a break.";

// Latency against a size metric: silicon area (area_mm2) or on-chip SRAM bytes (sram_bytes).
Chart sizeFront(const WorkloadView& w, const std::string& size, const std::string& lat, Table& table) {
  const std::vector<std::string> ms = {size, lat};
  const auto pts = having(w, ms);
  const auto on = onFront(pts, ms);
  Scatter c;
  c.id = w.prefix + (size == "area_mm2" ? "-pareto-area" : "-pareto-sram");
  c.x_unit = metricUnit(ms[0]), c.y_unit = metricUnit(lat);
  for (size_t i = 0; i < pts.size(); ++i) {
    auto [tip, data] = describe(w, *pts[i], ms, on[i]);
    c.points.push_back({metricOf(*pts[i], ms[0]), metricOf(*pts[i], lat), on[i], on[i], tip, data});
  }
  addRows(w, pts, on, ms, table);
  return {c.id, "Pareto front: " + size + " vs " + lat, scatterSvg(c), kFrontCaption};
}

// The fronts summary.json holds for workload `w`, when the sweep's objectives are `ms`, all
// minimized: which of `pts` they name. Empty when they are other objectives (or none).
std::vector<bool> sweepsFront(const Json& summary, const WorkloadView& w,
                              const std::vector<const SweepPoint*>& pts,
                              const std::vector<std::string>& ms) {
  const Json pareto =
      summary.is_object() ? summary.value("pareto", Json::object()) : Json::object();
  std::vector<std::string> objectives;
  for (const Json& o : pareto.value("objectives", Json::array())) {
    if (o.value("direction", "min") != "min") return {};
    objectives.push_back(o.value("metric", ""));
  }
  if (std::is_permutation(objectives.begin(), objectives.end(), ms.begin(), ms.end()) == false) {
    return {};
  }
  std::set<int64_t> indices;
  for (const Json& f : pareto.value("fronts", Json::array())) {
    if (!w.name.empty() && f.value("workload", "") != w.name) continue;
    for (const Json& i : f.value("indices", Json::array())) {
      if (i.is_number_integer()) indices.insert(i.get<int64_t>());
    }
  }
  std::vector<bool> on;
  for (const SweepPoint* p : pts) on.push_back(indices.count(p->index) > 0);
  return on;
}

// Latency (x) against energy (y), coloured by area when every point has one; the front is over
// all three then (the sweep's own, from summary.json, when it computed that one), and the dashed
// line joins the latency-energy front alone.
Chart energyFront(const WorkloadView& w, const Json& summary, const std::string& lat,
                  Table& table) {
  std::vector<std::string> ms = {lat, "energy_pj"};
  auto pts = having(w, ms);
  const bool area = !pts.empty() && std::all_of(pts.begin(), pts.end(), [](const SweepPoint* p) {
    return metricOf(*p, "area_mm2") > 0;
  });
  if (area) ms.push_back("area_mm2");
  const std::vector<bool> given = sweepsFront(summary, w, pts, ms);
  const auto on = given.empty() ? onFront(pts, ms) : given;
  const auto on2 = onFront(pts, {lat, "energy_pj"});
  Scatter c;
  c.id = w.prefix + "-pareto-energy";
  c.x_unit = metricUnit(lat), c.y_unit = metricUnit("energy_pj");
  c.shaded = area, c.shade_unit = metricUnit("area_mm2");
  for (size_t i = 0; i < pts.size(); ++i) {
    auto [tip, data] = describe(w, *pts[i], ms, on[i]);
    data.push_back({"front2d", on2[i] ? "1" : "0"});
    c.points.push_back({metricOf(*pts[i], lat), metricOf(*pts[i], "energy_pj"), on[i], on2[i], tip,
                        data, area ? metricOf(*pts[i], "area_mm2") : 0});
  }
  addRows(w, pts, on, ms, table);
  std::string caption = area ? kAreaCaption
                             : std::string(kFrontCaption) +
                                   " The points record no area, so the front is over latency and "
                                   "energy (listed in the table below).";
  if (!given.empty()) {
    caption +=
        " The front is the sweep's own (summary.json): one per workload variant, points "
        "that broke a constraint left out.";
  }
  return {c.id, area ? "Latency, energy and area" : "Latency and energy", scatterSvg(c), caption};
}

}  // namespace

std::vector<Chart> paretoCharts(const WorkloadView& w, const Json& summary, Table& pareto) {
  std::vector<Chart> v;
  if (w.ran.empty()) return v;
  const std::string lat = !std::isnan(metricOf(*w.ran[0], "cycles"))    ? "cycles"
                          : !std::isnan(metricOf(*w.ran[0], "seconds")) ? "seconds"
                                                                        : "";
  if (lat.empty()) return v;
  // The latency-area trade-off first when the sweep measured area.
  const auto areas = having(w, {"area_mm2", lat});
  const bool area = !areas.empty() && std::all_of(areas.begin(), areas.end(), [](const SweepPoint* p) {
    return metricOf(*p, "area_mm2") > 0;
  });
  if (area) v.push_back(sizeFront(w, "area_mm2", lat, pareto));
  if (!having(w, {"sram_bytes", lat}).empty()) v.push_back(sizeFront(w, "sram_bytes", lat, pareto));
  if (!having(w, {"energy_pj", lat}).empty()) v.push_back(energyFront(w, summary, lat, pareto));
  return v;
}

}  // namespace tessel::reports::html
