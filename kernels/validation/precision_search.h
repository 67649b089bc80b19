// Mixed precision by sensitivity (REFERENCE.md, HAWQ family, with the practical proxy): the
// sensitivity of an op is the end-to-end output error when only that op is lowered; ops are then
// lowered greedily, least sensitive first, keeping each one only if the error of everything
// lowered so far stays within the tolerance.
#pragma once

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
  DType to = DType::Int8;  // the lower dtype; everything else stays FP32
  SearchMetric metric = SearchMetric::RelL2;
  double tolerance = 0.01;
  ExecutorOptions exec;
  Progress progress;  // "probes": done, at most 2 per candidate op
};

struct OpSensitivity {
  std::string op;
  models::OpKind kind = models::OpKind::MatMul;
  double error = 0.0;    // output error with only this op lowered
  bool lowered = false;  // in the final plan
};

struct SearchResult {
  models::PrecisionPlan plan;      // default fp32; the lowered ops in `to`
  double error = 0.0;              // output error of the plan (0 when nothing is lowered)
  std::vector<OpSensitivity> ops;  // the candidates, in graph order
  int probes = 0;                  // executor runs made
};

// Candidates are the ops whose dtype decides their arithmetic: GEMMs and nonlinear ops (softmax,
// layer norm, GELU, RMSNorm, SiLU, sigmoid, hard swish); glue ops (embedding, add, relu, pooling,
// batch norm) stay FP32. Each probe runs only the graph suffix from its first lowered op, fed with
// the reference's activations. Throws ConfigError for the KL metric on a model without logits, or a
// non-positive tolerance.
SearchResult searchPrecision(const ReferenceRun& ref, WeightStore& weights,
                             const SearchOptions& options);

std::string nameOf(SearchMetric m);  // "rel_l2" | "kl"

// The plan as YAML that models::parsePrecisionPlan reads back, with the tolerance, metric and
// error reached, and each candidate's sensitivity as a comment.
std::string planYaml(const SearchResult& result, const SearchOptions& options);

}  // namespace tessel::kernels
