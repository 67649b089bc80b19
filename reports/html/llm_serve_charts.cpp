#include "reports/html/llm_serve_charts.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "reports/format.h"
#include "reports/html/json_input.h"
#include "reports/html/palette.h"
#include "reports/html/svg_axis.h"
#include "reports/html/svg_parts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// The points that ran at a rate above 0, grouped by (max batch, chunk) in first-seen order, each
// group sorted by rate.
std::vector<std::vector<const LlmPoint*>> rateLines(const LlmServeData& d) {
  std::vector<std::vector<const LlmPoint*>> lines;
  for (const LlmPoint& p : d.points) {
    if (!p.ok || !(p.rate > 0)) continue;
    auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) {
      return l[0]->max_batch == p.max_batch && l[0]->chunk == p.chunk && l[0]->cores == p.cores;
    });
    if (it == lines.end()) it = lines.insert(lines.end(), std::vector<const LlmPoint*>{});
    it->push_back(&p);
  }
  for (auto& l : lines) {
    std::stable_sort(l.begin(), l.end(), [](auto* a, auto* b) { return a->rate < b->rate; });
  }
  return lines;
}

// One latency against the rate: a line per (max batch, chunk) and percentile.
Chart latencyChart(const std::string& id, const std::string& name, LlmSpread LlmPoint::*spread,
                   const std::string& caption,
                   const std::vector<std::vector<const LlmPoint*>>& lines) {
  SeriesPlot plot;
  plot.id = id;
  plot.x_label = "arrival rate (requests/s)";
  plot.x_format = [](double v) { return rateText(v); };
  plot.unit = siUnit(name, "s", 0);
  const std::pair<const char*, double LlmSpread::*> kPercentiles[] = {
      {"p50", &LlmSpread::p50}, {"p90", &LlmSpread::p90}, {"p99", &LlmSpread::p99}};
  for (size_t l = 0; l < lines.size(); ++l) {
    const LlmPoint& first = *lines[l][0];
    const std::string combo =
        std::string(first.cores == "disaggregated" ? "disaggregated, " : "") + "batch " +
        std::to_string(first.max_batch) + ", chunk " + std::to_string(first.chunk);
    for (size_t k = 0; k < 3; ++k) {
      const auto& [pct, member] = kPercentiles[k];
      SeriesPlot::Series s{lines.size() > 1 ? std::string(pct) + " (" + combo + ")" : pct,
                           seriesColor(l * 3 + k),
                           {}};
      for (const LlmPoint* p : lines[l]) {
        const double v = (p->*spread).*member;
        s.points.push_back({p->rate,
                            {v,
                             p->label() + ": " + name + " " + pct + " " + engSeconds(v),
                             {{"point", std::to_string(p->index)},
                              {"rate", exactNumber(p->rate)},
                              {"max_batch", std::to_string(p->max_batch)},
                              {"chunk", std::to_string(p->chunk)},
                              {"percentile", pct},
                              {"seconds", exactNumber(v)}}}});
      }
      plot.series.push_back(std::move(s));
    }
  }
  return {id, name + " percentiles against the arrival rate", seriesPlotSvg(plot), caption};
}

std::string sloOf(const LlmServeData& d) {
  for (const auto& [k, v] : d.options) {
    if (k == "slo") return v;
  }
  return "";
}

}  // namespace

std::vector<Chart> latencyCharts(const LlmServeData& d) {
  const auto lines = rateLines(d);
  std::set<double> rates;
  for (const auto& l : lines) {
    for (const LlmPoint* p : l) rates.insert(p->rate);
  }
  if (rates.size() < 2) return {};
  const std::string slo = sloOf(d);
  const std::string caption =
      "Nearest-rank percentiles over the requests of each point that ran; one line per "
      "percentile" +
      std::string(lines.size() > 1 ? " and (max batch, chunk)" : "") + "." +
      (slo.empty() ? "" : " The SLO given: " + slo + " (seconds).");
  return {latencyChart("llm-ttft", "TTFT", &LlmPoint::ttft,
                       "Time to first token, arrival to the first output token. " + caption, lines),
          latencyChart("llm-tpot", "TPOT", &LlmPoint::tpot,
                       "Time per output token after the first, over requests of two or more "
                       "output tokens. " +
                           caption,
                       lines)};
}

Chart kvChart(const LlmServeData& d) {
  SeriesPlot plot;
  plot.id = "llm-kv";
  plot.x_label = "time since the first arrival";
  plot.x_format = [](double v) { return v == 0 ? std::string("0") : engSeconds(v); };
  plot.unit = metricUnit("utilization");
  plot.unit.noun = "KV cache in use";
  plot.step = true;
  size_t sampled = 0;
  for (const LlmPoint& p : d.points) {
    if (!p.ok || p.kv.empty()) continue;
    if (++sampled > kMaxKvLines) continue;
    const double peak = d.kvShare(static_cast<double>(p.kv_peak_blocks));
    SeriesPlot::Series s{p.label() + " (peak " + metricText("utilization", peak) + ")",
                         seriesColor(plot.series.size()),
                         {}};
    const double t0 = p.kv.front().t;
    for (const LlmKvSample& k : p.kv) {
      const double share = d.kvShare(static_cast<double>(k.blocks));
      s.points.push_back({k.t - t0,
                          {share,
                           engSeconds(k.t - t0) + ": " + std::to_string(k.blocks) + " blocks (" +
                               metricText("utilization", share) + ")",
                           {{"point", std::to_string(p.index)},
                            {"t", exactNumber(k.t - t0)},
                            {"blocks", std::to_string(k.blocks)},
                            {"share", exactNumber(share)},
                            {"peak", exactNumber(peak)}}}});
    }
    plot.series.push_back(std::move(s));
  }
  std::string caption = "Blocks in use as a share of the " + withCommas(d.kv_blocks) +
                        " the KV cache holds, sampled at up to 256 even instants of each run; "
                        "the peak in each legend entry is exact (a short peak can fall between "
                        "samples).";
  if (sampled > kMaxKvLines) {
    caption += " The first " + std::to_string(kMaxKvLines) + " of " + std::to_string(sampled) +
               " points are drawn; the table has them all.";
  }
  return {plot.id, "KV-cache use over time",
          plot.series.empty() ? std::string() : seriesPlotSvg(plot), caption};
}

namespace {

using namespace svgparts;

struct Phase {
  const char* name;
  std::string color;
  double LlmRequest::*from;
  double LlmRequest::*to;
};

const Phase kPhases[] = {
    {"queue", seriesColor(9), &LlmRequest::arrival, &LlmRequest::admitted},
    {"prefill", seriesColor(1), &LlmRequest::admitted, &LlmRequest::first_token},
    {"decode", seriesColor(0), &LlmRequest::first_token, &LlmRequest::finish}};

std::string phaseRect(const Axis& a, double t0, double y, double h, const Phase& ph,
                      const LlmRequest& r) {
  const double from = r.*ph.from, seconds = r.*ph.to - from;
  const double x0 = a.at(from - t0), x1 = a.at(from - t0 + seconds);
  const Attrs data = {{"request", std::to_string(r.id)},
                      {"phase", ph.name},
                      {"start", exactNumber(from - t0)},
                      {"seconds", exactNumber(seconds)}};
  const std::string tip =
      "request " + std::to_string(r.id) + " (" + std::to_string(r.prompt) + " prompt, " +
      std::to_string(r.output) + " output tokens): " + ph.name + " " + engSeconds(seconds) +
      " from " + engSeconds(from - t0) +
      (r.preemptions ? ", preempted " + std::to_string(r.preemptions) + "x" : "");
  return "<rect class=\"mark\" x=\"" + num(x0) + "\" y=\"" + num(y) + "\" width=\"" + num(x1 - x0) +
         "\" height=\"" + num(h) + "\" fill=\"" + ph.color + "\" data-series=\"" + ph.name + "\"" +
         dataAttrs(data) + ">" + title(tip) + "</rect>\n";
}

std::string requestGroup(const Axis& a, double t0, double y, double h, const LlmRequest& r) {
  std::string s = "<g class=\"request\"" +
                  dataAttrs({{"request", std::to_string(r.id)},
                             {"arrival", exactNumber(r.arrival)},
                             {"admitted", exactNumber(r.admitted)},
                             {"first_token", exactNumber(r.first_token)},
                             {"finish", exactNumber(r.finish)},
                             {"preemptions", std::to_string(r.preemptions)}}) +
                  ">\n";
  s +=
      text(a.p0 - 6, y + h - 1, "#" + std::to_string(r.id), "text-anchor=\"end\" font-size=\"10\"");
  for (const Phase& ph : kPhases) {
    if (r.*ph.to - r.*ph.from > 0) s += phaseRect(a, t0, y, h, ph, r);
  }
  return s + "</g>\n";
}

}  // namespace

Chart timelineChart(const LlmPoint& p) {
  constexpr double kWidth = 900, kLeft = 70, kRow = 12, kGap = 4;
  double t0 = INFINITY, end = 0;
  std::vector<LegendEntry> drawn;
  for (const LlmRequest& r : p.timeline) {
    t0 = std::min(t0, r.arrival);
    for (const Phase& ph : kPhases) {
      const bool listed = std::any_of(drawn.begin(), drawn.end(),
                                      [&](const LegendEntry& e) { return e.name == ph.name; });
      if (r.*ph.to - r.*ph.from > 0 && !listed) drawn.push_back({ph.name, ph.color});
    }
  }
  for (const LlmRequest& r : p.timeline) end = std::max(end, r.finish - t0);
  if (p.timeline.empty()) t0 = 0;
  std::vector<LegendEntry> legend_entries;  // in phase order
  for (const Phase& ph : kPhases) {
    for (const LegendEntry& e : drawn) {
      if (e.name == ph.name) legend_entries.push_back(e);
    }
  }
  const double top = 26 + 18.0 * legendRows(legend_entries, kLeft, kWidth - 20);
  const double bottom = top + static_cast<double>(p.timeline.size()) * (kRow + kGap);
  const Axis a =
      valueAxis(0, end, kLeft, kWidth - 30, siUnit("time since the first arrival", "s", 0), false);
  std::string s = openSvg("llm-timeline", kWidth, bottom + 50,
                          {{"chart", "timeline"}, {"point", std::to_string(p.index)}});
  s += legend(legend_entries, kLeft, 18, kWidth - 20);
  s += xAxis(a, bottom, top - 6);
  double y = top;
  for (const LlmRequest& r : p.timeline) {
    s += requestGroup(a, t0, y, kRow, r);
    y += kRow + kGap;
  }
  s += "</svg>\n";
  return {"llm-timeline", "Request timeline: " + p.label(), s,
          "The first " + std::to_string(p.timeline.size()) + " requests of this point (" +
              std::to_string(p.completed) +
              " completed): waiting in the queue, prefill up to the first token, then decode "
              "to the last token. A preempted request keeps its first admission and first "
              "token: the time it lost is inside its prefill or decode bar."};
}

}  // namespace tessel::reports::html
