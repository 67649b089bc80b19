#include "reports/html/sweep_charts.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "reports/html/palette.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using Values = std::vector<std::pair<double, std::string>>;

// The distinct numeric values of `key`, ascending, each with the label a user wrote for it.
Values valuesOf(const std::vector<const SweepPoint*>& pts, const std::string& key) {
  std::map<double, std::string> v;
  for (const SweepPoint* p : pts) {
    const double x = p->numeric.at(key).get<double>();
    if (!v.count(x)) v[x] = p->params.contains(key) ? scalarText(p->params[key]) : exactNumber(x);
  }
  return {v.begin(), v.end()};
}

int position(const Values& values, const SweepPoint& p, const std::string& key) {
  const double x = p.numeric.at(key).get<double>();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].first == x) return static_cast<int>(i);
  }
  return -1;
}

std::string bestWord(const std::string& metric) {
  return higherIsBetter(metric) ? "best (maximum)" : "best (minimum)";
}

// The numeric keys other than `used`, for the caption saying what the best was taken over.
std::string others(const WorkloadView& w, const std::vector<std::string>& used) {
  std::string s;
  for (const std::string& k : w.keys) {
    if (std::find(used.begin(), used.end(), k) == used.end()) s += (s.empty() ? "" : ", ") + k;
  }
  return s;
}

// Keeps the point with the best metric per slot (the first on a tie).
template <class Key>
void keepBest(std::map<Key, const SweepPoint*>& best, const Key& k, const SweepPoint* p,
              const std::string& metric) {
  auto it = best.find(k);
  if (it == best.end() || better(metric, metricOf(*p, metric), metricOf(*it->second, metric)))
    best[k] = p;
}

Mark pointMark(const MetricView& m, const SweepPoint& p, Attrs data) {
  const double v = metricOf(p, m.metric);
  data.push_back({"value", exactNumber(v)});
  data.push_back({"index", std::to_string(p.index)});
  return {v,
          paramsText(p, m.w->all_keys) + ": " + m.metric + " " + unitText(metricUnit(m.metric), v),
          std::move(data)};
}

std::string panelId(const std::string& id, const MetricView& m, size_t i) {
  return m.panels.size() > 1 ? id + "-p" + std::to_string(i) : id;
}

Heatmap panelHeatmap(const MetricView& m, size_t i, const std::string& kx, const std::string& ky,
                     const Values& xs, const Values& ys) {
  const Panel& panel = m.panels[i];
  std::map<std::pair<int, int>, const SweepPoint*> best;
  for (const SweepPoint* p : panel.points)
    keepBest(best, {position(xs, *p, kx), position(ys, *p, ky)}, p, m.metric);
  Heatmap h;
  h.heading = panel.label;
  if (!panel.label.empty()) h.data = {{"panel", panel.label}};
  h.x_label = kx, h.y_label = ky, h.unit = metricUnit(m.metric);
  for (const auto& x : xs) h.x_ticks.push_back(x.second);
  for (const auto& y : ys) h.y_ticks.push_back(y.second);
  for (const auto& [xy, p] : best) {
    Attrs data = {{"x", exactNumber(xs[xy.first].first)}, {"y", exactNumber(ys[xy.second].first)}};
    if (!panel.label.empty()) data.push_back({"panel", panel.label});
    h.cells.push_back({xy.first, xy.second, pointMark(m, *p, std::move(data))});
  }
  return h;
}

// Several panels' SVGs side by side.
std::string panelsHtml(const std::vector<std::string>& svgs) {
  if (svgs.size() == 1) return svgs[0];
  std::string s = "<div class=\"panels\">\n";
  for (const std::string& svg : svgs) s += svg;
  return s + "</div>\n";
}

std::string panelNote(const MetricView& m) {
  if (m.panels.size() < 2) return "";
  std::string keys;
  for (const std::string& k : m.w->category_keys) keys += (keys.empty() ? "" : ", ") + k;
  return " One panel per value of " + keys + ", on one colour scale.";
}

Chart heatmap(const MetricView& m, size_t a, size_t b) {
  const std::string &kx = m.w->keys[a], &ky = m.w->keys[b];
  const Values xs = valuesOf(m.ok, kx), ys = valuesOf(m.ok, ky);
  const std::string id = m.prefix + "-heatmap-" + std::to_string(a) + "-" + std::to_string(b);
  std::vector<Heatmap> maps;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < m.panels.size(); ++i) {
    maps.push_back(panelHeatmap(m, i, kx, ky, xs, ys));
    maps.back().id = panelId(id, m, i);
    for (const auto& c : maps.back().cells)
      lo = std::min(lo, c.mark.value), hi = std::max(hi, c.mark.value);
  }
  std::vector<std::string> svgs;
  for (Heatmap& h : maps) {
    h.has_range = true, h.lo = lo, h.hi = hi;
    svgs.push_back(heatmapSvg(h));
  }
  const std::string rest = others(*m.w, {kx, ky});
  return {id, m.metric + " over " + kx + " and " + ky, panelsHtml(svgs),
          "Each cell is one (" + kx + ", " + ky + ") pair" +
              (rest.empty() ? "."
                            : "; it shows the " + bestWord(m.metric) + " " + m.metric + " over " +
                                  rest + ".") +
              panelNote(m)};
}

Chart linePlot(const MetricView& m, size_t a) {
  const std::string& k = m.w->keys[a];
  const Values xs = valuesOf(m.ok, k);
  LinePlot c;
  c.id = m.prefix + "-line-" + std::to_string(a);
  c.x_label = k, c.unit = metricUnit(m.metric);
  for (const auto& x : xs) c.x_ticks.push_back(x.second);
  for (size_t i = 0; i < m.panels.size(); ++i) {
    const Panel& panel = m.panels[i];
    std::map<int, const SweepPoint*> best;
    for (const SweepPoint* p : panel.points) keepBest(best, position(xs, *p, k), p, m.metric);
    LinePlot::Series s{panel.label.empty() ? c.unit.noun : panel.label, seriesColor(i), {}};
    for (const auto& [x, p] : best) {
      Attrs data = {{"x", exactNumber(xs[x].first)}};
      if (!panel.label.empty()) data.push_back({"panel", panel.label});
      s.points.push_back({x, pointMark(m, *p, std::move(data))});
    }
    c.series.push_back(std::move(s));
  }
  const std::string rest = others(*m.w, {k});
  std::string caption = rest.empty() ? ""
                                     : "Each point is the " + bestWord(m.metric) + " " + m.metric +
                                           " over " + rest + ".";
  if (m.panels.size() > 1) caption += " One line per value of the non-numeric keys.";
  return {c.id, m.metric + " against " + k, linePlotSvg(c), caption};
}

}  // namespace

std::vector<Chart> heatmaps(const MetricView& m) {
  std::vector<Chart> v;
  for (size_t a = 0; a < m.w->keys.size(); ++a) {
    for (size_t b = a + 1; b < m.w->keys.size(); ++b) v.push_back(heatmap(m, a, b));
  }
  return v;
}

std::vector<Chart> linePlots(const MetricView& m) {
  std::vector<Chart> v;
  for (size_t a = 0; a < m.w->keys.size(); ++a) v.push_back(linePlot(m, a));
  return v;
}

std::vector<Chart> panelBars(const MetricView& m) {
  if (m.w->category_keys.empty() || m.ok.empty()) return {};
  GroupedBars c;
  c.id = m.prefix + "-panels";
  c.unit = metricUnit(m.metric);
  c.series = {{m.metric, seriesColor(0)}};
  for (size_t i = 0; i < m.panels.size(); ++i) {
    const SweepPoint* best = nullptr;
    for (const SweepPoint* p : m.panels[i].points) {
      if (!best || better(m.metric, metricOf(*p, m.metric), metricOf(*best, m.metric))) best = p;
    }
    c.groups.push_back(m.panels[i].label);
    c.bars.push_back({static_cast<int>(i), 0, pointMark(m, *best, {{"panel", m.panels[i].label}})});
  }
  const std::string rest = others(*m.w, {});
  std::string keys;
  for (const std::string& k : m.w->category_keys) keys += (keys.empty() ? "" : ", ") + k;
  return {{c.id, m.metric + " by " + keys, groupedBarsSvg(c),
           "One bar per value of the non-numeric keys" +
               (rest.empty() ? std::string(".")
                             : ", the " + bestWord(m.metric) + " over " + rest + ".")}};
}

}  // namespace tessel::reports::html
