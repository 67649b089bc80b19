// ViT (HF ViTModel / ViTForImageClassification): patch conv, [CLS] + position embeddings,
// pre-LN encoder blocks, final LayerNorm, and a classifier on [CLS] when the config has one.
#include <algorithm>
#include <utility>

#include "models/builder.h"
#include "models/families/family.h"
#include "models/transformer.h"

namespace tessel::models::hf {
namespace {

using detail::Builder;
using detail::makeOp;

// pixels [B, H, W, C] -> [B, N, d] patch tokens: a Conv2d with stride = kernel = patch. NHWC
// [B, H/p, W/p, d] is row-major identical to [B, N, d], so the output takes the token shape.
int patchEmbed(Builder& b, const EncoderSpec& s, int pixels, int64_t batch) {
  const int64_t side = s.image / s.patch;
  ConvShape c;
  c.n = batch;
  c.h = c.w = s.image;
  c.c = s.channels;
  c.k = s.d;
  c.r = c.s = c.stride = s.patch;
  c.p = c.q = side;
  Op op = makeOp("embeddings.patch", OpKind::Conv2d,
                 {pixels, b.weight("embeddings.patch.weight", {c.r, c.s, c.c, c.k}),
                  b.weight("embeddings.patch.bias", {c.k})});
  op.conv = c;
  op.gemm = {1, c.n * c.p * c.q, c.k, c.c * c.r * c.s};
  op.macs = op.gemm.macs();
  return b.emit(std::move(op), {batch, side * side, s.d});
}

// [CLS] (a one-row table looked up by a zero id) + patches, plus learned position embeddings.
int embed(Builder& b, const EncoderSpec& s, int64_t batch) {
  const int64_t tokens = (s.image / s.patch) * (s.image / s.patch) + 1;
  int pixels = b.input("pixel_values", {batch, s.image, s.image, s.channels}, b.dtype);
  int patches = patchEmbed(b, s, pixels, batch);
  int cls = detail::embedding(b, "embeddings.cls_token",
                              b.input("cls_ids", {batch, 1}, DType::Int32), 1, s.d);
  Op cat = makeOp("embeddings.concat", OpKind::Concat, {cls, patches});
  cat.layout.axis = 1;
  cat.layout.on_accelerator = true;
  int x = b.emit(std::move(cat), {batch, tokens, s.d});
  int pos = detail::embedding(b, "embeddings.position",
                              b.input("position_ids", {batch, tokens}, DType::Int32), tokens, s.d);
  return detail::add(b, "embeddings.add_position", x, pos);
}

}  // namespace

Graph buildVit(const EncoderSpec& s, const WorkloadOptions& o) {
  if (std::find(o.given.begin(), o.given.end(), "--seq") != o.given.end()) {
    optionError("--seq", s.name + " takes its token count from image_size/patch_size (" +
                             std::to_string((s.image / s.patch) * (s.image / s.patch) + 1) +
                             " tokens); --seq does not apply");
  }
  Graph g;
  g.name = s.name + " image=" + std::to_string(s.image) + " batch=" + std::to_string(o.batch) +
           (o.layers == 0 ? "" : " layers=" + std::to_string(o.layers));
  Builder b{g, o.dtype};
  int x = embed(b, s, o.batch);
  const int64_t layers = blockCount(s.name, s.layers, o);
  for (int i = 0; i < layers; ++i) {
    const std::string p = "layer" + std::to_string(i);
    b.layer = i;
    int a = detail::attention(b, p + ".attn", detail::layerNorm(b, p + ".ln_before", x, s.eps),
                              detail::AttentionSpec{s.heads, false, -1, -1});
    x = detail::add(b, p + ".attn.residual", x, a);
    int f = detail::feedForward(b, p + ".mlp", detail::layerNorm(b, p + ".ln_after", x, s.eps),
                                s.ffn, s.gelu_tanh);
    x = detail::add(b, p + ".mlp.residual", x, f);
  }
  b.layer = -1;
  x = detail::layerNorm(b, "layernorm", x, s.eps);
  // ViTForImageClassification: a classifier on [CLS]; ViTModel: its pooler (dense + tanh).
  int first = firstToken(b, s.labels > 0 ? "classifier.cls" : "pooler.cls", x);
  if (s.labels > 0) {
    detail::linear(b, "classifier", first, s.labels, true);
  } else {
    int pooled = detail::linear(b, "pooler.dense", first, s.d, true);
    Op tanh = makeOp("pooler.tanh", OpKind::Elementwise, {pooled});
    tanh.elt.fn = "tanh";
    b.emit(std::move(tanh), b.shape(pooled));
  }
  return g;
}

}  // namespace tessel::models::hf
