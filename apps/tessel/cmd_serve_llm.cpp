// tessel serve on a decoder LLM: the request stream through the iteration-level scheduler and
// the paged KV cache (serve/llm/), every iteration timed by the engines.
#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>

#include "apps/tessel/cmd_serve_measured.h"
#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "reports/serve/llm_report.h"
#include "serve/llm/llm_serve.h"
#include "systems/collective.h"
#include "systems/steps.h"
#include "systems/system.h"
#include "util/error.h"
#include "util/units.h"

namespace tessel::app {
namespace {

bool given(const ServeArgs& a, const std::string& option) {
  return std::find(a.given.begin(), a.given.end(), option) != a.given.end();
}

template <typename T>
std::string joined(const std::vector<T>& values) {
  std::ostringstream os;
  for (size_t i = 0; i < values.size(); ++i) os << (i ? "," : "") << values[i];
  return os.str();
}

// Options of the per-inference service that mean nothing to an LLM service.
void rejectJobOptions(const ServeArgs& a) {
  for (const char* o : {"--workers", "--batch", "--closed-loop", "--jitter",
                        "--submit-queue", "--receive-queue", "--host-cpus", "--input-dtype",
                        "--output-dtype", "--layout", "--no-variants"}) {
    if (given(a, o)) {
      throw ConfigError({"", 0, 0, o},
                        std::string(o) + " applies to a per-inference service; an LLM service "
                                         "batches with --max-batch and --max-tokens (or give "
                                         "--phase for the per-step service)");
    }
  }
}

// A host overhead option in seconds, or `fallback` when it is not given.
double hostOverhead(const std::string& text, const char* option, double fallback) {
  return text.empty() ? fallback : serve::llm::parseOverhead(text, option);
}

// An overhead as given, else its value in seconds.
std::string overheadLabel(const std::string& text, double seconds) {
  return text.empty() ? units::formatNumber(seconds) + "s" : text;
}

serve::llm::LlmServeOptions llmOptions(const ServeArgs& a, const arch::Accelerator& acc) {
  namespace L = serve::llm;
  L::LlmServeOptions o;
  o.stream.arrivals = L::parseArrivals(a.arrivals);
  o.stream.requests = a.requests;
  o.stream.requests_given = given(a, "--requests");
  if (!o.stream.requests_given) o.stream.requests = 1000;
  o.stream.prompt = L::parseLengthDist(a.prompt_len, "--prompt-len");
  o.stream.output = L::parseLengthDist(a.output_len, "--output-len");
  o.stream.seed = a.seed;
  if (o.stream.arrivals.kind == L::ArrivalSpec::Kind::Trace) {
    for (const char* opt : {"--rate", "--prompt-len", "--output-len"}) {
      if (given(a, opt)) {
        throw ConfigError({"", 0, 0, opt}, std::string(opt) + " is set by the trace " +
                                               a.arrivals + "; give one or the other");
      }
    }
  }
  o.rates = a.rates;
  o.max_batches = a.max_batches;
  o.max_tokens = a.max_tokens;
  o.chunks = a.chunks;
  o.kv_block = a.kv_block;
  if (!a.kv_budget.empty()) {
    o.kv_budget_bytes =
        static_cast<double>(units::parseBytes(a.kv_budget, {"", 0, 0, "--kv-budget"}));
  }
  o.priority = a.priority == "prefill-first" ? L::Priority::PrefillFirst : L::Priority::DecodeFirst;
  o.preemption = a.preemption == "swap" ? L::Preemption::Swap : L::Preemption::Recompute;
  if (!a.slo.empty()) o.slo = L::parseSlo(a.slo);
  o.exact = a.exact;
  o.prefix_caching = a.prefix_caching != "off";
  // Not given: the design's host section supplies them (host.step_overhead, in cycles).
  o.step_overhead_s = hostOverhead(a.step_overhead, "--step-overhead", acc.host.step_overhead / acc.clock_hz);
  o.sequence_overhead_s =
      hostOverhead(a.sequence_overhead, "--sequence-overhead", acc.host.sequence_overhead / acc.clock_hz);
  if (!a.cores.empty()) o.modes.clear();
  for (const std::string& c : a.cores) {
    if (c != "fused" && c != "disaggregated") {
      throw ConfigError({"", 0, 0, "--cores"},
                        "--cores '" + c + "': an LLM service runs fused (every core on every "
                                          "iteration) or disaggregated (prefill and decode on "
                                          "separate cores)");
    }
    const L::CoreMode m = c == "fused" ? L::CoreMode::Fused : L::CoreMode::Disaggregated;
    if (std::find(o.modes.begin(), o.modes.end(), m) == o.modes.end()) o.modes.push_back(m);
  }
  o.prefill_cores = a.prefill_cores;
  if (given(a, "--prefill-cores") &&
      std::find(o.modes.begin(), o.modes.end(), L::CoreMode::Disaggregated) == o.modes.end()) {
    throw ConfigError({"", 0, 0, "--prefill-cores"},
                      "--prefill-cores applies to --cores disaggregated");
  }
  return o;
}

std::vector<std::pair<std::string, std::string>> labels(const ServeArgs& a,
                                                        const serve::llm::LlmServeOptions& o,
                                                        const std::string& dataflow,
                                                        int64_t budget) {
  const bool trace = o.stream.arrivals.kind == serve::llm::ArrivalSpec::Kind::Trace;
  std::vector<std::pair<std::string, std::string>> l = {
      {a.system.empty() ? "arch_file" : "system_file", a.system.empty() ? a.arch : a.system},
      {"workload", a.workload.name}, {"dataflow", dataflow},
      {"mapper", a.mapper},  {"budget", std::to_string(budget)},
      {"arrivals", o.stream.arrivals.text}};
  if (!trace) {
    l.emplace_back("rate", joined(o.rates));
    l.emplace_back("prompt_len", a.prompt_len);
    l.emplace_back("output_len", a.output_len);
  }
  l.emplace_back("requests", std::to_string(o.stream.requests));
  l.emplace_back("seed", std::to_string(a.seed));
  l.emplace_back("max_batch", joined(o.max_batches));
  l.emplace_back("max_tokens", std::to_string(o.max_tokens));
  l.emplace_back("chunk", o.chunks.empty() ? std::to_string(o.max_tokens) : joined(o.chunks));
  if (!a.system.empty()) {
    l.emplace_back("tp", std::to_string(a.tp));
    if (a.ep > 1) l.emplace_back("ep", std::to_string(a.ep));
    l.emplace_back("dp", std::to_string(a.dp));
  }
  l.emplace_back("kv_block", std::to_string(o.kv_block));
  if (!a.kv_budget.empty()) l.emplace_back("kv_budget", a.kv_budget);
  if (!a.slo.empty()) l.emplace_back("slo", a.slo);
  std::string modes;
  for (serve::llm::CoreMode m : o.modes) modes += (modes.empty() ? "" : ",") + nameOf(m);
  l.emplace_back("cores", modes);
  if (o.prefill_cores > 0) l.emplace_back("prefill_cores", std::to_string(o.prefill_cores));
  l.emplace_back("priority", a.priority);
  l.emplace_back("preemption", a.preemption);
  if (given(a, "--prefix-caching")) l.emplace_back("prefix_caching", a.prefix_caching);
  if (o.step_overhead_s > 0 || o.sequence_overhead_s > 0) {
    l.emplace_back("step_overhead", overheadLabel(a.step_overhead, o.step_overhead_s));
    l.emplace_back("sequence_overhead", overheadLabel(a.sequence_overhead, o.sequence_overhead_s));
  }
  if (a.exact) l.emplace_back("exact", "true");
  for (const auto& p : a.overrides) l.emplace_back("override", p);
  return l;
}

// A request's KV cache from a prefill replica (ranks 0 .. tp-1) to its decode replica (the next
// tp): every chip sends its share to its counterpart at once, over the system's links, as one call
// (the collective overhead, the routes' latency, the busiest link's bytes).
std::function<double(double)> kvTransfer(const systems::System& sys, int64_t tp) {
  auto net = std::make_shared<const systems::Network>(sys.topology);
  systems::Step one_byte;
  for (int64_t r = 0; r < tp; ++r) one_byte.push_back({static_cast<int>(r), static_cast<int>(r + tp), 1.0});
  systems::CollectiveCost c;
  systems::StepCoster sc(*net);
  sc.add(one_byte, 1, c);  // the bandwidth term is linear in the bytes
  const double per_byte = c.bandwidth_s, fixed = sys.collective_overhead_s + c.latency_s;
  return [per_byte, fixed](double bytes) { return fixed + per_byte * bytes; };
}

// The service on a system: each replica `--tp` chips (the first in the topology's order), the
// decoder built as one chip's share with its collectives timed over them.
void onSystem(const systems::System& sys, const ServeArgs& args, const serve::llm::LlmServeOptions& o,
              serve::llm::LlmInputs& in) {
  const SourceLocation tp{"", 0, 0, "--tp"};
  if (args.tp * args.dp > sys.count)
    throw ConfigError(tp, "tp " + std::to_string(args.tp) + " x dp " + std::to_string(args.dp) + " needs " +
                              std::to_string(args.tp * args.dp) + " chips; " + sys.name + " has " +
                              std::to_string(sys.count));
  if (args.ep > 1 && args.tp == 1)
    throw ConfigError({"", 0, 0, "--ep"}, "a service splits experts over its tensor-parallel group: "
                                          "--ep must divide --tp");
  const bool disaggregated = std::find(o.modes.begin(), o.modes.end(),
                                       serve::llm::CoreMode::Disaggregated) != o.modes.end();
  const bool trace = o.stream.arrivals.kind == serve::llm::ArrivalSpec::Kind::Trace;
  if (trace && args.dp > (disaggregated ? 2 : 1))
    throw ConfigError({"", 0, 0, "--dp"}, "a trace's requests are one stream: serve it with one replica "
                                          "(disaggregated: one pair)");
  if (disaggregated && args.dp % 2 != 0)
    throw ConfigError({"", 0, 0, "--dp"}, "disaggregated on a system pairs a prefill replica with a decode "
                                          "replica: --dp must be even, got " + std::to_string(args.dp));
  if (given(args, "--prefill-cores"))
    throw ConfigError({"", 0, 0, "--prefill-cores"}, "on a system the sides are replicas (pairs of --tp chips)");
  std::string why;
  const systems::Topology group = sys.topology.group(args.tp, why);
  if (!why.empty()) throw ConfigError(tp, why);
  in.base.tensor_parallel = args.tp;
  in.base.expert_parallel = args.ep;
  // One chip's KV heads: divided among the ranks, or one each when fewer (replicated).
  in.facts.kv_heads = in.facts.kv_heads >= args.tp ? in.facts.kv_heads / args.tp : 1;
  auto net = std::make_shared<const systems::Network>(group);
  const double overhead = sys.collective_overhead_s;
  in.collective = [net, overhead](const models::Communication& c) {
    const auto op = systems::parseCollective(c.op);
    if (!op) throw Error("unknown collective '" + c.op + "' in the graph");
    const systems::CollectiveCost cost =
        systems::costCollective({*op, static_cast<double>(c.bytes), ""}, *net, overhead);
    return serve::llm::CollectiveTime{cost.seconds, cost.energy_pj * 1e-12};
  };
  in.chips = args.tp;
  in.replicas = args.dp;
  if (disaggregated) in.kv_transfer = kvTransfer(sys, args.tp);
}

}  // namespace

int llmServeCommand(const ServeArgs& args, std::ostream& out) {
  checkOutputs({{"--json", args.json_path}},
               {args.arch, args.system, args.dataflow, args.compare_measured});
  rejectJobOptions(args);
  for (const std::string& g : args.workload.given) {
    if (g != "--dtype" && g != "--expert-load") {
      throw ConfigError({"", 0, 0, g}, g + " does not apply to an LLM service: the requests' "
                                           "lengths set every step (--prompt-len, --output-len)");
    }
  }
  std::optional<systems::System> sys;
  if (!args.system.empty()) sys = systems::loadSystem(args.system, args.overrides);
  const arch::Accelerator acc = sys ? sys->chip : arch::loadFile(args.arch, args.overrides);
  const dataflows::Dataflow df = pickDataflow(args.dataflow, acc);
  serve::llm::LlmServeOptions options = llmOptions(args, acc);
  std::vector<serve::llm::MeasuredRequest> measured;
  if (!args.compare_measured.empty()) measured = measuredRequests(args, options);

  serve::llm::LlmInputs in;
  in.workload = args.workload.name;
  models::decoderFacts(args.workload.name, in.facts);
  in.base = toWorkloadOptions(args.workload, acc.array.input_dtype);
  in.base.given.clear();
  const std::string name = args.workload.name;
  in.build = [name](const models::WorkloadOptions& o) { return buildWorkload(name, o); };
  in.acc = &acc;
  in.dataflow = &df;
  // A service maps a hundred or more shapes: 1,000 evaluations per op by default
  // (docs/serve-llm.md measures what that costs against larger budgets), 1,000 per 32 arrays on
  // a design with more: every fan-out split of its arrays is a start the search must try.
  const int64_t arrays = acc.arrays();
  const int64_t budget = given(args, "--budget") ? args.budget : 1000 * ((arrays + 31) / 32);
  in.run.plan.mapper = args.mapper;
  in.run.plan.mapper_options.objective = args.objective;
  in.run.plan.fusion = dataflows::fusionModeFrom(args.fusion);
  in.run.plan.mapper_options.budget = budget;
  if (sys) onSystem(*sys, args, options, in);
  std::string device;  // on a system: the replicas
  if (sys) {
    device = std::to_string(args.tp) + " chips per replica (tp " + std::to_string(args.tp) +
             (args.ep > 1 ? ", ep " + std::to_string(args.ep) : "") + ") x " +
             std::to_string(args.dp) + " replica" + (args.dp > 1 ? "s" : "") + " of " + sys->name;
  }

  reports::ServeHeader header;
  header.arch_name = acc.name;
  header.arch_hash = acc.hash();
  header.cores = acc.cores.count;
  header.workload = args.workload.name;
  header.options = labels(args, options, df.name, budget);
  if (sys) {
    header.run_options = " --system " + args.system + " --tp " + std::to_string(args.tp) +
                         (args.ep > 1 ? " --ep " + std::to_string(args.ep) : "");
  }
  if (!measured.empty()) return compareMeasured(measured, args, in, options, header, device, out);
  serve::llm::LlmResult result = serve::llm::serveLlm(in, options);
  if (!device.empty()) result.device = device;
  const bool table = !args.quiet && !isStandardOutput(args.json_path);
  if (table) reports::writeLlmServeTable(result, header, out);
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, reports::llmServeJsonString(result, header), out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
