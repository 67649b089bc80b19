// kernels::Executor: runs a models::Graph op by op on the kernels, each op in the dtype of its
// output tensor (as models::applyPrecision sets them; the graph's Quantize/Dequantize ops convert
// between dtypes). FP32 uses the float kernels; FP16/BF16 and the narrow floats (FP8/FP6/FP4)
// round operands and results to the format (FP32 accumulation unless FP16/BF16 ask otherwise);
// block-scaled types (MX, int4_g128_fp16 ...) quantize-dequantize in blocks along the last axis
// (weights: along the reduction axis) and compute in FP32; a matmul whose weights are stored
// narrower than it computes (weight-only quantization) reads them quantize-dequantized and widened
// to its format. INT8 (and INT4, in a 4-bit range) uses symmetric per-channel weights,
// static per-tensor activation scales (ActivationRanges), INT32 accumulation and fixed-point
// requantization. Nonlinear ops on INT8 tensors dequantize, run in FP32 and quantize (the host
// path), or run the I-BERT integer kernels with `integer_nonlinear`. With `fuse`, every
// models::fuse group runs as one GEMM whose epilogue chain holds the rest of the group: no
// intermediate tensor is written, and the results equal the unfused run's. With
// `fuse_attention`, each attention chain (models/chains.h) the FlashAttention kernel can run
// (executor/fused_attention.h says which) is one kernel call, block by block with an online
// softmax (ops/flash_attention.h): its scores and probabilities are never written, and its
// output differs from the unfused run's by that schedule's arithmetic.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/executor/calibration.h"
#include "kernels/gemm/int8.h"
#include "kernels/numeric/tensor.h"
#include "kernels/weights/store.h"
#include "models/graph.h"

namespace tessel::kernels {

struct ExecutorOptions {
  bool fuse = false;            // run fusion groups as GEMM + epilogue chain
  bool fuse_attention = false;  // run attention chains as one FlashAttention kernel
  // When not empty, only these kinds may join an epilogue: the hardware's fusion rules
  // (dataflows::fuseRulesFor), so the executor fuses exactly what the timing engines fuse.
  std::vector<models::OpKind> fuse_kinds;
  bool integer_nonlinear = false;         // INT8 GELU/softmax/LayerNorm via I-BERT kernels
  bool low_precision_accumulate = false;  // FP16/BF16 GEMMs accumulate in their own format
  Int8Isa isa = Int8Isa::Auto;
};

// What happened to one op of the graph.
struct OpRecord {
  int op = -1;
  int step = -1;               // index of the step (kernel call) that computed it
  int written_by = -1;         // the op whose output that kernel call writes (itself unless its
                               // output stayed inside a fused group's epilogue)
  SaturationStats saturation;  // clipping while writing the step's output (on its last op);
                               // entries masked by causal attention are not clipping
};

struct RunResult {
  std::vector<OpRecord> ops;  // by op id; ops skipped by runFrom keep step = -1
  std::map<std::string, std::shared_ptr<const Tensor>> outputs;  // tensors no op reads
};

// Sees every tensor an op writes out, right after the op (fused intermediates never appear).
using Observer = std::function<void(const models::Op&, const std::shared_ptr<const Tensor>&)>;
// Activations computed elsewhere, by tensor name (for runs that start mid-graph); nullptr if none.
using Feeds = std::function<std::shared_ptr<const Tensor>(const std::string&)>;

struct ExecPlan;

class Executor {
 public:
  // Plans the run: fusion groups and tensor lifetimes. `g` and `weights` must outlive it.
  // `ranges` (INT8 activation scales) is required when the graph has INT8 activations.
  Executor(const models::Graph& g, WeightStore& weights, ExecutorOptions options = {},
           const ActivationRanges* ranges = nullptr);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Runs the whole graph. Tensors are freed after their last reader.
  RunResult run(const Observer& observe = {}) const;
  // Runs only the kernel calls that include op `first_op` or a later one; tensors they read
  // that earlier ops produce come from `feeds` (which must return them in the graph's dtype).
  RunResult runFrom(int first_op, const Feeds& feeds, const Observer& observe = {}) const;

  // The kernel calls in execution order, each as its op ids (a fused group: anchor first).
  const std::vector<std::vector<int>>& steps() const;
  const ExecutorOptions& options() const { return options_; }

 private:
  const models::Graph& g_;
  WeightStore& weights_;
  ExecutorOptions options_;
  const ActivationRanges* ranges_;
  std::unique_ptr<ExecPlan> plan_;
};

}  // namespace tessel::kernels
