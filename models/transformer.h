// Internal to models/: the attention and feed-forward blocks GPT-2 and BERT share.
#pragma once

#include <cstdint>
#include <string>

#include "models/builder.h"

namespace tessel::models::detail {

struct AttentionSpec {
  int64_t heads = 1;
  bool causal = false;
  // Decode: [B, T, d] cache inputs to attend over instead of the K/V columns of the fused QKV
  // output. -1 means self-attention over this call's own tokens.
  int k_cache = -1;
  int v_cache = -1;
};

// x [B, S, d] -> prefix.{qkv, score, softmax, context, proj}; returns proj's output [B, S, d]
// (the residual add is the caller's: pre-LN and post-LN place it differently).
int attention(Builder& b, const std::string& prefix, int x, const AttentionSpec& spec);

// x [B, S, d] -> prefix.{fc, gelu, proj}; returns proj's output [B, S, d].
int feedForward(Builder& b, const std::string& prefix, int x, int64_t hidden, bool gelu_tanh);

}  // namespace tessel::models::detail
