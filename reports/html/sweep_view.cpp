// What varies among a workload's sweep points: numeric keys become axes, non-numeric ones
// (dataflow, arch, ...) panels, so no key is silently reduced to its best value.
#include <algorithm>
#include <cmath>
#include <set>

#include "reports/html/sweep_charts.h"

namespace tessel::reports::html {
namespace {

std::string workloadOf(const SweepPoint& p) {
  return p.params.contains("workload") ? scalarText(p.params["workload"]) : "";
}

bool numericEverywhere(const std::vector<const SweepPoint*>& pts, const std::string& k) {
  return std::all_of(pts.begin(), pts.end(), [&](const SweepPoint* p) {
    return p->numeric.contains(k) && p->numeric[k].is_number();
  });
}

// The panel label of a point: its values of the categorical keys.
std::string panelLabel(const WorkloadView& w, const SweepPoint& p) {
  std::string s;
  for (const std::string& k : w.category_keys) {
    s += (s.empty() ? "" : ", ") + k + "=" + (p.params.contains(k) ? scalarText(p.params[k]) : "");
  }
  return s;
}

}  // namespace

double metricOf(const SweepPoint& p, const std::string& metric) {
  return p.metrics.contains(metric) && p.metrics[metric].is_number()
             ? p.metrics[metric].get<double>()
             : NAN;
}

bool higherIsBetter(const std::string& metric) {
  return metric == "utilization" || metric == "matmul_utilization" || metric == "tops" ||
         metric == "peak_tops" || metric == "tops_per_w" || metric == "tops_per_mm2";
}

bool better(const std::string& metric, double a, double b) {
  return higherIsBetter(metric) ? a > b : a < b;
}

std::string paramsText(const SweepPoint& p, const std::vector<std::string>& keys) {
  std::string s;
  for (const std::string& k : keys) {
    if (p.params.contains(k)) s += (s.empty() ? "" : ", ") + k + "=" + scalarText(p.params[k]);
  }
  return s;
}

WorkloadView workloadView(const SweepData& d, const std::string& name, size_t number) {
  WorkloadView w{name, "sweep-" + std::to_string(number), {}, {}, {}, {}};
  for (const Json& k : d.meta["keys"]) w.all_keys.push_back(scalarText(k));
  for (const SweepPoint& p : d.points) {
    if (p.ok && workloadOf(p) == name) w.ran.push_back(&p);
  }
  for (const std::string& k : w.all_keys) {
    if (k == "workload") continue;  // a section each
    std::set<std::string> texts;
    std::set<double> values;
    for (const SweepPoint* p : w.ran) {
      texts.insert(p->params.contains(k) ? scalarText(p->params[k]) : "");
      if (p->numeric.contains(k) && p->numeric[k].is_number())
        values.insert(p->numeric[k].get<double>());
    }
    if (texts.size() < 2) continue;
    if (!numericEverywhere(w.ran, k)) {
      w.category_keys.push_back(k);
    } else if (values.size() > 1) {
      w.keys.push_back(k);
    }
  }
  return w;
}

MetricView metricView(const WorkloadView& w, const std::string& metric) {
  MetricView m{&w, metric, w.prefix + "-" + metric, {}, {}};
  for (const SweepPoint* p : w.ran) {
    if (!std::isnan(metricOf(*p, metric))) m.ok.push_back(p);
  }
  for (const SweepPoint* p : m.ok) {
    const std::string label = panelLabel(w, *p);
    auto it = std::find_if(m.panels.begin(), m.panels.end(),
                           [&](const Panel& panel) { return panel.label == label; });
    if (it == m.panels.end()) it = m.panels.insert(m.panels.end(), Panel{label, {}});
    it->points.push_back(p);
  }
  return m;
}

}  // namespace tessel::reports::html
