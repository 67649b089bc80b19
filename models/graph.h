// The graph IR: tensors and ops in topological order. Builders (gpt2, bert, resnet50, single
// layers) produce it; the mapper, the timing engines and the functional executor consume it.
//
// Layout conventions (the executor relies on them):
//   - transformer activations are [B, S, D] row-major; token ids are [B, S] (int32).
//   - MatMul weights are [K, N] (in x out); bias [N]. out[.., n] = sum_k in[.., k] * W[k, n].
//     With transpose_b the weight is stored [N, K] (tied LM head uses the [V, D] embedding).
//   - Conv activations are NHWC; conv weights are [R, S, C, K]; bias [K].
//   - BatchMatMul implements multi-head attention on [B, S, heads*head_dim] views, see
//     AttentionAttrs. No reshape/split ops exist: views are attributes, never copies.
//   - A MatMul whose output has fewer rows per batch than its input reads the LAST rows of each
//     batch: GPT-2's prefill LM head takes [B, S, D] and writes [B, 1, V] (gemm.m = B).
//   - MatMul always has gemm.batch = 1: builders fold the batch into gemm.m (one weight serves
//     every row), so only BatchMatMul has gemm.batch > 1.
//   - Imported ONNX graphs keep ONNX's own layouts: an op with `channels_first` reads and writes
//     NCHW activations and [K, C/groups, R, S] conv weights; a BatchMatMul with attn.heads == 0
//     is a plain numpy-style batched matmul of its two tensors (see AttentionAttrs).
//   - Grouped-query attention (attn.kv_heads < attn.heads) stacks the query heads that share a
//     K/V head as rows: gemm = {B * kv_heads, group * S, T, head_dim}. The MACs are those of
//     B * heads separate heads; each K/V head is one operand, read once for its group.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/dtype.h"
#include "util/sparsity.h"

namespace tessel::models {

enum class TensorRole : uint8_t {
  Input,       // graph input (token ids, image, KV cache)
  Weight,      // parameter, counted by parameterCount()
  Activation,  // produced by an op
};

struct Tensor {
  int id = -1;
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::FP32;
  TensorRole role = TensorRole::Activation;
  // A Weight that is one of the model's parameters (counted by parameterCount()). An imported
  // file's constants — Constant nodes, int64 shape tensors, boolean masks — are Weight tensors
  // an op reads, but no parameter.
  bool parameter = true;
  // How sparse its values are (util/sparsity.h): dense unless the workload says otherwise
  // (--sparsity, a SCALE-Sim v3 N:M field, an ONNX initializer's zeros).
  Sparsity sparsity;

  int64_t elements() const;
  int64_t bytes() const { return storageBytes(dtype, elements()); }  // scales included
};

enum class OpKind : uint8_t {
  MatMul,       // activation x weight (+ bias): projections, FFN, FC, LM head
  BatchMatMul,  // activation x activation, batched over heads (attention score, context)
  Conv2d,       // NHWC conv (+ bias); lowered to GEMM by im2col for timing
  Softmax,      // over the last dim
  LayerNorm,    // over the last dim; inputs: x, gamma, beta
  Gelu,         // GELU (tanh form in GPT-2, erf form in BERT: see Op::gelu_tanh)
  Relu,
  Add,        // elementwise add of two same-shape tensors (residual add)
  BatchNorm,  // inference batch norm: inputs x, scale[C], shift[C] (folded form)
  MaxPool,
  AvgPool,
  GlobalAvgPool,  // NHWC -> [N, C]
  Embedding,      // inputs: ids [B,S] (int32), table [V, D]; output [B, S, D]
  Quantize,       // fp -> int (inserted by models::precision where dtypes change)
  Dequantize,     // int -> fp
  // Layout ops a deployment puts around the accelerator's graph (serve::withDeploymentOps):
  Transpose,  // permutes axes (LayoutAttrs::perm), e.g. NCHW -> NHWC
  Pad,        // grows the innermost axis to the accelerator's alignment (zeros)
  Slice,      // a range of one axis (LayoutAttrs axis/start/end/step); a copy
  // Ops of today's networks (Hugging Face families, ONNX imports):
  Mul,          // elementwise product, numpy broadcasting (SwiGLU's gate, scales)
  Elementwise,  // any other elementwise function (EltAttrs::fn): sub, div, pow, exp, erf, ...
  Sigmoid,
  Silu,       // x * sigmoid(x)
  HardSwish,  // x * relu6(x + 3) / 6
  RmsNorm,    // x / sqrt(mean(x^2) + eps) * gamma over the last dim; inputs x, gamma
  Rope,       // rotary position embedding on [B, S, heads*head_dim] (RopeAttrs)
  Gather,     // rows of input 0 along LayoutAttrs::axis picked by input 1 (int ids); a copy
  Reduce,     // ReduceAttrs::fn over ReduceAttrs::axes
  Concat,     // inputs joined along LayoutAttrs::axis; a copy
  MoeRoute,   // router logits [T, E] -> dense gates [T, E]: softmax, top-k kept (MoeAttrs)
};

// The classes latency is reported by.
enum class OpClass : uint8_t {
  MatMul,
  Conv,
  Softmax,
  LayerNorm,
  GELU,
  ResidualAdd,
  QuantDequant,
  Pool,
  Layout,      // transpose, pad, slice, concat, gather
  Activation,  // sigmoid, silu, hardswish
  Elementwise,  // mul and the generic elementwise functions
  RoPE,
  Reduce,
  Routing,  // mixture-of-experts routing and combining
  Other
};

std::string_view nameOf(OpKind k);
std::string_view nameOf(OpClass c);
OpClass classOf(OpKind k);

// C[b][m][n] = sum_k A[b][m][k] * B[b][k][n]: the GEMM view every compute op has.
struct GemmShape {
  int64_t batch = 1;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  // batch*m*n*k; ConfigError when it exceeds the 64-bit counters (util/checked.h).
  int64_t macs() const;
};

struct ConvShape {
  int64_t n = 1, h = 0, w = 0, c = 0;  // input NHWC
  int64_t k = 0, r = 0, s = 0;         // output channels, kernel height/width
  int64_t stride = 1, pad = 0;
  int64_t p = 0, q = 0;  // output height/width
  // Channel groups (each sees c / groups inputs and makes k / groups outputs; depthwise is
  // groups = c = k) and the spacing of the kernel's taps (the window spans (r - 1) * dilation + 1).
  int64_t groups = 1, dilation = 1;
};

// Attention views for BatchMatMul. Both inputs are [B, rows, cols] tensors; operand X's head h
// occupies columns [X_col_offset + h*head_dim, X_col_offset + (h+1)*head_dim).
//   score:   in0 = Q source [B,S,*], in1 = K source [B,T,*], transpose_b = true,
//            out [B, heads, S, T] = scale * Q_h K_h^T, with causal masking (-inf above the
//            diagonal, offset by T - S so decode queries see the whole cache).
//   context: in0 = probabilities [B, heads, S, T], in1 = V source [B,T,*], transpose_b = false,
//            out [B, S, heads*head_dim] (heads merged back).
// heads == 0: no attention view; the op multiplies its tensors as numpy's matmul does
// (A [..., M, K] x B [..., K, N], batch dims broadcast; B is [..., N, K] with transpose_b),
// then applies scale and causal as the score does, with [M, N] as [S, T] (recognizePatterns
// folds an exported score's constant scale and causal mask there).
// kv_heads: heads of K and V (GQA/MQA when fewer than heads; 0 means heads).
struct AttentionAttrs {
  int64_t heads = 1;
  int64_t head_dim = 0;
  int64_t a_col_offset = 0;
  int64_t b_col_offset = 0;
  bool transpose_b = false;
  bool causal = false;
  float scale = 1.0f;
  int64_t kv_heads = 0;
  int64_t kvHeads() const { return kv_heads > 0 ? kv_heads : heads; }
};

// Transpose, Pad, Slice. Pad and Slice change only the innermost axis (the shapes say by how much).
struct LayoutAttrs {
  std::vector<int> perm;        // Transpose: output axis i is input axis perm[i]
  bool on_accelerator = false;  // the accelerator lowers the tensor itself, not the host
  // Slice, Gather, Concat: the axis (non-negative); Slice keeps start, start+step, ... < end.
  // A deployment's Slice (start = end = 0) drops the innermost axis's padding.
  int axis = -1;
  int64_t start = 0, end = 0, step = 1;
};

// Elementwise: the function, by name: sub, div, pow, max, min, sqrt, exp, log, erf, tanh, neg,
// abs, reciprocal, clip (alpha = min, beta = max), hardsigmoid (alpha*x + beta, clipped to
// [0, 1]), leakyrelu (alpha), where (inputs cond, x, y), equal, less, greater, not, and, or,
// cast, moe_combine (gates [T, E] and the experts' outputs -> their gate-weighted sum).
struct EltAttrs {
  std::string fn;
  float alpha = 0.0f, beta = 0.0f;
};

struct ReduceAttrs {
  std::string fn = "mean";  // mean, sum, max, min, prod, l2, sumsquare
  std::vector<int> axes;    // non-negative, ascending
  bool keepdims = true;
};

// Rope: the columns [col_offset, col_offset + heads*head_dim) of [B, S, *] are heads of
// head_dim; the first rotary_dim of each head rotate by position * theta^(-2i/rotary_dim),
// positions position_offset, position_offset + 1, ... Pairs are (i, i + rotary_dim/2) (the
// HF "rotate_half" form) unless interleaved ((2i, 2i + 1)).
struct RopeAttrs {
  int64_t heads = 1, head_dim = 0, rotary_dim = 0, col_offset = 0, position_offset = 0;
  double theta = 10000.0;
  bool interleaved = false;
};

// MoeRoute: E experts, each token keeps its top_k; gates are the softmax over the kept logits
// (how the gates are normalized changes values, not counts, and is not recorded). Gather ops with
// `expert` >= 0 dispatch an expert's tokens (their count is the expected load, see
// docs/workloads.md) and an Elementwise moe_combine adds the gated results.
struct MoeAttrs {
  int64_t experts = 0, top_k = 0;
  int expert = -1;
};

// Values of Weight tensors a model file carries (an ONNX file's initializers), read only when
// a functional run asks; timing never reads them.
class WeightSource {
 public:
  virtual ~WeightSource() = default;
  // The tensor's values as float in its shape's row-major order, or nullopt when the file has
  // none for it (the executor then synthesizes them). Throws tessel::Error on an unreadable file.
  virtual std::optional<std::vector<float>> values(const std::string& tensor_name) const = 0;
};

struct PoolAttrs {
  int64_t window = 1, stride = 1, pad = 0;
};

struct Op {
  int id = -1;
  std::string name;  // unique, e.g. "h3.attn.qkv"
  OpKind kind = OpKind::MatMul;
  std::vector<int> inputs;   // tensor ids; activation first, then weight, then bias
  std::vector<int> outputs;  // tensor ids (one today)
  int layer = -1;            // transformer block / resnet stage index, -1 if none

  GemmShape gemm;            // MatMul, BatchMatMul, Conv2d (im2col view)
  ConvShape conv;            // Conv2d
  AttentionAttrs attn;       // BatchMatMul
  PoolAttrs pool;            // MaxPool, AvgPool
  LayoutAttrs layout;        // Transpose, Pad, Slice, Gather, Concat
  EltAttrs elt;              // Elementwise
  ReduceAttrs reduce;        // Reduce
  RopeAttrs rope;            // Rope
  MoeAttrs moe;              // MoeRoute, and Gather ops that dispatch an expert's tokens
  // 4-d activations are NCHW and conv weights [K, C/groups, R, S] (ONNX's layouts).
  bool channels_first = false;
  bool transpose_b = false;  // MatMul whose weight is stored [N, K] (tied LM head)
  bool gelu_tanh = true;     // Gelu: tanh approximation (GPT-2) or erf form (BERT)
  // Quantize of uint8 data into int8 (x ^ 0x80, a zero-point shift; the graph stores both as
  // 1-byte integers) rather than of floating-point data.
  bool from_uint8 = false;
  // A deployment's own conversion (the request's quantize, the response's dequantize): the
  // host's application code runs it, whatever units the accelerator has.
  bool host_side = false;
  float eps = 1e-5f;         // LayerNorm, RmsNorm, BatchNorm
  std::string source;        // where the op came from: an ONNX node ("node 'x' (Conv)"), or ""

  int64_t macs = 0;  // multiply-accumulates (0 for non-GEMM ops)
  OpClass opClass() const { return classOf(kind); }
  bool isGemmLike() const {
    return kind == OpKind::MatMul || kind == OpKind::BatchMatMul || kind == OpKind::Conv2d;
  }
};

// A collective a parallel split needs (models::WorkloadOptions::tensor_parallel), after an op.
struct Communication {
  std::string op;     // "all-reduce" | "all-gather" | "all-to-all"
  std::string group;  // "tp" (the tensor-parallel group) | "ep" (the expert-parallel group)
  int64_t bytes = 0;  // each rank's buffer, as systems/collective.h counts it
  int after = -1;     // the op whose output it carries
};

class Graph {
 public:
  std::string name;  // e.g. "gpt2-small prefill seq=512 batch=1"
  // What a builder or importer wants the user to know (ops costed generically, ...); the CLI
  // prints them to stderr, JSON writers carry them.
  std::vector<std::string> warnings;
  // Values of the Weight tensors when the model file has them (nullptr: synthesize).
  std::shared_ptr<const WeightSource> weight_values;
  // Parameters of Weight tensors a pass folded into an op's attributes (an exported causal
  // mask): no op reads them, but they are the model file's; parameterCount() adds them.
  int64_t folded_parameters = 0;
  // One chip's share of a parallel split: the split and the collectives it needs, in op order.
  int64_t tensor_parallel = 1, expert_parallel = 1;
  std::vector<Communication> communication;

  // Throws tessel::Error for a negative dimension. An empty shape is a scalar.
  int addTensor(std::string name, std::vector<int64_t> shape, DType dtype, TensorRole role);
  // Appends an op (its inputs must already exist); fills op.id and returns it.
  // Throws tessel::Error unless: the name is non-empty and unused; every input exists and, if it
  // is an Activation, is already produced (this keeps ops topologically ordered); there is at
  // least one output and every output is an Activation no op produces yet.
  int addOp(Op op);

  const std::vector<Tensor>& tensors() const { return tensors_; }
  const std::vector<Op>& ops() const { return ops_; }
  const Tensor& tensor(int id) const { return tensors_.at(static_cast<size_t>(id)); }
  Tensor& tensor(int id) { return tensors_.at(static_cast<size_t>(id)); }
  const Op& op(int id) const { return ops_.at(static_cast<size_t>(id)); }
  // Mutable access is for attributes. After rewiring inputs/outputs or renaming, call reindex().
  Op& op(int id) { return ops_.at(static_cast<size_t>(id)); }
  // The op with this name, or -1.
  int findOp(std::string_view name) const;

  int64_t totalMacs() const;
  int64_t parameterCount() const;  // elements of unique Weight tensors that are parameters
  // The op that produces tensor t, or -1 for inputs and weights.
  int producerOf(int tensor_id) const;
  // Ops that read tensor t, in order (an op reading t twice is listed once).
  std::vector<int> consumersOf(int tensor_id) const;
  // Rebuilds the producer/consumer/name indexes from ops() after in-place edits through op(id).
  void reindex();

 private:
  void checkOp(const Op& op) const;
  void checkDims(const Op& op) const;  // every dimension at least 1 (ConfigError)
  void indexOp(const Op& op);

  std::vector<Tensor> tensors_;
  std::vector<Op> ops_;
  std::vector<int> producer_;                // by tensor id; -1 if none
  std::vector<std::vector<int>> consumers_;  // by tensor id
  std::unordered_map<std::string, int> op_by_name_;
};

}  // namespace tessel::models
