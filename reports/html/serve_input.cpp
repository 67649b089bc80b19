#include "reports/html/serve_input.h"

#include <utility>

#include "reports/format.h"
#include "reports/html/json_input.h"

namespace tessel::reports::html {
namespace {

// The document's fields; this one's integers are ints.
struct Fields : DocumentFields {
  int integer(const Json& o, const std::string& path, const char* key) const {
    return static_cast<int>(DocumentFields::integer(o, path, key));
  }
};

ServeProfile profileOf(const Fields& f, const Json& p, const std::string& path) {
  ServeProfile s;
  s.cores = f.text(p, path, "cores");
  s.batch = f.integer(p, path, "batch");
  s.parallel_cores = f.integer(p, path, "parallel_cores");
  for (const auto& [key, member] : {std::pair{"pre_s", &ServeProfile::pre},
                                    {"post_s", &ServeProfile::post},
                                    {"job_host_s", &ServeProfile::job_host}}) {
    s.*member = f.number(p, path, key);
  }
  for (const Json& v : f.array(p, path, "job_s", JsonKind::Number))
    s.job.push_back(v.get<double>());
  if (s.job.empty()) badInput(f.source, "expected at least one entry at '" + path + ".job_s'");
  return s;
}

std::vector<DepthSample> depthOf(const Fields& f, const Json& c, const std::string& path) {
  std::vector<DepthSample> out;
  const Json& depth = f.at(c, path, "depth", JsonKind::Array);
  for (size_t i = 0; i < depth.size(); ++i) {
    const Json& d = depth[i];
    if (!d.is_array() || d.size() != 3 || !d[0].is_number() || !d[1].is_number() ||
        !d[2].is_number()) {
      badInput(f.source, "expected [seconds, submit queue jobs, requests in system] at '" +
                             Fields::item(path, "depth", i) + "', found " + cut(d.dump(), 60));
    }
    out.push_back({d[0].get<double>(), d[1].get<double>(), d[2].get<double>()});
  }
  return out;
}

ServeConfig configOf(const Fields& f, const Json& c, const std::string& path) {
  ServeConfig s;
  s.cores = f.text(c, path, "cores");
  s.workers = f.integer(c, path, "workers");
  s.batch = f.integer(c, path, "batch");
  s.variant = f.text(c, path, "variant");
  for (const auto& [key, member] :
       {std::pair{"completed", &ServeConfig::completed},
        {"makespan_s", &ServeConfig::makespan},
        {"throughput", &ServeConfig::throughput},
        {"accelerator_utilization", &ServeConfig::accelerator_utilization},
        {"host_utilization", &ServeConfig::host_utilization},
        {"mean_submit_depth", &ServeConfig::mean_submit_depth},
        {"max_submit_depth", &ServeConfig::max_submit_depth}}) {
    s.*member = f.number(c, path, key);
  }
  const Json& lat = f.at(c, path, "latency_s", JsonKind::Object);
  for (const auto& [key, member] : {std::pair{"mean", &ServeConfig::mean},
                                    {"p50", &ServeConfig::p50},
                                    {"p90", &ServeConfig::p90},
                                    {"p99", &ServeConfig::p99},
                                    {"max", &ServeConfig::max}}) {
    s.*member = f.number(lat, path + ".latency_s", key);
  }
  s.depth = depthOf(f, c, path);
  return s;
}

ServeData readDoc(const Json& doc, const Fields& f) {
  if (!doc.is_object() || doc.value("kind", Json()) != "serve") {
    badInput(f.source, "expected a serve JSON (`tessel serve --json`) with kind \"serve\"");
  }
  if (f.integer(doc, "", "schema_version") != 1) {
    badInput(f.source,
             "expected schema_version 1 (reports/SCHEMA.md), got " + doc["schema_version"].dump());
  }
  ServeData d;
  d.tool_version = doc.contains("tool_version") ? f.text(doc, "", "tool_version") : "?";
  const Json& arch = f.at(doc, "", "arch", JsonKind::Object);
  d.arch_name = f.text(arch, "arch", "name");
  d.arch_hash = f.text(arch, "arch", "hash");
  d.arch_cores = f.integer(arch, "arch", "cores");
  d.workload = f.text(doc, "", "workload");
  for (const auto& [k, v] : f.at(doc, "", "options", JsonKind::Object).items()) {
    d.options.emplace_back(k, scalarText(v));
  }
  for (const char* key : {"service_times", "variant_service_times"}) {
    const Json& a = f.array(doc, "", key, JsonKind::Object);
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string path = Fields::item("", key, i);
      d.profiles.push_back(profileOf(f, a[i], path));
      if (key[0] == 'v') d.profiles.back().variant = f.text(a[i], path, "variant");
    }
  }
  const Json& configs = f.array(doc, "", "configurations", JsonKind::Object);
  for (size_t i = 0; i < configs.size(); ++i) {
    d.configs.push_back(configOf(f, configs[i], Fields::item("", "configurations", i)));
    d.configs.back().index = i;
  }
  const Json& rec = f.at(doc, "", "recommendations", JsonKind::Object);
  for (const Json& line : f.array(rec, "recommendations", "text", JsonKind::String)) {
    d.recommendations.push_back(line.get<std::string>());
  }
  return d;
}

}  // namespace

std::string ServeConfig::label() const {
  return cores + ", batch " + std::to_string(batch) + ", " + std::to_string(workers) +
         (workers == 1 ? " worker" : " workers") + (variant.empty() ? "" : ", " + variant);
}

ServeData readServe(const std::string& json_text, const std::string& source) {
  return readDoc(parseJson(json_text, source), Fields{{source}});
}

}  // namespace tessel::reports::html
