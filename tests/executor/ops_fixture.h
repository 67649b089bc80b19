// Shared setup of the tests of today's op kinds: one-op graphs built with models' Builder, and
// the FP32 executor checked against the double-precision reference on every tensor it writes.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "kernels/executor/executor.h"
#include "models/builder.h"

namespace tessel::kernels::testing {

using models::detail::Builder;

// Appends an op of `kind` reading `inputs`, with `set` filling its attributes; returns its output.
int emitOp(Builder& b, const std::string& name, models::OpKind kind, std::vector<int> inputs,
           std::vector<int64_t> out_shape, const std::function<void(models::Op&)>& set = {});

// FP32 executor vs the double reference: for every tensor the executor writes, rel L2 <= tol and
// max |error| <= tol * max |reference| (-inf entries must be -inf in both). Returns the worst rel
// L2.
// `max_tol` (default: tol) bounds max |error| / max |reference| separately for deep networks.
double expectMatchesDouble(const models::Graph& g, double tol, bool fuse = false,
                           double max_tol = 0.0);

// The values the FP32 executor writes for tensor `name` (unfused run).
std::vector<float> runValues(const models::Graph& g, const std::string& name);

// A graph's synthetic inputs and weights (seed 1), shared by the executor and the reference.
WeightStore& opsStore();

}  // namespace tessel::kernels::testing
