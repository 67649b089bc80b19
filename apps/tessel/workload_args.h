// WorkloadArgs (CLI strings) -> models::WorkloadOptions, with located errors.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "apps/tessel/commands.h"
#include "models/workload.h"
#include "util/dtype.h"
#include "util/error.h"

namespace tessel::app {

// "NAME=VALUE" of --dim; VALUE a whole number >= 1.
std::pair<std::string, int64_t> parseDim(const std::string& text);
// "W,W,..." of --expert-load: non-negative weights, not all zero; "" = uniform (empty).
std::vector<double> parseExpertLoad(const std::string& text);

// models::build with the CLI's options; the graph's warnings are kept for runCli to print on
// stderr once the command ends (see takeWarnings).
models::Graph buildWorkload(const std::string& name, const models::WorkloadOptions& options);
inline models::Graph buildWorkload(const WorkloadArgs& a, DType fallback);
// The warnings the command's workloads gave, each once, in order; clears them.
std::vector<std::string> takeWarnings();

inline models::WorkloadOptions toWorkloadOptions(const WorkloadArgs& a, DType fallback) {
  models::WorkloadOptions o;
  o.seq = a.seq;
  o.batch = a.batch;
  o.phase = a.phase;
  o.image = a.image;
  o.all_logits = a.all_logits;
  o.layers = a.layers;
  o.given = a.given;
  o.strict = a.strict;
  for (const std::string& d : a.dims) o.dims.push_back(parseDim(d));
  o.expert_load = parseExpertLoad(a.expert_load);
  // Given empty (--sparsity ""), it is refused by the parser, not read as dense.
  if (!a.sparsity.empty() || a.sparsity_given) o.sparsity = models::parseSparsitySpec(a.sparsity);
  o.dtype = fallback;
  if (!a.dtype.empty()) {
    const auto t = parseDType(a.dtype);
    if (!t) {
      throw ConfigError({"", 0, 0, "--dtype"}, dtypeError(a.dtype));
    }
    o.dtype = *t;
  }
  return o;
}

inline models::Graph buildWorkload(const WorkloadArgs& a, DType fallback) {
  return buildWorkload(a.name, toWorkloadOptions(a, fallback));
}

}  // namespace tessel::app
