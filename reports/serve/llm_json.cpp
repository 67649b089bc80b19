#include <nlohmann/json.hpp>

#include "reports/json.h"
#include "reports/serve/llm_report.h"
#include "sim/run.h"

namespace tessel::reports {
namespace {

using nlohmann::ordered_json;

ordered_json spread(const serve::llm::Percentiles& p) {
  return {{"mean", p.mean}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"max", p.max}};
}

ordered_json pointJson(const serve::llm::LlmPoint& p) {
  ordered_json j;
  j["cores"] = serve::llm::nameOf(p.mode);
  j["rate"] = p.rate;
  j["max_batch"] = p.max_batch;
  j["chunk"] = p.chunk;
  j["status"] = p.ok ? "ok" : "infeasible";
  if (!p.ok) {
    j["reason"] = p.reason;
    return j;
  }
  const serve::llm::Metrics& m = p.metrics;
  j["completed"] = m.completed;
  j["makespan_s"] = m.makespan;
  j["ttft_s"] = spread(m.ttft);
  j["tpot_s"] = spread(m.tpot);
  j["e2e_s"] = spread(m.e2e);
  j["output_tokens_per_s"] = m.output_tokens_per_s;
  j["requests_per_s"] = m.requests_per_s;
  j["goodput_requests_per_s"] = m.goodput_requests_per_s;
  j["slo_attained"] = m.slo_attained;
  j["queue_s_mean"] = m.queue_s;
  j["prefill_s_mean"] = m.prefill_s;
  j["decode_s_mean"] = m.decode_s;
  j["utilization"] = m.utilization;
  j["mac_utilization"] = m.mac_utilization;
  j["energy_per_token_j"] = m.energy_per_token_j;
  j["mean_in_system"] = m.mean_in_system;
  j["mean_waiting"] = m.mean_waiting;
  j["iterations"] = p.run.iterations;
  j["mean_batch"] = p.run.mean_batch;
  j["mean_tokens"] = p.run.mean_tokens;
  j["preemptions"] = p.run.preemptions;
  j["swap_s"] = p.run.swap_seconds;
  j["kv_peak_blocks"] = p.run.kv_peak_blocks;
  j["prefix_reused_tokens"] = p.run.prefix_reused_tokens;
  j["prefix_reused_fraction"] = p.run.prefix_reused_fraction;
  ordered_json kv = ordered_json::array();
  for (const serve::llm::KvSample& s : p.run.kv) kv.push_back({s.t, s.blocks});
  j["kv_use"] = kv;  // [seconds, blocks in use]
  ordered_json timeline = ordered_json::array();
  const size_t shown = std::min<size_t>(p.run.requests.size(), 64);
  for (size_t i = 0; i < shown; ++i) {
    const serve::llm::RequestRecord& r = p.run.requests[i];
    timeline.push_back({{"id", r.id},
                        {"prompt", r.prompt},
                        {"output", r.output},
                        {"arrival", r.arrival},
                        {"admitted", r.admitted},
                        {"first_token", r.first_token},
                        {"finish", r.finish},
                        {"preemptions", r.preemptions}});
  }
  j["timeline"] = timeline;  // the first 64 requests
  return j;
}

}  // namespace

std::string llmServeJsonString(const serve::llm::LlmResult& r, const ServeHeader& h) {
  ordered_json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["tool"] = kToolName;
  j["tool_version"] = sim::toolVersion();
  j["kind"] = "llm_serve";
  j["arch"] = {{"name", h.arch_name}, {"hash", h.arch_hash}, {"cores", h.cores}};
  j["workload"] = h.workload;
  ordered_json options = ordered_json::object();
  for (const auto& [k, v] : h.options) options[k] = v;
  j["options"] = options;
  j["device"] = r.device;
  j["split"] = r.split;
  const serve::llm::LlmMemory& m = r.memory;
  j["memory"] = {{"dram_bytes", m.capacity_bytes},     {"weights_bytes", m.weights_bytes},
                 {"activation_bytes", m.activation_bytes}, {"kv_budget_bytes", m.kv_budget_bytes},
                 {"kv_bytes_per_token", m.kv_bytes_per_token}, {"kv_blocks", m.kv_blocks}};
  j["alone"] = {{"prompt_tokens", r.alone_prompt}, {"prefill_s", r.prefill_s},
                {"decode_step_s", r.decode_step_s},
                {"weight_read_s", r.weight_read_s}};
  j["shapes_evaluated"] = r.shapes_evaluated;
  ordered_json points = ordered_json::array();
  for (const serve::llm::LlmPoint& p : r.points) points.push_back(pointJson(p));
  j["points"] = points;
  j["recommendations"] = r.recommendations;
  return j.dump(2) + "\n";
}

}  // namespace tessel::reports
