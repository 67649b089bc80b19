// An LLM service's speed: serve::llm::serveLlm on 10,000 Llama-3.1-8B requests (prompts
// lognormal, mean 1,024 tokens; outputs mean 256) on configs/arch/tpu-v4-like.yaml, every
// iteration's cost from the engines (the shapes simulated once each). Target (issue): under
// 10 s of wall time. Then the scheduler alone, on a closed-form step cost, per request.
#include <benchmark/benchmark.h>

#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "serve/llm/llm_serve.h"
#include "serve/llm/scheduler.h"

namespace {

using namespace tessel;
using namespace tessel::serve::llm;

LlmServeOptions llamaStream(int64_t requests, double rate) {
  LlmServeOptions o;
  o.stream.arrivals = parseArrivals("poisson");
  o.stream.requests = requests;
  o.stream.prompt = parseLengthDist("lognormal:1024:0.5", "--prompt-len");
  o.stream.output = parseLengthDist("lognormal:256:0.5", "--output-len");
  o.rates = {rate};
  o.slo = parseSlo("ttft=2,tpot=0.1");
  return o;
}

void BM_Llama8bService(benchmark::State& state) {
  const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml");
  const dataflows::Dataflow df = dataflows::loadDataflow("ws");
  LlmInputs in;
  in.workload = "llama-3.1-8b";
  models::decoderFacts(in.workload, in.facts);
  in.build = [](const models::WorkloadOptions& o) { return models::build("llama-3.1-8b", o); };
  in.base.dtype = acc.array.input_dtype;
  in.acc = &acc;
  in.dataflow = &df;
  in.run.plan.mapper = "search";
  in.run.plan.mapper_options.budget = 1000;  // the CLI's default for a service
  in.run.plan.fusion = dataflows::FusionMode::Auto;  // and its default fusion
  const int64_t requests = state.range(0);
  int64_t shapes = 0;
  for (auto _ : state) {
    const LlmResult r = serveLlm(in, llamaStream(requests, 5));
    shapes = r.shapes_evaluated;
    benchmark::DoNotOptimize(r.points.front().metrics.output_tokens_per_s);
  }
  state.counters["shapes"] = static_cast<double>(shapes);
  state.counters["requests/s"] = benchmark::Counter(static_cast<double>(requests),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Llama8bService)->Arg(10'000)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// The scheduler alone: a closed-form step cost, so only the iteration loop is timed.
class Affine final : public StepCost {
 public:
  StepTime of(const std::vector<SeqStep>& batch) override {
    double t = 2e-3;
    for (const SeqStep& s : batch) t += 4e-5 * s.fresh + 2e-8 * (s.past + s.fresh);
    return {t, 0};
  }
};

void BM_SchedulerLoop(benchmark::State& state) {
  StreamSpec s = llamaStream(state.range(0), 20).stream;
  s.rate = 20;
  const std::vector<Request> reqs = generate(s);
  SchedulerConfig c;
  c.kv_blocks = 1 << 20;
  for (auto _ : state) {
    Affine cost;
    benchmark::DoNotOptimize(simulate(reqs, c, cost).iterations);
  }
  state.counters["requests/s"] = benchmark::Counter(
      static_cast<double>(state.range(0)),
      benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SchedulerLoop)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
