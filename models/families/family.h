// Internal to models/families/: the normalized description of each family a config.json
// describes, the parsers that fill them, and the builders that turn them into graphs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/builder.h"
#include "models/families/fields.h"
#include "models/graph.h"
#include "models/op_budget.h"
#include "models/workload.h"

namespace tessel::models::hf {

// llama, mistral, mixtral, qwen2, qwen2_moe, gemma, phi3: pre-norm decoder with RMSNorm, RoPE,
// GQA and a gated MLP (dense or mixture of experts).
struct DecoderSpec {
  std::string name;  // the graph's model name ("llama-3.1-8b")
  int64_t vocab = 0, d = 0, layers = 0, heads = 0, kv_heads = 0, head_dim = 0, ffn = 0;
  int64_t max_positions = 0;
  int64_t window = 0;  // sliding-window attention: keys per query (0 = all)
  float eps = 1e-6f;
  double rope_theta = 10000.0;
  bool tied = false;
  bool qkv_bias = false, o_bias = false, mlp_bias = false;
  bool fused_qkv = false;      // phi3: one qkv_proj
  bool fused_gate_up = false;  // phi3: one gate_up_proj matrix
  bool gelu = false;           // GeGLU (gemma) instead of SwiGLU
  bool gelu_tanh = true;
  bool embed_scale = false;           // gemma multiplies embeddings by sqrt(d)
  int64_t experts = 0, top_k = 0;     // mixture of experts when experts > 0
  int64_t expert_ffn = 0;             // a routed expert's intermediate size
  int64_t shared_ffn = 0;             // qwen2_moe: the sigmoid-gated shared expert (0 = none)
  int64_t sparse_step = 1;            // qwen2_moe: layer i is MoE when (i + 1) % sparse_step == 0
  std::vector<int64_t> dense_layers;  // qwen2_moe mlp_only_layers: dense MLP of ffn instead
  bool shared_gated = true;           // qwen2_moe's shared expert is sigmoid-gated; deepseek's not
  // Multi-head latent attention (deepseek_v2/v3) when kv_lora > 0: queries through a q_lora
  // bottleneck (0: a plain q_proj), keys and values from a kv_lora latent plus one shared
  // qk_rope-wide rotary key; per head qk_nope + qk_rope for scores, v_head for values.
  int64_t q_lora = 0, kv_lora = 0, qk_nope = 0, qk_rope = 0, v_head = 0;
  bool mla() const { return kv_lora > 0; }
  std::vector<std::string> notes;     // for Graph::warnings (what is modeled approximately)
  // One chip's share of a parallel split (shard()): the experts it holds (the first
  // experts_held) and how many chips' tokens reach them (expert parallel with data-parallel
  // attention); tp/ep as split.
  int64_t experts_held = 0;
  int64_t routed_from = 1;
  int64_t tp = 1, ep = 1;

  // Whether block i runs the mixture of experts (else the dense MLP of ffn).
  bool moeLayer(int64_t i) const;
};

// gpt2, bert, vit: LayerNorm transformers with fused-QKV attention and a GELU MLP.
struct EncoderSpec {
  enum class Kind { Gpt2, Bert, Vit } kind = Kind::Gpt2;
  std::string name;
  int64_t vocab = 0, d = 0, layers = 0, heads = 0, ffn = 0, max_positions = 0;
  int64_t type_vocab = 0;                      // bert token types
  int64_t image = 0, patch = 0, channels = 0;  // vit
  int64_t labels = 0;                          // vit classifier classes (0 = no head)
  float eps = 1e-5f;
  bool gelu_tanh = true;
  std::vector<std::string> notes;
};

// A transformer block's ops (norms, projections, attention, FFN, residual adds: about 16) and
// an expert's (dispatch, up, activation, down, combine: about 5), so that num_hidden_layers and
// expert counts are checked against the memory budget (util/budget.h) before a graph is built.
inline constexpr int64_t kOpsPerBlock = 16, kOpsPerExpert = 5;
inline int64_t bytesPerBlock() { return kOpsPerBlock * bytesPerOp(); }

DecoderSpec parseDecoder(const Fields& f, const std::string& model_type, const std::string& name);
// The expert fields of mixtral and qwen2_moe (other families: rejects them when set).
void readExperts(const Fields& f, const std::string& model_type, DecoderSpec& s);
EncoderSpec parseEncoder(const Fields& f, const std::string& model_type, const std::string& name);

Graph buildDecoder(const DecoderSpec& spec, const WorkloadOptions& options);
// One chip's share of `s` under options.tensor_parallel / expert_parallel (ConfigError at --tp,
// --ep or --batch when the split does not divide the model).
DecoderSpec shard(const DecoderSpec& s, const WorkloadOptions& options);
// Records a collective of `bytes` per rank on the output of `tensor`'s producer.
void communicate(detail::Builder& b, const char* op, const char* group, int tensor, int64_t bytes);
Graph buildEncoder(const EncoderSpec& spec, const WorkloadOptions& options);
Graph buildVit(const EncoderSpec& spec, const WorkloadOptions& options);
// The first row of every sequence of [B, S, d] -> [B, 1, d] (the [CLS] token).
int firstToken(detail::Builder& b, const std::string& name, int x);

// Routed tokens per expert: T * top_k spread by `load` (normalized; empty = uniform) with the
// largest-remainder rule, so the counts sum to T * top_k. Throws ConfigError at --expert-load
// for a bad load (wrong length, negative, all zero, a share a token cannot reach).
std::vector<int64_t> expertTokens(int64_t tokens, int64_t experts, int64_t top_k,
                                  const std::vector<double>& load);

// Fields every family ignores because they do not change the computation (token ids,
// dropout, initialization, bookkeeping); accepted so they raise no warning.
void acceptBookkeeping(const Fields& f);
// ConfigError when `key` is present and not null/false: a field that changes the math and is
// not modeled. `why` says what it does.
void rejectIfSet(const Fields& f, const std::string& key, const std::string& why);
// The dtype a quantized checkpoint's matmul weights are stored in (its quantization_config:
// GPTQ/AWQ int4/int8 in groups, fp8, bitsandbytes int8); nullopt when the config has none.
// ConfigError at the field for a scheme tessel does not model.
std::optional<DType> checkpointWeights(const Fields& f);

// Shared option checks (ConfigError at the option's path, no file).
[[noreturn]] void optionError(const std::string& option, const std::string& message);
int64_t blockCount(const std::string& model, int64_t blocks, const WorkloadOptions& o);
std::string graphName(const std::string& model, const WorkloadOptions& o, bool phase);

}  // namespace tessel::models::hf
