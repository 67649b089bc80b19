#include "reports/html/serve_charts.h"

#include <algorithm>
#include <utility>

#include "reports/format.h"
#include "reports/html/palette.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// The grid's configurations (variant "") grouped by (cores, batch) in first-seen order, each
// group sorted by workers.
std::vector<std::vector<const ServeConfig*>> gridLines(const ServeData& d) {
  std::vector<std::vector<const ServeConfig*>> lines;
  for (const ServeConfig& c : d.configs) {
    if (!c.variant.empty()) continue;
    auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) {
      return l[0]->cores == c.cores && l[0]->batch == c.batch;
    });
    if (it == lines.end()) it = lines.insert(lines.end(), std::vector<const ServeConfig*>{});
    it->push_back(&c);
  }
  for (auto& l : lines) {
    std::stable_sort(l.begin(), l.end(), [](auto* a, auto* b) { return a->workers < b->workers; });
  }
  return lines;
}

// What a line plot against workers shows of each configuration.
struct Measure {
  std::string key;  // the data attribute: the value exactly as in the JSON
  Unit unit;        // the y axis
  double (*raw)(const ServeConfig&);
  Formatter text;  // the raw value in a tooltip
};

// One line per (cores, batch): the measure of each configuration against its workers.
SeriesPlot againstWorkers(const ServeData& d, const std::string& id, const Measure& m) {
  SeriesPlot p;
  p.id = id;
  p.x_label = "workers";
  p.unit = m.unit;
  p.x_format = [](double v) { return exactNumber(v); };
  const auto lines = gridLines(d);
  for (size_t i = 0; i < lines.size(); ++i) {
    SeriesPlot::Series s{shortName(lines[i][0]->cores, lines[i][0]->batch, ""), seriesColor(i), {}};
    for (const ServeConfig* c : lines[i]) {
      const double v = m.raw(*c);
      s.points.push_back({static_cast<double>(c->workers),
                          {v,
                           c->label() + ": " + m.text(v),
                           {{"config", std::to_string(c->index)},
                            {"cores", c->cores},
                            {"batch", std::to_string(c->batch)},
                            {"workers", std::to_string(c->workers)},
                            {m.key, exactNumber(v)}}}});
    }
    p.series.push_back(std::move(s));
  }
  return p;
}

Chart depthChart(const ServeConfig& c, const std::string& why) {
  SeriesPlot p;
  p.id = "serve-depth-" + std::to_string(c.index);
  p.x_label = "time since the first arrival";
  p.unit = countUnit("jobs or requests", "");
  p.x_format = [](double v) { return v == 0 ? std::string("0") : engSeconds(v); };
  p.step = true;
  const std::pair<const char*, const char*> kinds[] = {{"submit", "jobs in the submit queue"},
                                                       {"in_system", "requests in the system"}};
  for (size_t k = 0; k < 2; ++k) {
    SeriesPlot::Series s{kinds[k].second, seriesColor(k), {}};
    for (const DepthSample& d : c.depth) {
      const double v = k == 0 ? d.submit : d.in_system;
      s.points.push_back({d.t,
                          {v,
                           engSeconds(d.t) + ": " + exactNumber(v) + " " + kinds[k].second,
                           {{"config", std::to_string(c.index)},
                            {"series", kinds[k].first},
                            {"t", exactNumber(d.t)},
                            {"value", exactNumber(v)}}}});
    }
    p.series.push_back(std::move(s));
  }
  return {p.id, "Queue depth over time: " + c.label(), seriesPlotSvg(p),
          why + ". Mean submit-queue depth " + fixedText(c.mean_submit_depth, 2) + " (max " +
              exactNumber(c.max_submit_depth) + ") over a makespan of " + engSeconds(c.makespan) +
              "."};
}

}  // namespace

std::string shortName(const std::string& cores, int batch, const std::string& variant) {
  return (variant.empty() ? cores : variant) + " b=" + std::to_string(batch);
}

Chart serviceChart(const ServeData& d) {
  StackedBars c{"serve-service-times", siUnit("time per job", "s", 0), {}, {}};
  const char* const kStages[] = {"pre", "job", "post"};
  for (size_t i = 0; i < 3; ++i) c.legend.push_back({kStages[i], seriesColor(i)});
  for (const ServeProfile& p : d.profiles) {
    StackedBars::Row row{shortName(p.cores, p.batch, p.variant), {}};
    const double seconds[] = {p.pre, p.job.front(), p.post};
    for (size_t i = 0; i < 3; ++i) {
      row.segments.push_back({kStages[i],
                              seriesColor(i),
                              {seconds[i],
                               p.cores + ", batch " + std::to_string(p.batch) +
                                   (p.variant.empty() ? "" : ", " + p.variant) + ": " + kStages[i] +
                                   " " + engSeconds(seconds[i]),
                               {{"cores", p.cores},
                                {"batch", std::to_string(p.batch)},
                                {"variant", p.variant},
                                {"stage", kStages[i]},
                                {"seconds", exactNumber(seconds[i])}}}});
    }
    c.rows.push_back(std::move(row));
  }
  return {c.id, "Service time per job", stackedBarsSvg(c),
          "Host pre-processing, the accelerator job with one core busy, and host post-processing "
          "of one job (a batch of requests). The table gives the job with every core busy too."};
}

std::vector<Chart> workerCharts(const ServeData& d) {
  const Measure throughput{"throughput", countUnit("throughput", "requests/s"),
                           [](const ServeConfig& c) { return c.throughput; },
                           [](double v) { return humanNumber(v) + " requests/s"; }};
  const Measure p99{"p99_s", siUnit("p99 latency", "s", 0),
                    [](const ServeConfig& c) { return c.p99; },
                    [](double v) { return "p99 " + engSeconds(v); }};
  const SeriesPlot a = againstWorkers(d, "serve-throughput", throughput);
  const SeriesPlot b = againstWorkers(d, "serve-p99", p99);
  const std::string note =
      "One line per core mode and batch (b); runs with another dtype are in the table only.";
  return {{a.id, "Throughput against workers", seriesPlotSvg(a), note},
          {b.id, "p99 latency against workers", seriesPlotSvg(b), note}};
}

std::vector<Chart> depthCharts(const ServeData& d) {
  std::vector<std::pair<const ServeConfig*, std::string>> picked;
  auto pick = [&](const ServeConfig* c, const std::string& why) {
    if (!c || c->depth.empty()) return;
    for (const auto& p : picked) {
      if (p.first == c) return;
    }
    picked.emplace_back(c, why);
  };
  std::vector<std::string> modes;
  for (const ServeConfig& c : d.configs) {
    if (c.variant.empty() && std::find(modes.begin(), modes.end(), c.cores) == modes.end()) {
      modes.push_back(c.cores);
    }
  }
  for (const std::string& mode : modes) {
    const ServeConfig *most = nullptr, *best = nullptr;
    for (const ServeConfig& c : d.configs) {
      if (!c.variant.empty() || c.cores != mode) continue;
      if (!most || (c.batch == most->batch && c.workers > most->workers)) most = &c;
      if (!best || c.throughput > best->throughput) best = &c;
    }
    pick(most, "The most workers at the first batch of " + mode + " cores");
    pick(best, "The best throughput of " + mode + " cores");
  }
  std::vector<Chart> charts;
  for (const auto& [c, why] : picked) charts.push_back(depthChart(*c, why));
  return charts;
}

}  // namespace tessel::reports::html
