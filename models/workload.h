// Workload builders: a name plus options -> a Graph.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/graph.h"
#include "models/sparsity.h"

namespace tessel::models {

struct WorkloadOptions {
  int64_t seq = 512;  // prefill/encoder sequence length; decode: KV-cache length
  int64_t batch = 1;
  std::string phase = "prefill";  // gpt2 only: "prefill" | "decode"
  int64_t image = 224;            // resnet50 input height = width
  DType dtype = DType::Int8;      // dtype of every tensor the builder makes
  bool all_logits = false;        // gpt2 prefill: LM head on every position, not just the last
  // Run a prefix of a large model: gpt2/bert keep transformer blocks 0..layers-1 (gpt2 then its
  // usual ln_f + LM head). 0 = all. Other workloads reject it (shrink resnet50 with `image`).
  int64_t layers = 0;
  // Options the user gave explicitly ("--seq", "--image", ...): one that does not apply to the
  // named workload is an error instead of being ignored. Empty = none checked.
  std::vector<std::string> given;
  // Imported models (ONNX files): values of symbolic dimensions ("--dim batch=1", repeatable).
  std::vector<std::pair<std::string, int64_t>> dims;
  // Imported models: an op tessel has no model for is an error, not a generic costed op.
  bool strict = false;
  // Mixture-of-experts models: the share of routed tokens each expert receives (normalized;
  // empty = uniform). One entry per expert.
  std::vector<double> expert_load;
  // Decoder LLMs (the Hugging Face decoder families), phase "decode" only: one serving
  // iteration's step. Each of the batch's sequences adds `new_tokens` tokens after the `seq`
  // already in its KV cache and attends over a cache of seq + new_tokens keys (a prefill chunk;
  // new_tokens = 1 is the decode step). 0 = the usual decode step of one new token.
  int64_t new_tokens = 0;
  // Parallel splits (Hugging Face decoders only): the graph is one chip's share. Tensor
  // parallel over `tensor_parallel` chips (Megatron: Q/K/V, up and gate split by columns, o_proj
  // and down by rows, a vocabulary-parallel embedding and LM head); experts over
  // `expert_parallel` chips, within the tensor-parallel group (it divides tensor_parallel) or,
  // with tensor_parallel 1, with attention data-parallel (the batch split among them). The
  // collectives the split needs are Graph::communication.
  int64_t tensor_parallel = 1;
  int64_t expert_parallel = 1;
  // How sparse the matmuls' and convolutions' weights and inputs are (models/sparsity.h),
  // applied to the built graph; dense by default. A SCALE-Sim v3 topology's N:M field and an
  // ONNX file's zero weights set their own unless this says otherwise.
  SparsitySpec sparsity;
};

// What an LLM service needs to know of a decoder: its context and its KV cache per token.
struct DecoderFacts {
  std::string model;
  int64_t layers = 0, kv_heads = 0, head_dim = 0;
  int64_t max_positions = 0;
  int64_t window = 0;  // sliding window: keys kept per sequence (0 = all)
  bool uniform_blocks = true;  // every transformer block has the same ops and shapes
};
// The facts of a Hugging Face decoder (a shipped preset or a config.json); false for every
// other workload (encoders, gpt2, resnet50, ONNX files, single layers). Throws what build()
// throws for a bad config.
bool decoderFacts(const std::string& name, DecoderFacts& facts);

// Names: gpt2 (= gpt2-small), gpt2-small|medium|large|xl, bert (= bert-base), bert-base|large,
// resnet50, the shipped Hugging Face presets (models/families/presets.h: llama-3.1-8b, ...),
// a path ending in .onnx (models/onnx/import.h), a path ending in .json (a Hugging Face
// config.json, models/families/hf_config.h), gemm:M=..,K=..,N=..[,B=..],
// conv:H=..,W=..,C=..,K=..,R=..,S=..[,stride=..][,pad=..][,N=..]. Unknown names or bad parameters
// throw ConfigError (with a suggestion when one is close).
Graph build(const std::string& name, const WorkloadOptions& options);
// The options ("--seq", "--batch", ...) workload `name` reads; empty for an unknown name.
std::vector<std::string> optionsOf(const std::string& name);

// The names build() accepts (families, not every gemm:/conv: spelling).
std::vector<std::string> workloadNames();

}  // namespace tessel::models
