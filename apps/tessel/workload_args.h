// WorkloadArgs (CLI strings) -> models::WorkloadOptions, with located errors.
#pragma once

#include "apps/tessel/commands.h"
#include "models/workload.h"
#include "util/dtype.h"
#include "util/error.h"

namespace tessel::app {

inline models::WorkloadOptions toWorkloadOptions(const WorkloadArgs& a, DType fallback) {
  models::WorkloadOptions o;
  o.seq = a.seq;
  o.batch = a.batch;
  o.phase = a.phase;
  o.image = a.image;
  o.all_logits = a.all_logits;
  o.layers = a.layers;
  o.given = a.given;
  o.dtype = fallback;
  if (!a.dtype.empty()) {
    const auto t = parseDType(a.dtype);
    if (!t) {
      throw ConfigError(
          {"", 0, 0, "--dtype"},
          "unknown dtype '" + a.dtype + "' (accepted: int8, int16, int32, fp16, bf16, fp32)");
    }
    o.dtype = *t;
  }
  return o;
}

}  // namespace tessel::app
