#include "sweep/evaluate.h"

#include <charconv>
#include <cmath>
#include <new>
#include <nlohmann/json.hpp>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"
#include "sweep/base_values.h"
#include "sweep/expression.h"
#include "sweep/metrics.h"
#include "util/error.h"
#include "util/paths.h"

namespace tessel::sweep {
namespace {

using Json = nlohmann::ordered_json;

int64_t wholeNumber(const Point& p, const std::string& key, int64_t fallback) {
  const std::string text = p.value(key);
  if (text.empty()) return fallback;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw ConfigError({"", 0, 0, key}, "expected a whole number, got '" + text + "'");
  }
  return v;
}

models::WorkloadOptions workloadOptions(const Point& p, DType dtype) {
  models::WorkloadOptions o;
  o.dtype = dtype;
  o.seq = wholeNumber(p, "workload.seq", o.seq);
  o.batch = wholeNumber(p, "workload.batch", o.batch);
  o.image = wholeNumber(p, "workload.image", o.image);
  o.layers = wholeNumber(p, "workload.layers", o.layers);
  if (!p.value("workload.phase").empty()) o.phase = p.value("workload.phase");
  if (!p.value("workload.sparsity").empty()) {
    o.sparsity = models::parseSparsitySpec(p.value("workload.sparsity"), "workload.sparsity");
  }
  for (const char* option : {"seq", "batch", "image", "layers", "phase"}) {
    if (!p.value(std::string("workload.") + option).empty()) o.given.push_back(std::string("--") + option);
  }
  return o;
}

Json paramsOf(const Point& p) {
  Json params = Json::object();
  Json numeric = Json::object();
  for (const Assignment& a : p.values) {
    const std::optional<double> q = quantity(a.value);
    // Plain numbers stay numbers; anything with a unit or a name stays text as written.
    if (q && a.value.find_first_not_of("0123456789.-+eE") == std::string::npos) {
      if (*q == std::floor(*q) && std::fabs(*q) < 9e15) {
        params[a.key] = static_cast<int64_t>(*q);
      } else {
        params[a.key] = *q;
      }
    } else {
      params[a.key] = a.value;
    }
    if (q) numeric[a.key] = *q;
  }
  return Json{{"params", params}, {"numeric", numeric}};
}

}  // namespace

PointEvaluator::PointEvaluator(const Spec& spec)
    : spec_(spec), base_(std::make_unique<BaseValues>(spec)) {}
PointEvaluator::~PointEvaluator() = default;

const models::Graph& PointEvaluator::graph(const Point& point, int dtype) {
  const models::WorkloadOptions o = workloadOptions(point, static_cast<DType>(dtype));
  const std::string key = point.workload + "|" + std::to_string(o.seq) + "|" +
                          std::to_string(o.batch) + "|" + std::to_string(o.image) + "|" +
                          std::to_string(o.layers) + "|" + o.phase + "|" + std::to_string(dtype) +
                          "|" + toString(o.sparsity);
  auto& slot = graphs_[key];
  if (!slot) slot = std::make_unique<models::Graph>(models::build(point.workload, o));
  return *slot;
}

const dataflows::Dataflow& PointEvaluator::dataflow(const std::string& name) {
  auto& slot = dataflows_[name];
  // A dataflow file the spec names is found beside the spec, as its other files are.
  const bool file = name.find('/') != std::string::npos ||
                    (name.size() > 5 && (name.compare(name.size() - 5, 5, ".yaml") == 0 ||
                                         name.compare(name.size() - 4, 4, ".yml") == 0));
  if (!slot) {
    slot = std::make_unique<dataflows::Dataflow>(
        dataflows::loadDataflow(file ? resolveBeside(spec_.path, name) : name));
  }
  return *slot;
}

// The constraints over metrics the point breaks, by expression. One that cannot be evaluated
// for it (a division by zero) is broken too: the point could not be shown to satisfy it.
std::vector<std::string> PointEvaluator::broken(const Point& point, const sim::RunStats& run,
                                                const arch::Accelerator& acc) const {
  std::vector<std::string> out;
  Json all;
  for (const Constraint& c : spec_.constraints) {
    if (!c.on_metrics) continue;
    if (all.is_null()) all = metricsJson(run, acc, metricNames());
    const Lookup lookup = [&](const std::string& name) {
      if (const auto metric = canonicalMetric(name)) return all.at(*metric).get<double>();
      return keyValue(point.values, *base_, spec_, name);
    };
    try {
      if (sweep::evaluate(c.expression, lookup, c.where) == 0) out.push_back(c.expression);
    } catch (const ConfigError&) {
      out.push_back(c.expression);
    }
  }
  return out;
}

Json PointEvaluator::run(const Point& point) {
  const Base& base = spec_.baseOf(point.value("arch"));
  const arch::Accelerator acc = arch::loadString(base.text, base.path, point.overrides());
  const std::string df_name = !point.value("dataflow").empty() ? point.value("dataflow")
                              : acc.array.dataflows.empty()    ? std::string("ws")
                                                               : acc.array.dataflows.front();
  const dataflows::Dataflow& df = dataflow(df_name);
  dataflows::checkRunnable(df, acc);
  const models::Graph& g = graph(point, static_cast<int>(acc.array.input_dtype));
  sim::RunOptions options;
  options.engine = spec_.engine;
  options.plan.mapper = spec_.mapper;
  options.plan.mapper_options.objective = spec_.objective;
  options.plan.fusion = dataflows::fusionModeFrom(spec_.fusion, "mapper.fusion");
  options.plan.mapper_options.budget = spec_.budget;
  options.plan.mapper_options.threads = 1;  // the sweep runs points side by side instead
  const sim::RunStats run = sim::simulate(g, acc, df, options);
  Json out = {{"metrics", metricsJson(run, acc, spec_.metrics)}};
  const std::vector<std::string> violated = broken(point, run, acc);
  if (!violated.empty()) out["violated"] = violated;
  return out;
}

std::string PointEvaluator::evaluate(const Point& point) {
  Json j = {{"index", point.index}, {"id", point.id}};
  const Json p = paramsOf(point);
  j["params"] = p["params"];
  j["numeric"] = p["numeric"];
  std::string error, kind;
  try {
    Json measured = run(point);
    j["status"] = "ok";
    for (auto& [key, value] : measured.items()) j[key] = std::move(value);
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (const ConfigError& e) {
    error = e.what(), kind = "config";
  } catch (const InfeasibleError& e) {
    error = e.what(), kind = "infeasible";
  } catch (const std::bad_alloc&) {
    error = "out of memory", kind = "out_of_memory";
  } catch (const std::exception& e) {
    error = e.what(), kind = "internal";
  }
  return failure(point, error, kind);
}

std::string PointEvaluator::failure(const Point& point, const std::string& error,
                                    const std::string& kind) {
  Json j = {{"index", point.index}, {"id", point.id}};
  const Json p = paramsOf(point);
  j["params"] = p["params"];
  j["numeric"] = p["numeric"];
  j["status"] = "failed";
  j["error"] = error;
  j["error_kind"] = kind;
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tessel::sweep
