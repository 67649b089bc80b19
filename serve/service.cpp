#include "serve/service.h"

#include <algorithm>
#include <cmath>

#include "util/budget.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::serve {

namespace {

ConfigError optionError(const std::string& option, const std::string& message) {
  return ConfigError({"", 0, 0, option}, message);
}

void checkList(const std::vector<int>& values, const std::string& option, int max) {
  if (values.empty()) throw optionError(option, option + " needs at least one value");
  for (int v : values) {
    if (v < 1 || v > max) {
      throw optionError(option, option + " values must be 1.." + std::to_string(max) + ", got " +
                                    std::to_string(v));
    }
  }
}

void check(const ServeInputs& in, const ServeOptions& o) {
  checkList(o.workers, "--workers", 4096);
  checkList(o.batches, "--batch", 4096);
  if (o.modes.empty()) throw optionError("--cores", "--cores needs single, fused or both");
  for (CoreMode m : o.modes) {
    if (m == CoreMode::Fused && in.acc->cores.count < 2) {
      throw optionError("--cores", "--cores fused needs an accelerator with cores.count > 1; '" +
                                       in.acc->name + "' has one core");
    }
  }
  if (o.requests < 1 || o.requests > 100000000)
    throw optionError("--requests", "--requests must be 1..100000000");
  if (o.arrivals != Arrivals::ClosedLoop && !(o.rate > 0 && std::isfinite(o.rate)))
    throw optionError("--rate", "--rate must be a positive number of requests per second");
  if (!(o.jitter >= 0 && o.jitter <= 10))
    throw optionError("--jitter", "--jitter is a coefficient of variation in [0, 10]");
  if (o.submit_capacity < 1) throw optionError("--submit-queue", "--submit-queue must be >= 1");
  if (o.receive_capacity < 1) throw optionError("--receive-queue", "--receive-queue must be >= 1");
  if (o.host_cpus < 0) throw optionError("--host-cpus", "--host-cpus must be >= 0");
}

Scenario scenarioFor(const ServiceProfile& p, int workers, const ServeOptions& o,
                     const std::string& label) {
  Scenario s;
  s.label = label;
  s.workers = workers;
  s.batch = p.batch;
  s.cores = p.cores;
  s.submit_capacity = o.submit_capacity;
  s.receive_capacity = o.receive_capacity;
  s.host_cpus = o.host_cpus;
  s.arrivals = o.arrivals;
  s.rate = o.rate;
  s.requests = o.requests;
  s.jitter = o.jitter;
  s.seed = o.seed;
  s.times = p.times;
  return s;
}

std::string labelOf(CoreMode m, int batch, int workers, const std::string& variant) {
  std::string l = nameOf(m) + " b" + std::to_string(batch) + " w" + std::to_string(workers);
  return variant.empty() ? l : l + " " + variant;
}

// The cheaper dtypes worth comparing with the options as given, that apply to this graph.
std::vector<std::pair<std::string, DeployOptions>> variantsOf(const DeployOptions& given,
                                                              const models::Graph& graph,
                                                              const arch::Accelerator& acc) {
  std::vector<std::pair<std::string, DeployOptions>> out;
  auto tryVariant = [&](const std::string& name, DeployOptions d) {
    try {
      withDeploymentOps(graph, acc, d);
      out.emplace_back(name, d);
    } catch (const ConfigError&) {  // does not apply to this graph (token ids, fp outputs)
    }
  };
  for (InputDType t : {InputDType::UInt8, InputDType::Int8}) {
    if (t == given.input_dtype) continue;
    DeployOptions d = given;
    d.input_dtype = t;
    d.input_dtype_given = true;
    tryVariant("input " + nameOf(t), d);
  }
  if (given.output_dtype != OutputDType::Int8) {
    DeployOptions d = given;
    d.output_dtype = OutputDType::Int8;
    tryVariant("output int8", d);
  }
  return out;
}

}  // namespace

double throughputBound(const Scenario& s) {
  // At most n = min(workers, cores) jobs run at once, each taking job[n - 1].
  const int n = std::min(s.workers, s.cores);
  const double job = s.times.job[std::min<size_t>(s.times.job.size(), n) - 1];
  const double cycle = s.times.pre + job + s.times.post;
  return s.batch * std::min(s.workers / cycle, n / job);
}

ServeResult serve(const ServeInputs& in, const ServeOptions& given) {
  check(in, given);
  // Worker counts and batches in increasing order, each once: the recommendations read steps.
  ServeOptions o = given;
  for (std::vector<int>* list : {&o.workers, &o.batches}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  // Every configuration (cores x batches x workers) simulates --requests requests, all before
  // the first result is shown: hours of that are refused up front (util/budget.h).
  const size_t configurations = o.modes.size() * o.batches.size() * o.workers.size();
  budget::checkWork(static_cast<double>(o.requests) * static_cast<double>(configurations),
                    kSecondsPerSimulatedRequest,
                    "simulated requests (" + units::formatCount(o.requests) + " in each of " +
                        units::formatCount(static_cast<int64_t>(configurations)) +
                        " configurations)",
                    {"", 0, 0, "--requests"});
  ServeResult r;
  std::vector<Scenario> scenarios;
  for (CoreMode mode : o.modes) {
    for (int batch : o.batches) {
      try {
        ProfileRequest req{in.graph(batch), in.acc, in.dataflow, in.run,
                           in.deploy,       mode,   batch,       nullptr};
        r.profiles.push_back(profile(req));
      } catch (const InfeasibleError& e) {
        r.infeasible.push_back({mode, batch, e.what()});
        continue;
      }
      for (int w : o.workers) {
        scenarios.push_back(scenarioFor(r.profiles.back(), w, o, labelOf(mode, batch, w, "")));
        r.configurations.push_back({mode, w, batch, "", {}});
      }
    }
  }
  if (r.profiles.empty()) {
    throw InfeasibleError("no configuration can run; " + nameOf(r.infeasible.front().mode) +
                          " batch " + std::to_string(r.infeasible.front().batch) + ": " +
                          r.infeasible.front().reason);
  }
  if (o.variants) {
    // The cheaper dtypes run at the configuration with the best throughput. SystemC elaborates
    // once per process, so all scenarios simulate together: the best is picked by its bound.
    size_t best = 0;
    for (size_t i = 0; i < scenarios.size(); ++i) {
      if (throughputBound(scenarios[i]) > throughputBound(scenarios[best]) * (1 + 1e-9)) best = i;
    }
    const Configuration at = r.configurations[best];
    const models::Graph graph = in.graph(at.batch);
    // Scenarios run workers fastest within each (mode, batch) profile, in profile order.
    const ServiceProfile base = r.profiles[best / o.workers.size()];
    for (const auto& [name, deploy] : variantsOf(in.deploy, graph, *in.acc)) {
      ProfileRequest req{graph, in.acc, in.dataflow, in.run, deploy, at.mode, at.batch, &base};
      r.variant_profiles.push_back(profile(req));
      r.variant_names.push_back(name);
      scenarios.push_back(scenarioFor(r.variant_profiles.back(), at.workers, o,
                                      labelOf(at.mode, at.batch, at.workers, name)));
      r.configurations.push_back({at.mode, at.workers, at.batch, name, {}});
    }
  }
  const std::vector<ScenarioResult> results = timeline()(scenarios);
  for (size_t i = 0; i < results.size(); ++i) r.configurations[i].result = results[i];
  r.recommendations = recommend(r.configurations, r.profiles, r.variant_profiles, r.variant_names);
  for (const InfeasibleProfile& f : r.infeasible) {
    r.recommendations.lines.push_back(nameOf(f.mode) + " batch " + std::to_string(f.batch) +
                                      " cannot run: " + f.reason);
  }
  if (o.arrivals != Arrivals::ClosedLoop) {
    double best = 0;
    for (const Configuration& c : r.configurations) best = std::max(best, c.result.throughput);
    if (o.rate > 1.01 * best) {
      r.recommendations.lines.insert(
          r.recommendations.lines.begin(),
          "the offered load (" + units::formatWith("%.4g", o.rate) +
              " req/s) exceeds what every simulated configuration serves (at most " +
              units::formatWith("%.4g", best) +
              " req/s): requests queue without bound, and their latencies grow with --requests.");
    }
  }
  return r;
}

}  // namespace tessel::serve
