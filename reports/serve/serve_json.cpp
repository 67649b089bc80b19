#include <nlohmann/json.hpp>

#include "reports/json.h"
#include "reports/serve/serve_report.h"
#include "sim/run.h"

namespace tessel::reports {

namespace {

using nlohmann::ordered_json;

std::string stageName(serve::Stage s) {
  return s == serve::Stage::Pre ? "pre" : s == serve::Stage::Job ? "job" : "post";
}

ordered_json profileJson(const serve::ServiceProfile& p) {
  ordered_json j;
  j["cores"] = serve::nameOf(p.mode);
  j["batch"] = p.batch;
  j["parallel_cores"] = p.cores;
  j["pre_s"] = p.times.pre;
  j["job_s"] = p.times.job;  // by number of busy cores
  j["post_s"] = p.times.post;
  j["job_host_s"] = p.times.job_host;
  j["fused_sync_s"] = p.fused_sync;
  ordered_json ops = ordered_json::array();
  for (const serve::StageOp& op : p.ops) {
    if (op.stage == serve::Stage::Job && op.placement != "host") continue;  // the model itself
    ops.push_back({{"name", op.name},
                   {"stage", stageName(op.stage)},
                   {"placement", op.placement},
                   {"seconds", op.seconds}});
  }
  j["host_ops"] = ops;
  return j;
}

ordered_json resultJson(const serve::Configuration& c) {
  const serve::ScenarioResult& s = c.result;
  ordered_json j;
  j["cores"] = serve::nameOf(c.mode);
  j["workers"] = c.workers;
  j["batch"] = c.batch;
  j["variant"] = c.variant;
  j["completed"] = s.completed;
  j["makespan_s"] = s.makespan;
  j["throughput"] = s.throughput;
  j["latency_s"] = {{"mean", s.latency_mean},
                    {"p50", s.latency_p50},
                    {"p90", s.latency_p90},
                    {"p99", s.latency_p99},
                    {"max", s.latency_max}};
  j["accelerator_utilization"] = s.accelerator_utilization;
  j["host_utilization"] = s.host_utilization;
  j["mean_in_system"] = s.mean_in_system;
  j["mean_submit_wait_s"] = s.mean_submit_wait;
  j["mean_submit_depth"] = s.mean_submit_depth;
  j["max_submit_depth"] = s.max_submit_depth;
  ordered_json depth = ordered_json::array();
  for (const serve::DepthSample& d : s.depth) depth.push_back({d.t, d.submit, d.in_system});
  j["depth"] = depth;  // [seconds, jobs in the submit queue, requests in the system]
  return j;
}

ordered_json recommendationsJson(const serve::Recommendations& r) {
  ordered_json j;
  ordered_json workers = ordered_json::array();
  for (const auto& w : r.workers) {
    workers.push_back({{"cores", serve::nameOf(w.mode)},
                       {"batch", w.batch},
                       {"saturating_workers", w.saturating},
                       {"closed_form_workers", w.closed_form},
                       {"throughput", w.throughput}});
  }
  j["workers"] = workers;
  ordered_json steps = ordered_json::array();
  for (const auto& s : r.batch_steps) {
    steps.push_back({{"cores", serve::nameOf(s.mode)},
                     {"from", s.from},
                     {"to", s.to},
                     {"throughput_gain", s.throughput_gain},
                     {"latency_cost", s.latency_cost}});
  }
  j["batch_steps"] = steps;
  ordered_json knees = ordered_json::object();
  for (size_t i = 0; i < r.modes.size(); ++i) knees[serve::nameOf(r.modes[i])] = r.batch_knee[i];
  j["batch_knee"] = knees;
  ordered_json dtypes = ordered_json::array();
  for (const auto& d : r.dtypes) {
    dtypes.push_back({{"variant", d.variant},
                      {"host_seconds_saved", d.host_seconds},
                      {"throughput_gain", d.throughput_gain}});
  }
  j["dtypes"] = dtypes;
  j["text"] = r.lines;
  return j;
}

}  // namespace

std::string serveJsonString(const serve::ServeResult& r, const ServeHeader& h) {
  ordered_json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["tool"] = kToolName;
  j["tool_version"] = sim::toolVersion();
  j["kind"] = "serve";
  j["arch"] = {{"name", h.arch_name}, {"hash", h.arch_hash}, {"cores", h.cores}};
  j["workload"] = h.workload;
  ordered_json options = ordered_json::object();
  for (const auto& [k, v] : h.options) options[k] = v;
  j["options"] = options;
  ordered_json profiles = ordered_json::array();
  for (const auto& p : r.profiles) profiles.push_back(profileJson(p));
  j["service_times"] = profiles;
  ordered_json infeasible = ordered_json::array();
  for (const serve::InfeasibleProfile& f : r.infeasible) {
    infeasible.push_back({{"cores", serve::nameOf(f.mode)}, {"batch", f.batch}, {"reason", f.reason}});
  }
  j["infeasible"] = infeasible;
  ordered_json variants = ordered_json::array();
  for (size_t i = 0; i < r.variant_profiles.size(); ++i) {
    ordered_json v = profileJson(r.variant_profiles[i]);
    v["variant"] = r.variant_names[i];
    variants.push_back(v);
  }
  j["variant_service_times"] = variants;
  ordered_json configs = ordered_json::array();
  for (const auto& c : r.configurations) configs.push_back(resultJson(c));
  j["configurations"] = configs;
  j["recommendations"] = recommendationsJson(r.recommendations);
  return j.dump(2) + "\n";
}

}  // namespace tessel::reports
