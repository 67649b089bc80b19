// Full GPT-2 small forward passes (12 blocks, sequence 128, batch 1, last-token logits) on the
// functional executor, single-threaded: INT8 (host-path and I-BERT nonlinear ops, unfused and
// fused) and FP32 for comparison. Weights are generated, quantized and packed before timing (a
// deployment prepares them once); activation scales come from an FP32 calibration run.
#include <benchmark/benchmark.h>

#include <memory>

#include "kernels/validation/validate.h"
#include "models/workload.h"

namespace tk = tessel::kernels;

namespace {

struct Gpt2Small {
  tessel::models::Graph fp32, int8;
  tk::WeightStore store;
  tk::ReferenceRun ref;

  Gpt2Small() {
    tessel::models::WorkloadOptions o;
    o.seq = 128;
    o.dtype = tessel::DType::FP32;
    fp32 = tessel::models::build("gpt2", o);
    ref = tk::runReference(fp32, store);
    int8 = tk::lowerGraph(ref.graph, tk::uniformPlan(tessel::DType::Int8));
  }
};

Gpt2Small& model() {
  static Gpt2Small m;
  return m;
}

void forward(benchmark::State& state, bool int8, bool fuse, bool integer_nonlinear) {
  Gpt2Small& m = model();
  tk::ExecutorOptions o;
  o.fuse = fuse;
  o.integer_nonlinear = integer_nonlinear;
  const tk::Executor exec(int8 ? m.int8 : m.ref.graph, m.store, o, &m.ref.ranges);
  exec.run();  // prepares (quantizes, packs) the weights once, outside the timing
  for (auto _ : state) benchmark::DoNotOptimize(exec.run());
  state.counters["GMAC"] = static_cast<double>(m.fp32.totalMacs()) / 1e9;
}

void BM_Gpt2SmallInt8(benchmark::State& s) { forward(s, true, false, false); }
void BM_Gpt2SmallInt8Fused(benchmark::State& s) { forward(s, true, true, false); }
void BM_Gpt2SmallInt8IntegerNonlinear(benchmark::State& s) { forward(s, true, false, true); }
void BM_Gpt2SmallInt8IntegerNonlinearFused(benchmark::State& s) { forward(s, true, true, true); }
void BM_Gpt2SmallFp32(benchmark::State& s) { forward(s, false, false, false); }
void BM_Gpt2SmallFp32Fused(benchmark::State& s) { forward(s, false, true, false); }

}  // namespace

BENCHMARK(BM_Gpt2SmallInt8)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Gpt2SmallInt8Fused)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Gpt2SmallInt8IntegerNonlinear)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Gpt2SmallInt8IntegerNonlinearFused)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Gpt2SmallFp32)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Gpt2SmallFp32Fused)->Unit(benchmark::kMillisecond)->MinTime(2.0);

BENCHMARK_MAIN();
