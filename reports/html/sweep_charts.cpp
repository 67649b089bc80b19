#include "reports/html/sweep_charts.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// The distinct numeric values of `key`, ascending, each with the label a user wrote for it.
std::vector<std::pair<double, std::string>> valuesOf(const WorkloadView& w,
                                                     const std::string& key) {
  std::map<double, std::string> v;
  for (const SweepPoint* p : w.ok) {
    const double x = p->numeric.at(key).get<double>();
    if (!v.count(x)) v[x] = p->params.contains(key) ? scalarText(p->params[key]) : exactNumber(x);
  }
  return {v.begin(), v.end()};
}

int position(const std::vector<std::pair<double, std::string>>& values, double x) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].first == x) return static_cast<int>(i);
  }
  return -1;
}

// The keys other than `used`, for the caption saying what was minimized over.
std::string others(const WorkloadView& w, const std::vector<std::string>& used) {
  std::string s;
  for (const std::string& k : w.keys) {
    if (std::find(used.begin(), used.end(), k) == used.end()) s += (s.empty() ? "" : ", ") + k;
  }
  return s;
}

// Keeps the point with the lowest metric per slot (the first on a tie).
template <class Key>
void keepBest(std::map<Key, const SweepPoint*>& best, const Key& k, const SweepPoint* p,
              const std::string& metric) {
  auto it = best.find(k);
  if (it == best.end() || metricOf(*p, metric) < metricOf(*it->second, metric)) best[k] = p;
}

Chart heatmap(const WorkloadView& w, size_t a, size_t b) {
  const std::string &kx = w.keys[a], &ky = w.keys[b];
  const auto xs = valuesOf(w, kx), ys = valuesOf(w, ky);
  std::map<std::pair<int, int>, const SweepPoint*> best;
  for (const SweepPoint* p : w.ok) {
    keepBest(
        best,
        {position(xs, p->numeric[kx].get<double>()), position(ys, p->numeric[ky].get<double>())}, p,
        w.metric);
  }
  Heatmap h;
  h.id = w.prefix + "-heatmap-" + std::to_string(a) + "-" + std::to_string(b);
  h.x_label = kx, h.y_label = ky, h.value_label = metricLabel(w.metric);
  for (const auto& x : xs) h.x_ticks.push_back(x.second);
  for (const auto& y : ys) h.y_ticks.push_back(y.second);
  for (const auto& [xy, p] : best) {
    const double v = metricOf(*p, w.metric);
    h.cells.push_back(
        {xy.first,
         xy.second,
         {v,
          paramsText(*p, w.all_keys) + ": " + w.metric + " " + metricText(w.metric, v),
          {{"x", exactNumber(xs[xy.first].first)},
           {"y", exactNumber(ys[xy.second].first)},
           {"value", exactNumber(v)},
           {"index", std::to_string(p->index)}}}});
  }
  const std::string rest = others(w, {kx, ky});
  return {h.id, w.metric + " over " + kx + " and " + ky, heatmapSvg(h),
          "Each cell is one (" + kx + ", " + ky + ") pair" +
              (rest.empty() ? "."
                            : "; with more than two keys swept, it shows the best (minimum) " +
                                  w.metric + " over " + rest + ".")};
}

Chart linePlot(const WorkloadView& w, size_t a) {
  const std::string& k = w.keys[a];
  const auto xs = valuesOf(w, k);
  std::map<int, const SweepPoint*> best;
  for (const SweepPoint* p : w.ok)
    keepBest(best, position(xs, p->numeric[k].get<double>()), p, w.metric);
  LinePlot c;
  c.id = w.prefix + "-line-" + std::to_string(a);
  c.x_label = k, c.y_label = metricLabel(w.metric);
  for (const auto& [i, p] : best) {
    const double v = metricOf(*p, w.metric);
    c.points.push_back(
        {xs[i].second,
         {v,
          paramsText(*p, w.all_keys) + ": " + w.metric + " " + metricText(w.metric, v),
          {{"x", exactNumber(xs[i].first)},
           {"value", exactNumber(v)},
           {"index", std::to_string(p->index)}}}});
  }
  const std::string rest = others(w, {k});
  return {
      c.id, w.metric + " against " + k, linePlotSvg(c),
      rest.empty() ? "" : "Each point is the best (minimum) " + w.metric + " over " + rest + "."};
}

}  // namespace

double metricOf(const SweepPoint& p, const std::string& metric) {
  return p.metrics.contains(metric) && p.metrics[metric].is_number()
             ? p.metrics[metric].get<double>()
             : NAN;
}

std::string paramsText(const SweepPoint& p, const std::vector<std::string>& keys) {
  std::string s;
  for (const std::string& k : keys) {
    if (p.params.contains(k)) s += (s.empty() ? "" : ", ") + k + "=" + scalarText(p.params[k]);
  }
  return s;
}

std::vector<Chart> heatmaps(const WorkloadView& w) {
  std::vector<Chart> v;
  for (size_t a = 0; a < w.keys.size(); ++a) {
    for (size_t b = a + 1; b < w.keys.size(); ++b) v.push_back(heatmap(w, a, b));
  }
  return v;
}

std::vector<Chart> linePlots(const WorkloadView& w) {
  std::vector<Chart> v;
  for (size_t a = 0; a < w.keys.size(); ++a) v.push_back(linePlot(w, a));
  return v;
}

}  // namespace tessel::reports::html
