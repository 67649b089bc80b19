// Internal to models/families/: one decoder block and its parts (RMSNorm, GQA attention with
// RoPE, gated MLP, mixture of experts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/builder.h"
#include "models/families/family.h"

namespace tessel::models::hf {

// The tokens one forward pass processes.
struct Step {
  int64_t batch = 1;
  int64_t tokens = 1;  // new tokens per sequence (S)
  int64_t past = 0;    // decode: tokens already in the KV cache (L); prefill: 0
  bool decode = false;
};

int rmsNorm(detail::Builder& b, const std::string& name, int x, float eps);
// Multi-head latent attention (DecoderSpec::mla); returns o_proj's output [B, S, d]
// (models/families/mla.cpp).
int latentAttention(detail::Builder& b, const DecoderSpec& s, const Step& st, const std::string& p, int x);
// x [B, S, d] -> the residual stream after block i.
int decoderBlock(detail::Builder& b, const DecoderSpec& s, const Step& step, int i, int x,
                 const std::vector<double>& expert_load);
// The gated MLP of intermediate size `width`: up_proj, gate_proj, act, mul, down_proj (up first,
// so the gate GEMM's epilogue can take act and mul). x [..., d] -> [..., d].
int gatedMlp(detail::Builder& b, const DecoderSpec& s, const std::string& prefix, int x,
             int64_t width);
// Mixture of experts on x [B, S, d] -> [B, S, d] (qwen2_moe: plus the gated shared expert).
int moe(detail::Builder& b, const DecoderSpec& s, const std::string& prefix, int x,
        const std::vector<double>& expert_load);

}  // namespace tessel::models::hf
