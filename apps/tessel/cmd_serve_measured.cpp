// tessel serve --compare-measured: the measured run's stages served one by one, and the table
// and JSON of the model against the measurements.
#include "apps/tessel/cmd_serve_measured.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dataflows/mapper.h"
#include "reports/serve/llm_report.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::app {
namespace {

namespace L = serve::llm;
using nlohmann::ordered_json;

bool given(const ServeArgs& a, const std::string& option) {
  return std::find(a.given.begin(), a.given.end(), option) != a.given.end();
}

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return a == b || std::filesystem::equivalent(a, b, ec);
}

// One stage served: its comparison, or why the model could not serve it.
struct StageRun {
  L::StageComparison compared;
  std::string infeasible;  // the reason, when the stage could not run
};

struct Scored {
  L::LlmResult result;  // the first stage's facts, a point per stage
  std::vector<StageRun> stages;
  L::OverallComparison overall;  // over the stages that ran
  size_t ran = 0;
};

Scored serveStages(const std::vector<L::MeasuredRequest>& measured, const L::LlmInputs& in,
                   const L::LlmServeOptions& options) {
  Scored s;
  std::vector<L::StageComparison> ran;
  const std::vector<L::MeasuredStage> stages = L::stagesOf(measured);
  for (size_t i = 0; i < stages.size(); ++i) {
    L::LlmServeOptions o = options;
    o.stream.recorded = L::stageRequests(measured, stages[i]);
    L::LlmResult r = L::serveLlm(in, o);
    const L::LlmPoint& p = r.points.front();
    StageRun run;
    if (p.ok) {
      run.compared = L::compareStage(measured, stages[i], p.run.requests);
      ran.push_back(run.compared);
    } else {
      run.compared.name = stages[i].name;
      run.compared.requests = static_cast<int64_t>(stages[i].rows.size());
      run.compared.rate = L::measuredRate(measured, stages[i]);
      run.infeasible = p.reason;
    }
    s.stages.push_back(std::move(run));
    if (i == 0) {
      s.result = r;
      s.result.points.clear();
      s.result.shapes_evaluated = 0;
      s.result.recommendations.clear();
    }
    s.result.points.push_back(p);
    s.result.shapes_evaluated += r.shapes_evaluated;
  }
  s.overall = L::overall(ran);
  s.ran = ran.size();
  return s;
}


std::string ms(double s) { return units::formatFixed(s * 1e3, s < 0.01 ? 2 : 1); }

// A relative error as a signed percentage; "-" when undefined.
std::string percent(double e, bool sign = true) {
  if (std::isnan(e)) return "-";
  return (sign && e >= 0 ? "+" : "") + units::formatFixed(e * 100, 1) + "%";
}

void writeLatency(const char* label, const L::LatencyComparison& c, std::ostream& os) {
  os << std::left << std::setw(6) << label << std::right;
  for (const L::Percentiles* p : {&c.measured, &c.model}) {
    for (double v : {p->mean, p->p50, p->p90, p->p99}) os << std::setw(9) << ms(v);
  }
  for (double e : {c.error.mean, c.error.p50, c.error.p90, c.error.p99}) {
    os << std::setw(8) << percent(e);
  }
  os << "\n";
}

void writeStage(const StageRun& run, std::ostream& os) {
  const L::StageComparison& c = run.compared;
  os << "\nstage " << c.name << ": " << c.requests << " requests"
     << (std::isnan(c.rate) ? ", all at one instant" : " at " + units::formatFixed(c.rate, 2) + "/s");
  if (!run.infeasible.empty()) {
    os << "; infeasible: " << run.infeasible << "\n";
    return;
  }
  os << "; median per-request |E2E error| " << percent(c.e2e_request_error_median, false) << "\n";
  os << std::left << std::setw(6) << "" << std::setw(36) << "  measured (ms)" << std::setw(36)
     << "  model (ms)"
     << "  error\n";
  os << std::setw(6) << "" << std::right;
  for (int side = 0; side < 2; ++side) {
    for (const char* h : {"mean", "p50", "p90", "p99"}) os << std::setw(9) << h;
  }
  for (const char* h : {"mean", "p50", "p90", "p99"}) os << std::setw(8) << h;
  os << "\n";
  writeLatency("TTFT", c.ttft, os);
  if (c.tpot_requests > 0) {
    writeLatency("TPOT", c.tpot, os);
  } else {
    os << "TPOT  (no request of 2 or more output tokens)\n";
  }
  writeLatency("E2E", c.e2e, os);
}

void writeTable(const Scored& s, const reports::ServeHeader& h, const std::string& file,
                size_t requests, std::ostream& os) {
  os << "tessel serve | arch " << h.arch_name << " (" << h.arch_hash.substr(0, 8) << "), "
     << s.result.device << " | workload " << h.workload
     << " | LLM service against a measured run\n";
  os << "options:";
  for (const auto& [k, v] : h.options) os << " " << k << "=" << v;
  os << "\nmeasured run " << file << ": " << requests << " requests in " << s.stages.size()
     << (s.stages.size() == 1 ? " stage" : " stages") << ", each served from an empty service\n";
  for (const StageRun& run : s.stages) writeStage(run, os);
  os << "\noverall: ";
  if (s.ran == 0) {
    os << "no stage could be served\n";
  } else {
    os << s.overall.requests << " requests in " << s.ran << (s.ran == 1 ? " stage" : " stages")
       << "; median per-request |E2E error| " << percent(s.overall.e2e_request_error_median, false)
       << "; median over stages of |E2E mean error| "
       << percent(s.overall.e2e_mean_error_median, false) << "\n";
  }
  os << "(times in ms; error: (model - measured) / measured; TPOT: (E2E - TTFT) / (output - 1) "
        "over requests of 2 or more output tokens; percentiles and medians nearest rank)\n";
}

ordered_json spread(const L::Percentiles& p) {
  return {{"mean", p.mean}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}};
}

ordered_json latencyJson(const L::LatencyComparison& c) {
  return {{"measured", spread(c.measured)}, {"model", spread(c.model)}, {"error", spread(c.error)}};
}

// NaN (undefined) is written as null.
ordered_json stageJson(const StageRun& run) {
  const L::StageComparison& c = run.compared;
  ordered_json j = {{"name", c.name}, {"requests", c.requests}, {"rate", c.rate}};
  j["status"] = run.infeasible.empty() ? "ok" : "infeasible";
  if (!run.infeasible.empty()) {
    j["reason"] = run.infeasible;
    return j;
  }
  j["ttft"] = latencyJson(c.ttft);
  j["tpot"] = latencyJson(c.tpot);
  j["e2e"] = latencyJson(c.e2e);
  j["tpot_requests"] = c.tpot_requests;
  j["e2e_request_error_median"] = c.e2e_request_error_median;
  return j;
}

std::string jsonOf(const Scored& s, const reports::ServeHeader& h, const std::string& file) {
  ordered_json j = ordered_json::parse(reports::llmServeJsonString(s.result, h));
  ordered_json stages = ordered_json::array();
  for (const StageRun& run : s.stages) stages.push_back(stageJson(run));
  const double none = std::numeric_limits<double>::quiet_NaN();
  j["compare_measured"] = {
      {"file", file},
      {"stages", stages},
      {"overall",
       {{"requests", s.overall.requests},
        {"stages", s.ran},
        {"e2e_request_error_median", s.ran ? s.overall.e2e_request_error_median : none},
        {"e2e_mean_error_median", s.ran ? s.overall.e2e_mean_error_median : none}}}};
  return j.dump(2) + "\n";
}

}  // namespace

std::vector<L::MeasuredRequest> measuredRequests(const ServeArgs& args,
                                                 L::LlmServeOptions& options) {
  const std::string& path = args.compare_measured;
  if (given(args, "--arrivals") && !sameFile(args.arrivals, path)) {
    throw ConfigError({"", 0, 0, "--arrivals"},
                      "--compare-measured replays its own requests; leave --arrivals out");
  }
  for (const char* o : {"--rate", "--requests", "--prompt-len", "--output-len"}) {
    if (given(args, o)) {
      const std::string option = o;
      throw ConfigError({"", 0, 0, option},
                        option + " is set by the measured run " + path +
                            ": --compare-measured replays its requests as they arrived; leave " +
                            option + " out");
    }
  }
  const size_t points = options.modes.size() * options.max_batches.size() *
                        std::max<size_t>(1, options.chunks.size());
  if (points > 1) {
    throw ConfigError({"", 0, 0, "--compare-measured"},
                      "scores one configuration, not a grid of " + std::to_string(points) +
                          ": give one --cores, one --max-batch and one --chunk");
  }
  std::vector<L::MeasuredRequest> measured = L::readMeasured(path);
  options.stream.arrivals = {L::ArrivalSpec::Kind::Trace, 1, path, path};
  options.stream.requests = static_cast<int64_t>(measured.size());
  options.stream.requests_given = false;
  return measured;
}

int compareMeasured(const std::vector<L::MeasuredRequest>& measured, const ServeArgs& args,
                    L::LlmInputs in, const L::LlmServeOptions& options,
                    const reports::ServeHeader& header, const std::string& device,
                    std::ostream& out) {
  // One mapper for every stage: an op shape is searched once.
  if (!in.run.plan.mapper_instance) {
    in.run.plan.mapper_instance =
        dataflows::makeMapper(in.run.plan.mapper, in.run.plan.mapper_options);
  }
  Scored s = serveStages(measured, in, options);
  if (!device.empty()) s.result.device = device;
  const bool table = !args.quiet && !isStandardOutput(args.json_path);
  if (table) writeTable(s, header, args.compare_measured, measured.size(), out);
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, jsonOf(s, header, args.compare_measured), out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
