// `tessel validate --precision`: one format or a comma-separated list of them, each a dtype
// (bf16, fp8_e4m3, mxfp4, int4_g128_fp16 ...), a precision-plan file (a value ending in .yaml,
// .yml or .json) or `mixed` (the --plan file).
#pragma once

#include <string>
#include <vector>

#include "models/precision.h"

namespace tessel::app {

struct ValidateFormat {
  std::string label;      // as given on the command line
  std::string precision;  // the dtype's name, or "mixed" for a plan
  std::string plan;       // the plan file ("" for a dtype)
  models::PrecisionPlan lowering;
};

// ConfigError at --precision (or --plan) for an empty item, an unknown dtype (with the accepted
// names), a dtype or plan the executor cannot run, `mixed` without --plan, or --plan without
// `mixed`.
std::vector<ValidateFormat> validateFormats(const std::string& precision, const std::string& plan);

}  // namespace tessel::app
