#include "reports/html/llm_serve_input.h"

#include <cstdio>
#include <utility>

#include "reports/format.h"
#include "reports/html/json_input.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

using Fields = DocumentFields;

LlmSpread spreadOf(const Fields& f, const Json& p, const std::string& path, const char* key) {
  const std::string at = path + "." + key;
  const Json& o = f.at(p, path, key, JsonKind::Object);
  LlmSpread s;
  for (const auto& [name, member] : {std::pair{"mean", &LlmSpread::mean},
                                     {"p50", &LlmSpread::p50},
                                     {"p90", &LlmSpread::p90},
                                     {"p99", &LlmSpread::p99},
                                     {"max", &LlmSpread::max}}) {
    s.*member = f.number(o, at, name);
  }
  return s;
}

std::vector<LlmKvSample> kvOf(const Fields& f, const Json& p, const std::string& path) {
  std::vector<LlmKvSample> out;
  const Json& kv = f.at(p, path, "kv_use", JsonKind::Array);
  for (size_t i = 0; i < kv.size(); ++i) {
    const Json& s = kv[i];
    if (!s.is_array() || s.size() != 2 || !s[0].is_number() || !s[1].is_number_integer()) {
      badInput(f.source, "expected [seconds, blocks in use] at '" +
                             Fields::item(path, "kv_use", i) + "', found " + cut(s.dump(), 60));
    }
    out.push_back({s[0].get<double>(), s[1].get<int64_t>()});
  }
  return out;
}

std::vector<LlmRequest> timelineOf(const Fields& f, const Json& p, const std::string& path) {
  std::vector<LlmRequest> out;
  const Json& a = f.at(p, path, "timeline", JsonKind::Array);
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string at = Fields::item(path, "timeline", i);
    const Json& r = valueAt(a[i], at, JsonKind::Object, f.source);
    LlmRequest q;
    for (const auto& [key, member] : {std::pair{"id", &LlmRequest::id},
                                      {"prompt", &LlmRequest::prompt},
                                      {"output", &LlmRequest::output},
                                      {"preemptions", &LlmRequest::preemptions}}) {
      q.*member = f.integer(r, at, key);
    }
    for (const auto& [key, member] : {std::pair{"arrival", &LlmRequest::arrival},
                                      {"admitted", &LlmRequest::admitted},
                                      {"first_token", &LlmRequest::first_token},
                                      {"finish", &LlmRequest::finish}}) {
      q.*member = f.number(r, at, key);
    }
    out.push_back(q);
  }
  return out;
}

// The measurements of a point that ran.
void measured(const Fields& f, const Json& p, const std::string& path, LlmPoint& s) {
  s.completed = f.integer(p, path, "completed");
  s.iterations = f.integer(p, path, "iterations");
  s.preemptions = f.integer(p, path, "preemptions");
  s.kv_peak_blocks = f.integer(p, path, "kv_peak_blocks");
  for (const auto& [key, member] : {std::pair{"makespan_s", &LlmPoint::makespan},
                                    {"output_tokens_per_s", &LlmPoint::output_tokens_per_s},
                                    {"requests_per_s", &LlmPoint::requests_per_s},
                                    {"goodput_requests_per_s", &LlmPoint::goodput},
                                    {"slo_attained", &LlmPoint::slo_attained},
                                    {"queue_s_mean", &LlmPoint::queue_s},
                                    {"prefill_s_mean", &LlmPoint::prefill_s},
                                    {"decode_s_mean", &LlmPoint::decode_s},
                                    {"utilization", &LlmPoint::utilization},
                                    {"mac_utilization", &LlmPoint::mac_utilization},
                                    {"energy_per_token_j", &LlmPoint::energy_per_token_j},
                                    {"mean_in_system", &LlmPoint::mean_in_system},
                                    {"mean_waiting", &LlmPoint::mean_waiting},
                                    {"mean_batch", &LlmPoint::mean_batch},
                                    {"mean_tokens", &LlmPoint::mean_tokens},
                                    {"swap_s", &LlmPoint::swap_s}}) {
    s.*member = f.number(p, path, key);
  }
  s.ttft = spreadOf(f, p, path, "ttft_s");
  s.tpot = spreadOf(f, p, path, "tpot_s");
  s.e2e = spreadOf(f, p, path, "e2e_s");
  s.kv = kvOf(f, p, path);
  s.timeline = timelineOf(f, p, path);
}

LlmPoint pointOf(const Fields& f, const Json& p, const std::string& path) {
  valueAt(p, path, JsonKind::Object, f.source);
  LlmPoint s;
  s.rate = f.number(p, path, "rate");
  s.max_batch = f.integer(p, path, "max_batch");
  s.chunk = f.integer(p, path, "chunk");
  s.cores = f.text(p, path, "cores");
  const std::string status = f.text(p, path, "status");
  if (status == "infeasible") {
    s.ok = false;
    s.reason = f.text(p, path, "reason");
  } else if (status == "ok") {
    measured(f, p, path, s);
  } else {
    badInput(f.source, "expected \"ok\" or \"infeasible\" at '" + path + ".status', found \"" +
                           cut(status, 40) + "\"");
  }
  return s;
}

void readHeader(const Json& doc, const Fields& f, LlmServeData& d) {
  d.tool_version = doc.contains("tool_version") ? f.text(doc, "", "tool_version") : "?";
  const Json& arch = f.at(doc, "", "arch", JsonKind::Object);
  d.arch_name = f.text(arch, "arch", "name");
  d.arch_hash = f.text(arch, "arch", "hash");
  d.arch_cores = f.integer(arch, "arch", "cores");
  d.workload = f.text(doc, "", "workload");
  for (const auto& [k, v] : f.at(doc, "", "options", JsonKind::Object).items()) {
    d.options.emplace_back(k, scalarText(v));
  }
  d.device = f.text(doc, "", "device");
  const Json& m = f.at(doc, "", "memory", JsonKind::Object);
  for (const auto& [key, member] : {std::pair{"dram_bytes", &LlmServeData::dram_bytes},
                                    {"weights_bytes", &LlmServeData::weights_bytes},
                                    {"activation_bytes", &LlmServeData::activation_bytes},
                                    {"kv_budget_bytes", &LlmServeData::kv_budget_bytes},
                                    {"kv_bytes_per_token", &LlmServeData::kv_bytes_per_token}}) {
    d.*member = f.number(m, "memory", key);
  }
  d.kv_blocks = f.integer(m, "memory", "kv_blocks");
  const Json& alone = f.at(doc, "", "alone", JsonKind::Object);
  for (const auto& [key, member] : {std::pair{"prefill_s", &LlmServeData::prefill_s},
                                    {"decode_step_s", &LlmServeData::decode_step_s},
                                    {"weight_read_s", &LlmServeData::weight_read_s}}) {
    d.*member = f.number(alone, "alone", key);
  }
  d.shapes_evaluated = f.integer(doc, "", "shapes_evaluated");
}

LlmServeData readDoc(const Json& doc, const Fields& f) {
  if (!doc.is_object() || doc.value("kind", Json()) != "llm_serve") {
    badInput(f.source,
             "expected an LLM serve JSON (`tessel serve --json` on a decoder) with kind "
             "\"llm_serve\"");
  }
  if (f.integer(doc, "", "schema_version") != 1) {
    badInput(f.source,
             "expected schema_version 1 (reports/SCHEMA.md), got " + doc["schema_version"].dump());
  }
  LlmServeData d;
  readHeader(doc, f, d);
  const Json& points = f.at(doc, "", "points", JsonKind::Array);
  for (size_t i = 0; i < points.size(); ++i) {
    d.points.push_back(pointOf(f, points[i], Fields::item("", "points", i)));
    d.points.back().index = i;
  }
  const Json& rec = f.at(doc, "", "recommendations", JsonKind::Array);
  for (size_t i = 0; i < rec.size(); ++i) {
    d.recommendations.push_back(
        valueAt(rec[i], Fields::item("", "recommendations", i), JsonKind::String, f.source)
            .get<std::string>());
  }
  return d;
}

}  // namespace

std::string rateText(double rate) {
  if (rate <= 0) return "trace";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", rate);
  return buf;
}

std::string LlmPoint::label() const {
  return std::string(cores == "disaggregated" ? "disaggregated, " : "") +
         (rate > 0 ? "rate " + rateText(rate) + "/s" : std::string("trace")) + ", batch " +
         std::to_string(max_batch) + ", chunk " + std::to_string(chunk);
}

double LlmServeData::kvShare(double blocks) const {
  return kv_blocks > 0 ? blocks / static_cast<double>(kv_blocks) : 0;
}

LlmServeData readLlmServe(const std::string& json_text, const std::string& source) {
  return readDoc(parseJson(json_text, source), Fields{source});
}

}  // namespace tessel::reports::html
