// Numerics validation: the FP32 run of a graph on synthetic data is the reference; a lowered
// variant of the graph (models::applyPrecision) runs on the same data, and each op's output and
// the model's output are compared with the reference. The reference always runs the dense
// weights: a graph whose weights are sparse (--sparsity weights=2:4) runs them pruned
// (WeightStore), so the comparison measures what pruning (and the precision) cost.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/executor/executor.h"
#include "kernels/validation/metrics.h"
#include "kernels/validation/progress.h"
#include "kernels/validation/sparsity_stats.h"
#include "models/precision.h"

namespace tessel::kernels {

// The FP32 run: every op output and float input, and INT8 scales calibrated on them.
struct ReferenceRun {
  // The all-FP32 graph: its tensors' sparsity is kept for lowering, but it ran with dense weights.
  models::Graph graph;
  std::unordered_map<std::string, std::shared_ptr<const Tensor>> activations;  // by tensor name
  ActivationRanges ranges;
  std::string output;  // name of the model's output tensor (the last op's)

  std::shared_ptr<const Tensor> find(const std::string& name) const;
};

// Runs `graph` in FP32 (whatever dtypes it was built with) with every tensor dense, and keeps
// everything it computes.
ReferenceRun runReference(const models::Graph& graph, WeightStore& weights,
                          const Calibration& calibration = {}, const Progress& progress = {});

// Output task metrics apply to logits: GPT-2's lm_head, ResNet-50's fc.
bool isLogits(const models::Graph& g, const std::string& output);

struct OpReport {
  int op = -1;
  std::string name;
  models::OpKind kind = models::OpKind::MatMul;
  DType dtype = DType::FP32;
  std::string fused_into;  // set when the op's output stayed inside this op's fused kernel
  bool compared = false;   // compared with FP32 (not fused away, not a conversion copy)
  ErrorMetrics error;
  SaturationStats saturation;
};

struct OutputReport {
  std::string tensor;
  ErrorMetrics error;
  bool logits = false;
  int64_t rows = 0;   // positions (GPT-2) or images (ResNet-50) the task metrics cover
  double top1 = 1.0;  // fraction of rows whose argmax agrees with FP32
  double kl = 0.0;    // mean KL(P_fp32 || P), nats
};

struct ValidationReport {
  std::string graph;
  std::vector<OpReport> ops;  // ops of the lowered graph, in graph order
  OutputReport output;
  SaturationStats saturation;  // over all ops
  // Zeros in the activations the MatMul and Conv2d ops read (their first input) in this run,
  // once per reading op (sparsity_stats.h).
  ZeroCount gemm_input_zeros;
};

// The output-level comparison (also used by the precision search).
OutputReport compareOutput(const ReferenceRun& ref, const models::Graph& g, const Tensor& out);

// Runs `lowered` (a precision variant of ref.graph) and compares it with the reference.
ValidationReport validate(const ReferenceRun& ref, const models::Graph& lowered,
                          WeightStore& weights, const ExecutorOptions& options,
                          const Progress& progress = {});

// The graph a --precision choice gives: every op in `dtype`, or the plan's dtypes.
models::Graph lowerGraph(const models::Graph& graph, const models::PrecisionPlan& plan);
models::PrecisionPlan uniformPlan(DType dtype);
// ConfigError, located at the plan's line, for a dtype the executor has no kernels for (int16,
// int32, and uint4 other than as weights: the timing engines accept them) or an INT8/INT4 op
// whose weights are not integers.
void checkExecutable(const models::PrecisionPlan& plan);

// "minmax" or "percentile" (with its percentile of |x|); ConfigError at --calibration otherwise.
Calibration calibrationNamed(const std::string& method, double percentile);

}  // namespace tessel::kernels
