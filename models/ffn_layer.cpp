// The single-layer FFN workload "ffn:S=..,D=..,F=..[,gated=0|1][,B=..]": x [B, S, D] as the
// graph input, then the decoder families' gated MLP (gate and up projections D -> F, SiLU, the
// gating product, the down projection F -> D; gated=1, the default) or GPT-2's MLP (fc D -> F
// with bias, GELU, proj F -> D; gated=0). What `--fusion` does to an FFN chain, alone.
#include <string>

#include "models/builder.h"
#include "models/builders.h"
#include "models/families/decoder_blocks.h"
#include "models/params.h"
#include "models/transformer.h"

namespace tessel::models::detail {
namespace {

const char kFfnUsage[] = "ffn:S=..,D=..,F=..[,gated=0|1][,B=..]";

}  // namespace

Graph buildFfnLayer(const std::string& params, const WorkloadOptions& o) {
  const std::string text = "ffn:" + params;
  Params p = parseParams(text, params, kFfnUsage,
                         {{"S", true, 1, 0},
                          {"D", true, 1, 0},
                          {"F", true, 1, 0},
                          {"gated", false, 0, 1},
                          {"B", false, 1, o.batch}});
  const int64_t s = p.at("S"), d = p.at("D"), f = p.at("F"), batch = p.at("B");
  if (p.at("gated") > 1) configError("workload", "'" + text + "': gated is 0 or 1");
  checkedProduct(text, {batch, s, d, f, 3});
  Graph g;
  g.name = "ffn:S=" + std::to_string(s) + ",D=" + std::to_string(d) + ",F=" + std::to_string(f) +
           ",gated=" + std::to_string(p.at("gated")) + ",B=" + std::to_string(batch);
  Builder b{g, o.dtype};
  const int x = b.input("x", {batch, s, d}, o.dtype);
  if (p.at("gated") == 1) {
    hf::DecoderSpec spec;
    spec.d = d;
    hf::gatedMlp(b, spec, "mlp", x, f);
  } else {
    feedForward(b, "mlp", x, f, true);
  }
  return g;
}

}  // namespace tessel::models::detail
