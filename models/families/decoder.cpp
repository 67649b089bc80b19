// DecoderSpec -> Graph: embeddings, pre-norm blocks (RMSNorm, RoPE, GQA attention, gated MLP
// or mixture of experts), final norm and LM head; prefill, or decode over a KV cache.
#include <algorithm>
#include <cmath>
#include <utility>

#include "models/builder.h"
#include "models/families/decoder_blocks.h"
#include "models/families/family.h"

namespace tessel::models::hf {
namespace {

using detail::Builder;
using detail::makeOp;

void checkSeq(const DecoderSpec& s, const WorkloadOptions& o) {
  const bool decode = o.phase == "decode";
  if (o.new_tokens < 0 || (o.new_tokens > 0 && !decode)) {
    optionError("--phase", "a serving step of new tokens after a KV cache is a decode-phase step");
  }
  // Decode attends over the cache plus the new tokens, so both must fit in the context.
  const int64_t positions = decode ? o.seq + std::max<int64_t>(1, o.new_tokens) : o.seq;
  if (positions > s.max_positions) {
    optionError("--seq", "seq " + std::to_string(o.seq) + " exceeds " + s.name +
                             "'s max_position_embeddings of " + std::to_string(s.max_positions) +
                             (decode ? " (decode needs seq+1 positions)" : ""));
  }
  if (o.all_logits && decode) {
    optionError("--all-logits",
                "decode computes the logits of its one new position; --all-logits applies to "
                "prefill");
  }
  if (s.window > 0 && !decode && o.seq > s.window) {
    // The IR has no banded mask: a dense score would count keys the model never reads.
    optionError("--seq", "prefill seq " + std::to_string(o.seq) + " exceeds " + s.name +
                             "'s sliding_window of " + std::to_string(s.window) +
                             "; banded prefill attention is not modeled (decode keeps a rolling "
                             "cache of sliding_window keys)");
  }
  if (s.experts == 0 && !o.expert_load.empty()) {
    optionError("--expert-load", s.name +
                                     " has no experts (--expert-load applies to mixture-"
                                     "of-experts configs such as mixtral)");
  }
}

// Token embeddings (gemma: times sqrt(d)); returns the hidden state [B, S, d].
int embed(Builder& b, const DecoderSpec& s, int64_t batch, int64_t tokens) {
  int ids = b.input("input_ids", {batch, tokens}, DType::Int32);
  int x = detail::embedding(b, "embed_tokens", ids, s.vocab, s.d);
  if (!s.embed_scale) return x;
  // No constant tensors exist, so the scale is an attribute of a one-input elementwise op.
  Op op = makeOp("embed_scale", OpKind::Elementwise, {x});
  op.elt.fn = "scale";
  op.elt.alpha = static_cast<float>(std::sqrt(static_cast<double>(s.d)));
  return b.emit(std::move(op), b.shape(x));
}

// Logits of the last position (all positions with `all`), tied or separate head.
int lmHead(Builder& b, const DecoderSpec& s, int x, int table, bool all) {
  const std::vector<int64_t> in = b.shape(x);  // [B, S, d]
  const int64_t rows = all ? in[1] : 1;
  Op op = makeOp("lm_head", OpKind::MatMul,
                 {x, s.tied ? table : b.weight("lm_head.weight", {s.d, s.vocab})});
  op.transpose_b = s.tied;  // the tied head reads the [V, d] embedding table
  op.gemm = {1, in[0] * rows, s.vocab, in[2]};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {in[0], rows, s.vocab});
}

}  // namespace

Graph buildDecoder(const DecoderSpec& whole, const WorkloadOptions& o) {
  checkSeq(whole, o);
  const DecoderSpec s = shard(whole, o);
  const int64_t layers = blockCount(s.name, s.layers, o);
  const bool decode = o.phase == "decode";
  Graph g;
  g.name = graphName(s.name, o, true);
  if (s.tp > 1 || s.ep > 1)
    g.name += " tp=" + std::to_string(s.tp) + (s.ep > 1 ? " ep=" + std::to_string(s.ep) : "");
  g.warnings = s.notes;
  g.tensor_parallel = s.tp;
  g.expert_parallel = s.ep;
  Builder b{g, o.dtype};
  const int64_t fresh = decode ? std::max<int64_t>(1, o.new_tokens) : o.seq;
  const int64_t batch = o.batch / s.routed_from;  // data-parallel attention: this rank's share
  const Step step{batch, fresh, decode ? o.seq : 0, decode};
  int x = embed(b, s, batch, step.tokens);
  // A vocabulary-parallel table: each rank looks up its rows, the sum is everyone's.
  if (s.tp > 1) communicate(b, "all-reduce", "tp", x, g.tensor(x).bytes());
  const int table = g.op(g.findOp("embed_tokens")).inputs[1];
  for (int i = 0; i < layers; ++i) x = decoderBlock(b, s, step, i, x, o.expert_load);
  b.layer = -1;
  x = rmsNorm(b, "norm", x, s.eps);
  const int logits = lmHead(b, s, x, table, o.all_logits && !decode);
  if (s.tp > 1) communicate(b, "all-gather", "tp", logits, g.tensor(logits).bytes() * s.tp);
  return g;
}

}  // namespace tessel::models::hf
