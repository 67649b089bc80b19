// The report of an LLM serving simulation (`tessel serve --json` on a decoder): what one request
// costs alone, every (rate, max batch, chunk) point's throughput and latency, latency against
// the rate, the KV cache's use over time and one point's request timeline.
#include "reports/html/llm_serve_report.h"

#include "reports/format.h"
#include "reports/html/json_input.h"
#include "reports/html/llm_serve_charts.h"
#include "reports/html/llm_serve_input.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// Seconds shown in ms as the terminal table shows them (two decimals below 10 ms), kept in ms.
Cell msCell(double seconds) {
  return numberCell(roundQuantity(seconds * 1e3), fixedText(seconds * 1e3, seconds < 0.01 ? 2 : 1));
}

Cell ratioCell(double v) { return numberCell(v, metricText("utilization", v)); }

Cell rateCell(double v) { return numberCell(v, humanNumber(v)); }

const Column kColumns[] = {{"cores", false},         {"rate", true},
                           {"max_batch", true},
                           {"chunk", true},          {"status", false},
                           {"reason", false},        {"output_tokens_per_s", true},
                           {"requests_per_s", true}, {"goodput_requests_per_s", true},
                           {"slo_attained", true},   {"ttft_p50_ms", true},
                           {"ttft_p90_ms", true},    {"ttft_p99_ms", true},
                           {"tpot_p50_ms", true},    {"tpot_p90_ms", true},
                           {"tpot_p99_ms", true},    {"e2e_p50_ms", true},
                           {"e2e_p99_ms", true},     {"kv_peak", true},
                           {"kv_peak_blocks", true}, {"preemptions", true},
                           {"utilization", true},    {"mac_utilization", true},
                           {"energy_per_token_mj", true}};

Table pointsTable(const LlmServeData& d) {
  Table t{"points", "Simulated points", {std::begin(kColumns), std::end(kColumns)}, {}};
  for (const LlmPoint& p : d.points) {
    std::vector<Cell> row = {textCell(p.cores), numberCell(p.rate, rateText(p.rate)),
                             countCell(p.max_batch),
                             countCell(p.chunk), textCell(p.ok ? "ok" : "infeasible"),
                             textCell(p.reason)};
    if (p.ok) {
      const double kv = d.kvShare(static_cast<double>(p.kv_peak_blocks));
      for (const Cell& c :
           {rateCell(p.output_tokens_per_s), rateCell(p.requests_per_s), rateCell(p.goodput),
            ratioCell(p.slo_attained), msCell(p.ttft.p50), msCell(p.ttft.p90), msCell(p.ttft.p99),
            msCell(p.tpot.p50), msCell(p.tpot.p90), msCell(p.tpot.p99), msCell(p.e2e.p50),
            msCell(p.e2e.p99), ratioCell(kv), countCell(p.kv_peak_blocks), countCell(p.preemptions),
            ratioCell(p.utilization), ratioCell(p.mac_utilization),
            numberCell(roundQuantity(p.energy_per_token_j * 1e3),
                       fixedText(p.energy_per_token_j * 1e3, 2))}) {
        row.push_back(c);
      }
    }
    row.resize(t.columns.size(), textCell(""));
    t.addRow(std::move(row));
  }
  return t;
}

// The point with the best goodput (the first on a tie), or nullptr when none ran.
const LlmPoint* bestOf(const LlmServeData& d) {
  const LlmPoint* best = nullptr;
  for (const LlmPoint& p : d.points) {
    if (p.ok && (!best || p.goodput > best->goodput)) best = &p;
  }
  return best;
}

std::string bytes(double v) { return metricText("bytes", v); }

void addHeader(Report& r, const LlmServeData& d) {
  r.title = "Serving " + d.workload + " on " + d.arch_name;
  r.metadata = {{"accelerator", d.arch_name + " (hash " + d.arch_hash + ")"},
                {"cores", std::to_string(d.arch_cores)},
                {"device", d.device},
                {"workload", d.workload}};
  std::string options;
  for (const auto& [k, v] : d.options) options += (options.empty() ? "" : ", ") + k + "=" + v;
  if (!options.empty()) r.metadata.emplace_back("options", options);
  r.metadata.emplace_back(
      "memory", bytes(d.dram_bytes) + " DRAM: weights " + bytes(d.weights_bytes) +
                    ", activations " + bytes(d.activation_bytes) + "; KV cache " +
                    bytes(d.kv_budget_bytes) + " = " + withCommas(d.kv_blocks) + " blocks (" +
                    fixedText(d.kv_bytes_per_token / 1024, 1) + " KiB per token)");
  r.metadata.emplace_back("one request alone", "prefill " + engSeconds(d.prefill_s) +
                                                   ", decode step " + engSeconds(d.decode_step_s) +
                                                   "; reading the weights once " +
                                                   engSeconds(d.weight_read_s));
  r.metadata.emplace_back("shapes simulated", std::to_string(d.shapes_evaluated));
  r.metadata.emplace_back("tessel", d.tool_version);
  size_t ran = 0;
  for (const LlmPoint& p : d.points) ran += p.ok ? 1 : 0;
  const std::string n = std::to_string(d.points.size());
  r.headlines = {{"points", "Points (" + std::to_string(ran) + " ran)", n, n}};
  if (const LlmPoint* best = bestOf(d)) {
    r.headlines.push_back({"goodput", "Best goodput (" + best->label() + ")",
                           humanNumber(best->goodput) + " req/s", exactNumber(best->goodput)});
    r.headlines.push_back({"output_tokens_per_s", "Output tokens/s there",
                           humanNumber(best->output_tokens_per_s),
                           exactNumber(best->output_tokens_per_s)});
    r.headlines.push_back(
        {"ttft_p90_s", "TTFT p90 there", engSeconds(best->ttft.p90), exactNumber(best->ttft.p90)});
    r.headlines.push_back(
        {"tpot_p90_s", "TPOT p90 there", engSeconds(best->tpot.p90), exactNumber(best->tpot.p90)});
  }
}

Section recommendations(const LlmServeData& d) {
  Section s{"recommendations", "Recommendations", {}, {}, {}};
  for (size_t i = 0; i < d.recommendations.size(); ++i) {
    s.notes.push_back({d.recommendations[i], "llm-recommendation-" + std::to_string(i), {}});
  }
  if (s.notes.empty()) s.notes.push_back({"The run made no recommendation.", "", {}});
  return s;
}

Section latencySection(const LlmServeData& d) {
  Section s{"latency", "Latency against the arrival rate", {}, latencyCharts(d), {}};
  if (s.charts.empty()) {
    s.notes.push_back(
        {"No chart: fewer than two arrival rates ran (a single rate, or a trace); "
         "the table has every percentile.",
         "llm-latency-skipped",
         {}});
  }
  return s;
}

Section kvSection(const LlmServeData& d) {
  Section s{"kv", "KV-cache use over time", {}, {}, {}};
  Chart c = kvChart(d);
  if (c.svg.empty()) {
    s.notes.push_back({"No point that ran sampled its KV cache.", "", {}});
  } else {
    s.charts.push_back(std::move(c));
  }
  return s;
}

Section timelineSection(const LlmServeData& d) {
  Section s{"timeline", "Request timeline", {}, {}, {}};
  for (const LlmPoint& p : d.points) {
    if (p.ok && !p.timeline.empty()) {
      s.charts.push_back(timelineChart(p));
      return s;
    }
  }
  s.notes.push_back({"No point that ran recorded a timeline.", "", {}});
  return s;
}

}  // namespace

// No JSON below: readLlmServe has checked every field the report reads.
Report llmServeReport(const std::string& json_text, const std::string& source) {
  const LlmServeData d = readLlmServe(json_text, source);
  Report r;
  r.kind = "llm_serve";
  r.source = source;
  addHeader(r, d);
  r.sections.push_back(recommendations(d));
  r.sections.push_back({"points", "Simulated points", {}, {}, {"points"}});
  r.sections.push_back(latencySection(d));
  r.sections.push_back(kvSection(d));
  r.sections.push_back(timelineSection(d));
  r.tables.push_back(pointsTable(d));
  return r;
}

}  // namespace tessel::reports::html
