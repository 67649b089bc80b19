// Single-layer workloads: "gemm:M=..,K=..,N=..[,B=..]" and
// "conv:H=..,W=..,C=..,K=..,R=..,S=..[,stride=..][,pad=..][,N=..]". Keys are case-insensitive.
#include <string>
#include <utility>

#include "models/builder.h"
#include "models/builders.h"
#include "models/params.h"

namespace tessel::models::detail {
namespace {

const char kGemmUsage[] = "gemm:M=..,K=..,N=..[,B=..]";
const char kConvUsage[] =
    "conv:H=..,W=..,C=..,K=..,R=..,S=..[,stride=..][,pad=..][,dilation=..][,groups=..][,N=..]";

}  // namespace

Graph buildGemm(const std::string& params, const WorkloadOptions& o) {
  const std::string text = "gemm:" + params;
  // B defaults to --batch so batch sweeps apply to single layers too.
  Params p = parseParams(
      text, params, kGemmUsage,
      {{"M", true, 1, 0}, {"K", true, 1, 0}, {"N", true, 1, 0}, {"B", false, 1, o.batch}});
  const int64_t m = p.at("M"), k = p.at("K"), n = p.at("N"), batch = p.at("B");
  checkedProduct(text, {batch, m, n, k});
  Graph g;
  g.name = "gemm:M=" + std::to_string(m) + ",K=" + std::to_string(k) + ",N=" + std::to_string(n) +
           ",B=" + std::to_string(batch);
  Builder b{g, o.dtype};
  int x = b.input("input", {batch, m, k}, o.dtype);
  Op op = makeOp("gemm", OpKind::MatMul, {x, b.weight("gemm.weight", {k, n})});
  op.gemm = {1, batch * m, n, k};  // batch folds into rows: one weight serves all
  op.macs = op.gemm.macs();
  b.emit(std::move(op), {batch, m, n});
  return g;
}

Graph buildConv(const std::string& params, const WorkloadOptions& o) {
  const std::string text = "conv:" + params;
  Params p = parseParams(text, params, kConvUsage,
                         {{"H", true, 1, 0},
                          {"W", true, 1, 0},
                          {"C", true, 1, 0},
                          {"K", true, 1, 0},
                          {"R", true, 1, 0},
                          {"S", true, 1, 0},
                          {"stride", false, 1, 1},
                          {"pad", false, 0, 0},
                          {"dilation", false, 1, 1},
                          {"groups", false, 1, 1},
                          {"N", false, 1, o.batch}});
  ConvParams c{p.at("K"), p.at("R"), p.at("S"), p.at("stride"), p.at("pad"), p.at("groups"),
               p.at("dilation")};
  const int64_t h = p.at("H"), w = p.at("W"), batch = p.at("N");
  if (p.at("C") % c.groups != 0 || c.k % c.groups != 0) {
    configError("workload", "'" + text + "': groups=" + std::to_string(c.groups) +
                                " must divide both C=" + std::to_string(p.at("C")) +
                                " and K=" + std::to_string(c.k) +
                                " (depthwise: groups = C = K)");
  }
  const int64_t ph = convOut(h, c.r, c.stride, c.pad, c.dilation);
  const int64_t qw = convOut(w, c.s, c.stride, c.pad, c.dilation);
  if (ph < 1 || qw < 1) {
    configError("workload", "'" + text + "': the " + std::to_string(c.r) + "x" +
                                std::to_string(c.s) + " kernel" +
                                (c.dilation > 1 ? " at dilation " + std::to_string(c.dilation) : "") +
                                " does not fit the " + std::to_string(h) + "x" +
                                std::to_string(w) + " input with pad " + std::to_string(c.pad));
  }
  checkedProduct(text, {batch, ph, qw, c.k, p.at("C") / c.groups, c.r, c.s});
  Graph g;
  g.name = "conv:N=" + std::to_string(batch) + ",H=" + std::to_string(h) +
           ",W=" + std::to_string(w) + ",C=" + std::to_string(p.at("C")) +
           ",K=" + std::to_string(c.k) + ",R=" + std::to_string(c.r) + ",S=" + std::to_string(c.s) +
           ",stride=" + std::to_string(c.stride) + ",pad=" + std::to_string(c.pad) +
           (c.dilation > 1 ? ",dilation=" + std::to_string(c.dilation) : "") +
           (c.groups > 1 ? ",groups=" + std::to_string(c.groups) : "");
  Builder b{g, o.dtype};
  int x = b.input("input", {batch, h, w, p.at("C")}, o.dtype);
  conv2d(b, "conv", x, c);
  return g;
}

}  // namespace tessel::models::detail
