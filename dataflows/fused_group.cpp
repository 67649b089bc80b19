#include "dataflows/fused_group.h"

#include <algorithm>

#include "util/error.h"

namespace tessel::dataflows {

std::string_view nameOf(FusionMode m) {
  switch (m) {
    case FusionMode::None:
      return "none";
    case FusionMode::Epilogue:
      return "epilogue";
    case FusionMode::Auto:
      return "auto";
  }
  return "?";
}

FusionMode fusionModeFrom(std::string_view name, const std::string& what) {
  for (FusionMode m : {FusionMode::None, FusionMode::Epilogue, FusionMode::Auto}) {
    if (name == nameOf(m)) return m;
  }
  throw ConfigError({"", 0, 0, what}, "'" + std::string(name) +
                                          "' is not a fusion mode: expected none, epilogue or auto");
}

std::string_view FusedGroup::schedule() const {
  if (chain.gateUp()) return "gate_up";
  if (chain.kind == models::ChainKind::Ffn) return partials_level >= 0 ? "partials" : "rows";
  if (chain.kind == models::ChainKind::ConvChain) return keep_halo ? "keep" : "recompute";
  return online_softmax ? "block" : "row";
}

}  // namespace tessel::dataflows

namespace tessel::dataflows {

AttentionDims attentionDims(const models::ChainGroup& c, const models::Graph& g) {
  const models::Op& score = g.op(c.score);
  const models::Op& context = g.op(c.context);
  AttentionDims d;
  const int64_t kv = score.attn.kvHeads();
  d.group = std::max<int64_t>(1, score.attn.heads / kv);
  d.units = score.gemm.batch;  // builders fold batch x KV heads into the batch
  d.queries = score.gemm.m / d.group;
  d.keys = score.gemm.n;
  d.head_dim = score.gemm.k;
  d.value_dim = context.gemm.n;
  d.causal = score.attn.causal;
  d.q = g.tensor(score.inputs.at(0)).dtype;
  d.k = g.tensor(score.inputs.at(1)).dtype;
  d.p = g.tensor(context.inputs.at(0)).dtype;
  d.v = g.tensor(context.inputs.at(1)).dtype;
  d.o = g.tensor(context.outputs.at(0)).dtype;
  return d;
}

FfnDims ffnDims(const models::ChainGroup& c, const models::Graph& g) {
  const models::Op& up = g.op(c.up.at(0));
  FfnDims d;
  d.rows = up.gemm.m;
  d.model = up.gemm.k;
  d.hidden = up.gemm.n;
  d.ups = static_cast<int64_t>(c.up.size());
  d.x = g.tensor(up.inputs.at(0)).dtype;
  d.w = g.tensor(up.inputs.at(1)).dtype;
  // The gate-up half has no down projection: its output is the hidden product itself.
  const models::Op& out = g.op(c.ffnOutput());
  d.out = c.gateUp() ? 0 : out.gemm.n;
  d.h = g.tensor(c.gateUp() ? out.outputs.at(0) : out.inputs.at(0)).dtype;
  d.y = g.tensor(out.outputs.at(0)).dtype;
  return d;
}

AttentionBlocks attentionBlocks(const AttentionDims& d, int64_t br, int64_t bc) {
  AttentionBlocks b;
  const int64_t key_blocks = (d.keys + bc - 1) / bc;
  b.row_blocks = (d.queries + br - 1) / br;
  for (int64_t i = 0; i < b.row_blocks; ++i) {
    const int64_t first = i * br;
    const int64_t rows = std::min(br, d.queries - first);
    int64_t kb = key_blocks;
    if (d.causal) {
      // The block's last query sees keys up to its position plus keys - queries.
      const int64_t last_key = first + rows - 1 + (d.keys - d.queries);
      kb = std::min(key_blocks, last_key / bc + 1);
    }
    const int64_t loaded = std::min(d.keys, kb * bc);
    b.blocks += kb;
    b.key_rows += loaded;
    b.score_elems += rows * loaded;
    b.rescale_rows += rows * (kb - 1);
  }
  return b;
}

std::vector<int64_t> blockSizes(int64_t extent, int64_t smallest) {
  std::vector<int64_t> sizes;
  for (int64_t s = smallest; s < extent; s *= 2) sizes.push_back(s);
  sizes.push_back(extent);
  return sizes;
}

}  // namespace tessel::dataflows
