#include "serve/llm/llm_serve.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "arch/bandwidth.h"
#include "arch/cores.h"
#include "serve/llm/disaggregated.h"
#include "serve/llm/request_budget.h"
#include "sim/footprint.h"
#include "util/dtype.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::serve::llm {
namespace {


std::string ms(double s) { return units::formatFixed(s * 1e3, s < 0.1 ? 2 : 1) + " ms"; }

// What the KV cache may use: the DRAM left by the weights and the largest iteration's
// activations (T = max_tokens), or the budget given.
LlmMemory memoryOf(const LlmInputs& in, const LlmServeOptions& o, const arch::Accelerator& dev) {
  LlmMemory m;
  models::WorkloadOptions w = in.base;
  w.phase = "decode";
  w.seq = 0;
  w.new_tokens = 1;
  w.batch = o.max_tokens;
  w.given.clear();
  const sim::Footprint f = sim::dramFootprint(in.build(w));
  m.capacity_bytes = static_cast<double>(dev.levels.front().capacity_bytes);
  m.weights_bytes = static_cast<double>(f.weights);
  m.activation_bytes = static_cast<double>(f.peak_activations);
  m.kv_bytes_per_token = 2.0 * static_cast<double>(in.facts.layers * in.facts.kv_heads *
                                                   in.facts.head_dim * bytesOf(in.base.dtype));
  const double left = m.capacity_bytes > 0
                          ? m.capacity_bytes - m.weights_bytes - m.activation_bytes
                          : 0.0;
  if (o.kv_budget_bytes > 0) {
    if (m.capacity_bytes > 0 && o.kv_budget_bytes > left) {
      throw ConfigError({"", 0, 0, "--kv-budget"},
                        "a KV budget of " + units::formatFixed(o.kv_budget_bytes / (1 << 30), 2) +
                            " GiB is more than the " + units::formatFixed(std::max(0.0, left) / (1 << 30), 2) +
                            " GiB of DRAM the weights and activations leave");
    }
    m.kv_budget_bytes = o.kv_budget_bytes;
  } else if (m.capacity_bytes > 0) {
    m.kv_budget_bytes = std::max(0.0, left);
  } else {
    throw ConfigError({"", 0, 0, "--kv-budget"},
                      "dram.capacity is unbounded: give the KV cache's size with --kv-budget");
  }
  m.kv_blocks = static_cast<int64_t>(
      std::floor(m.kv_budget_bytes / (m.kv_bytes_per_token * static_cast<double>(o.kv_block))));
  return m;
}

// Replicas serve the stream side by side: the service's rates are theirs summed (latencies,
// per-token energy and utilization are each replica's).
void scaleToReplicas(Metrics& m, double replicas) {
  for (double* rate : {&m.output_tokens_per_s, &m.requests_per_s, &m.goodput_requests_per_s,
                       &m.mean_in_system, &m.mean_waiting}) {
    *rate *= replicas;
  }
}

std::vector<LlmPoint> grid(const LlmServeOptions& o, bool trace) {
  std::vector<LlmPoint> points;
  const std::vector<double> rates = trace ? std::vector<double>{0} : o.rates;
  const std::vector<int64_t> chunks =
      o.chunks.empty() ? std::vector<int64_t>{o.max_tokens} : o.chunks;
  for (CoreMode m : o.modes) {
    for (double r : rates) {
      for (int64_t b : o.max_batches) {
        for (int64_t c : chunks) {
          LlmPoint p;
          p.mode = m;
          p.rate = r;
          p.max_batch = b;
          p.chunk = c;
          points.push_back(p);
        }
      }
    }
  }
  return points;
}

std::string pointName(const LlmPoint& p) {
  std::ostringstream os;
  os << nameOf(p.mode) << ", ";
  if (p.rate > 0) os << "rate " << p.rate << "/s, ";
  os << "max batch " << p.max_batch << ", chunk " << p.chunk;
  return os.str();
}

// What limits the point: the KV cache, the load, reading the weights, or compute.
std::string binding(const LlmPoint& p, const LlmResult& r) {
  const double kv_use = static_cast<double>(p.run.kv_peak_blocks) /
                        static_cast<double>(std::max<int64_t>(1, r.memory.kv_blocks));
  if (p.run.preemptions > 0 || kv_use >= 0.95) {
    return "KV capacity (peak " + units::formatFixed(kv_use * 100, 0) + "% of " +
           std::to_string(r.memory.kv_blocks) + " blocks, " + std::to_string(p.run.preemptions) +
           " preemptions)";
  }
  if (p.metrics.utilization < 0.8) {
    return "the load: the device is busy " + units::formatFixed(p.metrics.utilization * 100, 0) +
           "% of the time";
  }
  const double iteration =
      p.run.busy_seconds / static_cast<double>(std::max<int64_t>(1, p.run.iterations));
  if (r.weight_read_s >= 0.5 * iteration) {
    return "weight bandwidth: reading the weights takes " + ms(r.weight_read_s) + " of a mean " +
           ms(iteration) + " iteration";
  }
  return "compute: a mean iteration of " + ms(iteration) + " against " + ms(r.weight_read_s) +
         " to read the weights";
}

void recommend(LlmResult& r, const LlmServeOptions& o) {
  const LlmPoint* best = nullptr;
  for (const LlmPoint& p : r.points) {
    if (!p.ok) continue;
    const bool meets = !o.slo.any() || p.metrics.slo_attained >= 0.9;
    if (!meets) continue;
    if (!best || p.rate > best->rate ||
        (p.rate == best->rate &&
         p.metrics.goodput_requests_per_s > best->metrics.goodput_requests_per_s)) {
      best = &p;
    }
  }
  size_t ok = 0;
  for (const LlmPoint& p : r.points) ok += p.ok ? 1 : 0;
  if (ok < r.points.size()) {
    r.recommendations.push_back(std::to_string(r.points.size() - ok) + " of " +
                                std::to_string(r.points.size()) +
                                " points could not run (their reasons are in the table)");
  }
  if (!best) {
    r.recommendations.push_back(o.slo.any() ? "no simulated point serves 90% of its requests "
                                              "within the SLO: lower the rate, or relax the SLO"
                                            : "no point ran");
    return;
  }
  std::string line = o.slo.any() ? "highest rate meeting the SLO (90% of requests within it): "
                                  : "highest throughput: ";
  line += pointName(*best) + ": " + units::formatFixed(best->metrics.output_tokens_per_s, 0) +
          " output tokens/s, goodput " + units::formatFixed(best->metrics.goodput_requests_per_s, 2) +
          " requests/s, TTFT p90 " + ms(best->metrics.ttft.p90) + ", TPOT p90 " +
          ms(best->metrics.tpot.p90);
  r.recommendations.push_back(line);
  r.recommendations.push_back("binds there: " + binding(*best, r));
}

// Cores that prefill in a disaggregated service; ConfigError when the design cannot split.
int prefillCores(const LlmServeOptions& o, const arch::Accelerator& acc) {
  const int k = acc.cores.count;
  if (k < 2) {
    throw ConfigError({"", 0, 0, "--cores"}, "disaggregated serving needs several cores; " +
                                                 acc.name + " has one (cores.count)");
  }
  const int p = o.prefill_cores > 0 ? o.prefill_cores : std::max(1, k / 2);
  if (p >= k) {
    throw ConfigError({"", 0, 0, "--prefill-cores"},
                      "--prefill-cores " + std::to_string(p) + " leaves no decode core of " +
                          std::to_string(k));
  }
  return p;
}

// The two sides of a disaggregated service and their costs.
struct Sides {
  arch::Accelerator prefill_dev, decode_dev;
  std::unique_ptr<EngineStepCost> prefill, decode;
  Disaggregation d;

  // Each side's step costs on its own device (each maps with a mapper of its own).
  void cost(const EngineCostInputs& base) {
    EngineCostInputs pi = base, di = base;
    pi.acc = &prefill_dev;
    di.acc = &decode_dev;
    pi.run.plan.mapper_instance = di.run.plan.mapper_instance = nullptr;
    prefill = std::make_unique<EngineStepCost>(pi);
    decode = std::make_unique<EngineStepCost>(di);
    d.prefill = prefill.get();
    d.decode = decode.get();
  }
};

// On a system: a prefill replica and a decode replica, each its chips whole with the DRAM's KV
// room of the service's memory plan, the KV cache sent over the links.
std::unique_ptr<Sides> chipSides(const EngineCostInputs& base, const arch::Accelerator& dev,
                                 const LlmMemory& m, const LlmInputs& in) {
  auto s = std::make_unique<Sides>();
  s->prefill_dev = s->decode_dev = dev;
  s->cost(base);
  s->d.prefill_cores = s->d.decode_cores = static_cast<int>(in.chips);
  s->d.prefill_blocks = s->d.decode_blocks = m.kv_blocks;
  s->d.kv_bytes_per_token = m.kv_bytes_per_token;
  s->d.transfer = in.kv_transfer;
  return s;
}

std::unique_ptr<Sides> sides(const LlmServeOptions& o, const EngineCostInputs& base,
                             const arch::Accelerator& acc, const LlmMemory& m,
                             int64_t longest_prompt) {
  const int k = acc.cores.count;
  const int p = prefillCores(o, acc);
  auto s = std::make_unique<Sides>();
  s->prefill_dev = sideDevice(acc, p);
  s->decode_dev = sideDevice(acc, k - p);
  s->cost(base);
  s->d.prefill_cores = p;
  s->d.decode_cores = k - p;
  const int64_t block = o.kv_block;
  s->d.prefill_blocks =
      std::min(m.kv_blocks / 2, (longest_prompt + o.max_tokens + block - 1) / block);
  s->d.decode_blocks = m.kv_blocks - s->d.prefill_blocks;
  s->d.transfer_bytes_per_s = arch::offChipBandwidth(acc).bytes_per_cycle * acc.clock_hz;
  s->d.kv_bytes_per_token = m.kv_bytes_per_token;
  return s;
}

}  // namespace

std::string nameOf(CoreMode m) { return m == CoreMode::Fused ? "fused" : "disaggregated"; }

LlmResult serveLlm(const LlmInputs& in, const LlmServeOptions& o) {
  if (o.rates.empty() && o.stream.arrivals.kind != ArrivalSpec::Kind::Trace) {
    throw ConfigError({"", 0, 0, "--rate"}, "an LLM service needs --rate R (requests/s; a list "
                                            "R1,R2,... sweeps it) or --arrivals TRACE_FILE");
  }
  if (o.stream.arrivals.kind != ArrivalSpec::Kind::Trace) {  // a trace is checked as it is read
    checkRequests(o.stream.requests, 0, meanOf(o.stream.output),
                  static_cast<int64_t>(grid(o, false).size()), {"", 0, 0, "--requests"});
  }
  for (int64_t c : o.chunks) {
    if (c > o.max_tokens) {
      throw ConfigError({"", 0, 0, "--chunk"}, "--chunk " + std::to_string(c) +
                                                   " exceeds --max-tokens " +
                                                   std::to_string(o.max_tokens));
    }
  }
  for (CoreMode m : o.modes) {
    if (m == CoreMode::Disaggregated && !in.kv_transfer) prefillCores(o, *in.acc);
  }
  if (in.facts.max_positions > 0 && o.kv_block > in.facts.max_positions) {
    throw ConfigError({"", 0, 0, "--kv-block"},
                      "--kv-block " + std::to_string(o.kv_block) + " is larger than the context (" +
                          in.facts.model + "'s max_position_embeddings of " +
                          std::to_string(in.facts.max_positions) + " tokens)");
  }
  LlmResult r;
  r.budget = in.run.plan.mapper_options.budget;
  const arch::Accelerator dev = in.acc->cores.count > 1 ? arch::fusedDevice(*in.acc) : *in.acc;
  r.device = in.acc->cores.count > 1 ? std::to_string(in.acc->cores.count) + " cores fused"
                                     : "1 core";
  r.memory = memoryOf(in, o, dev);

  // The stream once per rate (same seed: the rates share lengths), checked against the context.
  EngineCostInputs ci;
  ci.build = in.build;
  ci.base = in.base;
  ci.acc = &dev;
  ci.dataflow = in.dataflow;
  ci.run = in.run;
  ci.kv_block = o.kv_block;
  ci.exact = o.exact;
  ci.blocks = in.facts.layers;
  ci.uniform_blocks = in.facts.uniform_blocks;
  ci.window = in.facts.window;
  ci.context = in.facts.max_positions;
  ci.collective = in.collective;
  ci.chips = in.chips;
  EngineStepCost cost(ci);

  const bool trace = o.stream.arrivals.kind == ArrivalSpec::Kind::Trace;
  r.points = grid(o, trace);
  double mean_prompt = 0;
  std::unique_ptr<Sides> split;
  for (LlmPoint& p : r.points) {
    StreamSpec s = o.stream;
    // Replicas share the arrivals; disaggregated on a system, pairs of them.
    const int64_t serving =
        p.mode == CoreMode::Disaggregated && in.kv_transfer ? in.replicas / 2 : in.replicas;
    s.rate = trace ? 1.0 : p.rate / static_cast<double>(serving);
    const std::vector<Request> reqs = generate(s);
    checkContext(reqs, in.facts.max_positions, in.facts.model,
                 trace ? o.stream.arrivals.path : "--prompt-len");
    if (mean_prompt == 0) {  // one request alone, at the stream's mean prompt
      for (const Request& q : reqs) mean_prompt += static_cast<double>(q.prompt);
      mean_prompt /= static_cast<double>(reqs.size());
      const int64_t prompt = std::max<int64_t>(1, std::llround(mean_prompt));
      r.alone_prompt = prompt;
      r.prefill_s = cost.of({{0, prompt, true}}).seconds;
      r.decode_step_s = cost.of({{prompt, 1, true}}).seconds;
    }
    if (p.mode == CoreMode::Disaggregated && !split) {
      int64_t longest = 0;
      for (const Request& q : reqs) longest = std::max(longest, q.prompt);
      if (in.kv_transfer) {
        split = chipSides(ci, dev, r.memory, in);
        r.split = "pairs of a prefill and a decode replica of " + std::to_string(in.chips) + " chips";
      } else {
        split = sides(o, ci, *in.acc, r.memory, longest);
        r.split = std::to_string(split->d.prefill_cores) + " prefill + " +
                  std::to_string(split->d.decode_cores) + " decode cores";
      }
    }
    SchedulerConfig c;
    c.max_batch = p.max_batch;
    c.max_tokens = o.max_tokens;
    c.chunk = p.chunk;
    c.kv_block = o.kv_block;
    c.kv_blocks = r.memory.kv_blocks;
    c.window = in.facts.window;
    c.priority = o.priority;
    c.preemption = o.preemption;
    c.kv_bytes_per_token = r.memory.kv_bytes_per_token;
    c.swap_bytes_per_s = dev.host.link_bandwidth * dev.clock_hz;
    c.prefix_caching = o.prefix_caching;
    c.step_overhead_s = o.step_overhead_s;
    c.sequence_overhead_s = o.sequence_overhead_s;
    try {
      if (p.mode == CoreMode::Fused) {
        p.run = simulate(reqs, c, cost);
      } else {
        p.run = simulateDisaggregated(reqs, c, split->d);
      }
      p.metrics = measure(p.run, o.slo, cost.leakageW(), cost.peakMacsPerSecond());
      if (serving > 1) scaleToReplicas(p.metrics, static_cast<double>(serving));
    } catch (const InfeasibleError& e) {
      p.ok = false;
      p.reason = e.what();
    }
  }
  const double dram_bytes_per_s = arch::offChipBandwidth(dev).bytes_per_cycle * dev.clock_hz;
  r.weight_read_s = dram_bytes_per_s > 0 ? cost.weightBytesPerStep() / dram_bytes_per_s : 0;
  r.leakage_w = cost.leakageW();
  r.shapes_evaluated = cost.shapesEvaluated();
  if (split) {
    r.shapes_evaluated += split->prefill->shapesEvaluated() + split->decode->shapesEvaluated();
  }
  recommend(r, o);
  return r;
}

}  // namespace tessel::serve::llm
