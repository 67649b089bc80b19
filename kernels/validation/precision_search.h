// Mixed precision by sensitivity (REFERENCE.md, HAWQ family, with the practical proxy): the
// sensitivity of an op to a format is the end-to-end output error when only that op is lowered
// to it. Then one greedy pass per format, from the most precise candidate to the cheapest (the
// list is cheapest first): least sensitive ops first, each moved to the pass's format when the
// error of the whole plan stays within the tolerance. A candidate is a dtype or a weight-only
// pair (bf16 activations, int4 weights), either with its weights pruned (N:M or a density), so
// the search trades sparsity against precision per op. With one format this is the classic
// greedy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/validation/progress.h"
#include "kernels/validation/validate.h"

namespace tessel::kernels {

enum class SearchMetric : uint8_t {
  RelL2,  // relative L2 error of the model output
  Kl,     // mean KL(P_fp32 || P) of the output distribution (logits only)
};

struct SearchOptions {
  // The lower formats, cheapest first (the user's order); a candidate's `weights` applies to
  // ops with a weight operand (matmuls, convolutions); on others it is its plain dtype.
  std::vector<models::OpPrecision> to{models::OpPrecision{DType::Int8, {}, {}, {}}};
  DType from = DType::FP32;  // what ops not lowered compute in
  SearchMetric metric = SearchMetric::RelL2;
  double tolerance = 0.01;
  ExecutorOptions exec;
  Progress progress;  // "probes": done, at most 2 per candidate op
};

constexpr double kSame = -1.0;

struct OpSensitivity {
  std::string op;
  models::OpKind kind = models::OpKind::MatMul;
  // Output error with only this op lowered, per candidate of `to`; kSame where the candidate is
  // `from` on this op (a weight-only pair on an op without weights).
  std::vector<double> errors;
  int chosen = -1;     // the candidate in the final plan; -1 = stays in `from`
  double error = 0.0;  // the least of `errors` (infinity when every candidate is kSame)
  bool lowered = false;        // chosen >= 0
};

struct SearchResult {
  models::PrecisionPlan plan;      // default `from`; the lowered ops in their candidate
  double error = 0.0;              // output error of the plan (0 when nothing is lowered)
  std::vector<OpSensitivity> ops;  // the candidates, in graph order
  int probes = 0;                  // executor runs made
};

// "bf16", "fp8_e4m3", "mxfp4" or "bf16/int4_g128_fp16" (activations / weights), optionally
// with the weights pruned: "bf16+2:4", "fp8_e4m3/int4+0.5" (util/sparsity.h; matmuls and
// convolutions only, magnitude per output channel as `--sparsity weights=...` prunes).
std::string candidateName(const models::OpPrecision& p);
// Parses candidateName's form; nullopt on an unknown dtype or a bad sparsity (`why` says which).
std::optional<models::OpPrecision> parseCandidate(const std::string& text);
std::optional<models::OpPrecision> parseCandidate(const std::string& text, std::string& why);

// Candidates are the ops whose dtype decides their arithmetic: GEMMs and nonlinear ops (softmax,
// layer norm, GELU, RMSNorm, SiLU, sigmoid, hard swish); glue ops (embedding, add, relu, pooling,
// batch norm) stay FP32. Each probe runs only the graph suffix from its first lowered op, fed with
// the reference's activations. Throws ConfigError for the KL metric on a model without logits, or a
// non-positive tolerance.
SearchResult searchPrecision(const ReferenceRun& ref, WeightStore& weights,
                             const SearchOptions& options);

// The output error (options.metric) of a whole plan against the reference.
double planError(const ReferenceRun& ref, WeightStore& weights, const SearchOptions& options,
                 const models::PrecisionPlan& plan);

std::string nameOf(SearchMetric m);  // "rel_l2" | "kl"

// The plan as YAML that models::parsePrecisionPlan reads back, with the tolerance, metric and
// error reached, and each candidate's sensitivity as a comment.
std::string planYaml(const SearchResult& result, const SearchOptions& options);

}  // namespace tessel::kernels
