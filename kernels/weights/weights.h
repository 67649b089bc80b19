// Deterministic synthetic weights and inputs for the builders' graphs. Every value is a pure
// function of (seed, tensor name, recipe, element index), so a tensor gets the same values in
// every precision variant of a graph (applyPrecision keeps tensor names) and in every prefix.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kernels/numeric/tensor.h"
#include "models/graph.h"

namespace tessel::kernels {

// How a tensor's values are drawn: equal names and recipes give equal values.
struct Recipe {
  enum class Kind : uint8_t { Normal, UniformIds, Positions };
  Kind kind = Kind::Normal;
  double mean = 0.0, stddev = 1.0;  // Normal
  int64_t rows = 0;                 // UniformIds: ids in [0, rows)
  int64_t offset = 0;               // Positions: offset + s for token s of each sequence
  std::string str() const;          // e.g. "normal(0,0.0360844)", "ids[0,50257)", "pos+8"
};

class SyntheticData {
 public:
  explicit SyntheticData(uint64_t seed = 1) : seed_(seed) {}
  uint64_t seed() const { return seed_; }

  // The recipe of an Input or Weight tensor of g, from its role and the op that first reads it:
  // MatMul weights N(0, 1/fan_in), conv weights N(0, 2/fan_in) (He), embedding tables
  // N(0, 1/D) (the tied LM head's fan-in), biases N(0, 0.02^2), LayerNorm gamma 1 + N(0, 0.1^2)
  // and beta N(0, 0.05^2), BatchNorm scale 1 + N(0, 0.1^2), halved (mean and spread) when it
  // feeds a residual add, and shift N(0, 0.05^2); token ids uniform in the table, positions
  // from the KV-cache length on; images, KV caches and other inputs N(0, 1). Throws Error for
  // activations.
  Recipe recipe(const models::Graph& g, int tensor_id) const;
  // FP32 values (Int32 for ids and positions) drawn by recipe().
  Tensor generate(const models::Graph& g, int tensor_id) const;

 private:
  uint64_t seed_;
};

// A 64-bit key per (seed, tensor name).
uint64_t tensorKey(uint64_t seed, std::string_view name);
// Element i depends only on (key, i): counter-based, no generator state.
void fillNormal(uint64_t key, double mean, double stddev, float* out, int64_t n);
void fillUniformInt(uint64_t key, int32_t lo, int32_t hi_exclusive, int32_t* out, int64_t n);

}  // namespace tessel::kernels
