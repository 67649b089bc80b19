// The report of a deployment simulation (`tessel serve --json`): the recommendations, what one
// job costs, throughput and latency against workers, and the job queue's depth over time.
#include "reports/format.h"
#include "reports/html/build.h"
#include "reports/html/json_input.h"
#include "reports/html/serve_charts.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// Seconds shown and kept in ms, as the terminal table shows them.
Cell msCell(double seconds) {
  return numberCell(roundQuantity(seconds * 1e3), fixedText(seconds * 1e3, 3));
}

Cell ratioCell(double v) { return numberCell(v, metricText("utilization", v)); }

Table serviceTable(const ServeData& d) {
  Table t{"service_times",
          "Service time per job (ms)",
          {{"cores", false},
           {"batch", true},
           {"variant", false},
           {"parallel_cores", true},
           {"pre_ms", true},
           {"job_1_busy_ms", true},
           {"job_all_busy_ms", true},
           {"post_ms", true},
           {"job_host_ms", true}},
          {}};
  for (const ServeProfile& p : d.profiles) {
    t.addRow({textCell(p.cores), countCell(p.batch), textCell(p.variant),
              countCell(p.parallel_cores), msCell(p.pre), msCell(p.job.front()),
              msCell(p.job.back()), msCell(p.post), msCell(p.job_host)});
  }
  return t;
}

Table configurationsTable(const ServeData& d) {
  Table t{"configurations",
          "Simulated configurations",
          {{"cores", false},
           {"batch", true},
           {"workers", true},
           {"variant", false},
           {"throughput", true},
           {"p50_ms", true},
           {"p90_ms", true},
           {"p99_ms", true},
           {"max_ms", true},
           {"accelerator_utilization", true},
           {"host_utilization", true},
           {"mean_submit_depth", true},
           {"max_submit_depth", true}},
          {}};
  for (const ServeConfig& c : d.configs) {
    t.addRow({textCell(c.cores), countCell(c.batch), countCell(c.workers), textCell(c.variant),
              numberCell(c.throughput, humanNumber(c.throughput)), msCell(c.p50), msCell(c.p90),
              msCell(c.p99), msCell(c.max), ratioCell(c.accelerator_utilization),
              ratioCell(c.host_utilization),
              numberCell(c.mean_submit_depth, fixedText(c.mean_submit_depth, 2)),
              countCell(c.max_submit_depth)});
  }
  return t;
}

const ServeConfig* bestOf(const ServeData& d) {
  const ServeConfig* best = nullptr;
  for (const ServeConfig& c : d.configs) {
    if (!best || c.throughput > best->throughput) best = &c;
  }
  return best;
}

void addHeader(Report& r, const ServeData& d) {
  r.title = "Serving " + d.workload + " on " + d.arch_name;
  r.metadata = {{"accelerator", d.arch_name + " (hash " + d.arch_hash + ")"},
                {"cores", std::to_string(d.arch_cores)},
                {"workload", d.workload}};
  std::string options;
  for (const auto& [k, v] : d.options) options += (options.empty() ? "" : ", ") + k + "=" + v;
  if (!options.empty()) r.metadata.emplace_back("options", options);
  r.metadata.emplace_back("tessel", d.tool_version);
  const std::string n = std::to_string(d.configs.size());
  r.headlines = {{"configurations", "Configurations", n, n}};
  if (const ServeConfig* best = bestOf(d)) {
    r.headlines.push_back({"throughput", "Best throughput",
                           humanNumber(best->throughput) + " req/s",
                           exactNumber(best->throughput)});
    r.headlines.push_back(
        {"p99_s", "p99 at best throughput", engSeconds(best->p99), exactNumber(best->p99)});
  }
}

Section recommendations(const ServeData& d) {
  Section s{"recommendations", "Recommendations", {}, {}, {}};
  if (const ServeConfig* best = bestOf(d)) {
    s.notes.push_back(
        {"Best throughput: " + humanNumber(best->throughput) + " requests/s with " + best->label() +
             " (p99 " + engSeconds(best->p99) + ").",
         "serve-best",
         {{"config", std::to_string(best->index)}, {"throughput", exactNumber(best->throughput)}}});
  } else {
    s.notes.push_back({"No configuration was simulated.", "serve-best", {}});
  }
  for (size_t i = 0; i < d.recommendations.size(); ++i) {
    s.notes.push_back({d.recommendations[i], "serve-recommendation-" + std::to_string(i), {}});
  }
  return s;
}

}  // namespace

// No JSON below: readServe has checked every field the report reads.
Report serveReport(const std::string& json_text, const std::string& source) {
  const ServeData d = readServe(json_text, source);
  Report r;
  r.kind = "serve";
  r.source = source;
  addHeader(r, d);
  r.sections.push_back(recommendations(d));
  r.sections.push_back({"service", "What one job costs", {}, {serviceChart(d)}, {"service_times"}});
  r.sections.push_back({"workers",
                        "Throughput and latency against workers",
                        {},
                        workerCharts(d),
                        {"configurations"}});
  Section queues{"queues", "Queue depth over time", {}, depthCharts(d), {}};
  if (queues.charts.empty())
    queues.notes.push_back({"No configuration recorded depth samples.", "", {}});
  r.sections.push_back(std::move(queues));
  r.tables.push_back(serviceTable(d));
  r.tables.push_back(configurationsTable(d));
  return r;
}

}  // namespace tessel::reports::html
