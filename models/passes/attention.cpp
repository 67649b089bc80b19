// Attention spelled out around plain batched matmuls: the score's scale and a causal mask fold
// into the score BatchMatMul's AttentionAttrs.
#include <cmath>

#include "models/passes/patterns.h"

namespace tessel::models::passes {

namespace {

// At or below this an additive mask or a fill value excludes a score: exp(-1e4) underflows to 0
// in float next to any realistic score, which is why exporters use -1e4, finfo.min or -inf.
constexpr float kMasked = -1e4f;

// Whether `mask` (shape [1.., S, T], values known) keeps exactly the causal positions of an
// [.., S, T] score: (i, j) with j <= i + T - S. `kept` maps a value to 1 (kept), 0 (masked) or
// -1 (neither, which never matches).
template <typename Kept>
bool isCausal(const Matcher& m, int mask, int scores, Kept kept) {
  const auto& out = m.graph().tensor(scores).shape;
  const auto& shape = m.graph().tensor(mask).shape;
  if (out.size() < 2 || shape.size() < 2 || shape.size() > out.size()) return false;
  const int64_t s = out[out.size() - 2], t = out.back();
  if (shape[shape.size() - 2] != s || shape.back() != t) return false;
  for (size_t i = 0; i + 2 < shape.size(); ++i) {
    if (shape[i] != 1) return false;
  }
  const auto values = m.values(mask);
  if (!values) return false;
  for (int64_t i = 0; i < s; ++i) {
    for (int64_t j = 0; j < t; ++j) {
      const int want = j <= i + t - s ? 1 : 0;
      if (kept((*values)[static_cast<size_t>(i * t + j)]) != want) return false;
    }
  }
  return true;
}

// Add(scores, mask) with a constant 0 / -inf mask, or Where(cond, fill, scores) /
// Where(cond, scores, fill) with a constant cond and a -inf fill, masking `scores` causally.
bool isCausalMask(const Matcher& m, const Op& op, int scores) {
  if (op.kind == OpKind::Add) {
    const int mask = otherInput(op, scores);
    if (mask < 0 || mask == scores || !m.isWeight(mask)) return false;
    return isCausal(m, mask, scores, [](float v) { return v == 0.0f ? 1 : v <= kMasked ? 0 : -1; });
  }
  if (op.kind != OpKind::Elementwise || op.elt.fn != "where" || op.inputs.size() != 3) return false;
  const bool fill_first = op.inputs[2] == scores;  // Where(cond, fill, scores)
  if (!fill_first && op.inputs[1] != scores) return false;
  const Scalar fill = m.scalar(op.inputs[fill_first ? 1 : 2]);
  if (!fill.is_constant || !fill.value || !(*fill.value <= kMasked) || !m.isWeight(op.inputs[0]))
    return false;
  // Where picks input 1 where cond is true: with the fill there, true marks a masked position.
  return isCausal(m, op.inputs[0], scores,
                  [&](float v) { return (v != 0.0f) != fill_first ? 1 : 0; });
}

const Op* plainMatmul(const Matcher& m, int t) {
  const Op* op = m.producer(t, OpKind::BatchMatMul);
  return op && op->attn.heads == 0 ? op : nullptr;
}

// The score matmul behind t: t itself, or t = Mul(score, c) / Mul(c, score) / Div(score, c)
// for a constant c (then `scale` is that op).
const Op* scoreBehind(const Matcher& m, int t, const Op*& scale) {
  if (const Op* score = plainMatmul(m, t)) return score;
  const int producer = m.graph().producerOf(t);
  if (producer < 0) return nullptr;
  const Op& p = m.graph().op(producer);
  if (p.inputs.size() != 2) return nullptr;
  const bool mul = p.kind == OpKind::Mul;
  const bool div = p.kind == OpKind::Elementwise && p.elt.fn == "div";
  for (size_t i = 0; i < 2 && (mul || div); ++i) {
    if (div && i == 1) break;  // only the dividend is the score
    const Op* score = plainMatmul(m, p.inputs[i]);
    if (score && m.scalar(p.inputs[1 - i]).is_constant) {
      scale = &p;
      return score;
    }
  }
  return nullptr;
}

// The ops from the score matmul to the softmax: [scale] then [mask], either optional.
struct ScoreChain {
  const Op* score = nullptr;
  const Op* scale = nullptr;
  const Op* mask = nullptr;
  int masked = -1;  // the mask op's score-side input
};

ScoreChain chainBefore(const Matcher& m, const Op& softmax) {
  ScoreChain c;
  const Graph& g = m.graph();
  c.score = scoreBehind(m, softmax.inputs[0], c.scale);
  const int p = g.producerOf(softmax.inputs[0]);
  if (c.score || p < 0) return c;
  const Op& mask = g.op(p);
  const bool where = mask.kind == OpKind::Elementwise && mask.elt.fn == "where";
  if (mask.kind != OpKind::Add && !where) return c;
  for (int in : mask.inputs) {
    if ((c.score = scoreBehind(m, in, c.scale))) {
      c.mask = &mask;
      c.masked = in;
      break;
    }
  }
  return c;
}

}  // namespace

std::optional<Match> findAttention(const Matcher& m, const Op& softmax) {
  if (softmax.kind != OpKind::Softmax || softmax.inputs.size() != 1) return std::nullopt;
  const Op* context = m.soleConsumer(softmax.outputs[0], OpKind::BatchMatMul);
  if (!context || context->attn.heads != 0 || context->inputs[0] != softmax.outputs[0])
    return std::nullopt;
  const Graph& g = m.graph();
  const auto [score, scale, mask, masked] = chainBefore(m, softmax);
  // Folding changes what the score (and a mask kept) outputs: nothing else may read them.
  if (!score || g.consumersOf(score->outputs[0]).size() != 1) return std::nullopt;
  const bool fold_mask = mask && isCausalMask(m, *mask, masked);
  if (!scale && !fold_mask) return std::nullopt;
  if (mask && !fold_mask && g.consumersOf(mask->outputs[0]).size() != 1) return std::nullopt;

  ConstCheck check(m);
  Match match;
  match.pattern = "attention scale/mask";
  match.ops = {score->id, softmax.id};
  Op first = *score;
  if (scale) {
    const int c = scale->inputs[0] == score->outputs[0] ? scale->inputs[1] : scale->inputs[0];
    const std::optional<float> v = check.read(c);
    if (v && (*v == 0.0f || !std::isfinite(*v))) return std::nullopt;
    if (v) first.attn.scale *= scale->kind == OpKind::Mul ? *v : 1.0f / *v;
    match.ops.push_back(scale->id);
  }
  first.attn.causal = first.attn.causal || fold_mask;
  match.unverified = check.unknown();
  match.replaced.emplace(score->id, first);
  // The ops after the score now read the matmul's output directly.
  Op probs = softmax;
  probs.inputs[0] = mask && !fold_mask ? mask->outputs[0] : score->outputs[0];
  match.replaced.emplace(softmax.id, probs);
  if (mask) match.ops.push_back(mask->id);
  if (mask && !fold_mask) {
    Op kept = *mask;
    for (int& in : kept.inputs) in = in == masked ? score->outputs[0] : in;
    match.replaced.emplace(mask->id, kept);
  }
  return match;
}

}  // namespace tessel::models::passes
