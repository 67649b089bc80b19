// Builds decomposed patterns the way an ONNX import spells them, with a WeightSource that
// knows the constants' values, for the pattern-recognition tests.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/builder.h"
#include "models/graph.h"

namespace tessel::models::testing {

// Values of named constants, as an importer's WeightSource would return them.
class ConstValues : public WeightSource {
 public:
  std::map<std::string, std::vector<float>> values_by_name;
  std::optional<std::vector<float>> values(const std::string& name) const override {
    auto it = values_by_name.find(name);
    if (it == values_by_name.end()) return std::nullopt;
    return it->second;
  }
};

// A graph under construction: x is an Input [2, 8, 16] unless a test makes its own.
struct Decomposed {
  Graph g;
  detail::Builder b{g, DType::FP32};
  std::shared_ptr<ConstValues> consts = std::make_shared<ConstValues>();

  Decomposed() { g.weight_values = consts; }

  int input(const std::string& name, std::vector<int64_t> shape = {2, 8, 16}) {
    return b.input(name, std::move(shape), DType::FP32);
  }
  // A scalar constant (shape [], or [1] with one_d) whose value the WeightSource knows.
  int scalar(const std::string& name, float value, bool one_d = false);
  // A constant tensor with known values (masks).
  int constant(const std::string& name, std::vector<int64_t> shape, std::vector<float> values);
  // Elementwise fn / Mul / Add / Sigmoid over inputs; the output takes the highest-rank
  // input's shape (numpy broadcasting of the tests' operands).
  int elt(const std::string& name, const std::string& fn, std::vector<int> inputs);
  int mul(const std::string& name, int a, int b) { return op(name, OpKind::Mul, {a, b}); }
  int add(const std::string& name, int a, int b) { return op(name, OpKind::Add, {a, b}); }
  int op(const std::string& name, OpKind kind, std::vector<int> inputs);
  // Reduce mean over `axis` keeping dims.
  int mean(const std::string& name, int x, int axis);
  // A plain numpy-style batched matmul (heads == 0) of a [.., M, K] and b [.., K, N].
  int matmul(const std::string& name, int a, int b);
};

// Which spelling of a norm's division to build.
enum class Divide { Div, Reciprocal, DivOne };

struct LayerNormSpec {
  bool square_by_mul = false;  // Mul(d, d) instead of Pow(d, 2)
  Divide divide = Divide::Div;
  bool swap = false;      // constants and weights as the first operand of Add/Mul
  float exponent = 2.0f;  // Pow's exponent
  int variance_axis = 2;  // the second ReduceMean's axis
  float eps = 1e-5f;
};
// ReduceMean -> Sub -> Pow -> ReduceMean -> Add eps -> Sqrt -> Div -> Mul gamma -> Add beta, ops
// named "<p>.mean", "<p>.sub", ..., "<p>.beta"; returns the output tensor.
int layerNorm(Decomposed& d, const std::string& p, int x, const LayerNormSpec& spec = {});

struct RmsNormSpec {
  bool square_by_mul = false;
  Divide divide = Divide::DivOne;  // Llama's x * rsqrt(.) exports as Div(1, Sqrt) then Mul
  bool swap = true;                // Llama writes weight * x
  float eps = 1e-6f;
};
int rmsNorm(Decomposed& d, const std::string& p, int x, const RmsNormSpec& spec = {});

// How the outer 0.5 * x * bracket of a GELU associates.
enum class Assoc { XBracketThenHalf, XTimesHalfBracket, HalfXTimesBracket };
int geluErf(Decomposed& d, const std::string& p, int x, Assoc assoc, bool mul_by_inverse,
            float half = 0.5f);
// How 0.044715 * x^3 is spelled: Pow(x, 3) (Hugging Face's GPT-2), c * (x * (x * x)) (torch's
// exporter) or ((c * x) * x) * x.
enum class Cube { Pow, XTimesSquare, KappaFirst };
int geluTanh(Decomposed& d, const std::string& p, int x, Cube cube, Assoc assoc);

}  // namespace tessel::models::testing
