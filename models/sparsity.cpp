#include "models/sparsity.h"

#include <sstream>

#include <algorithm>
#include <utility>

#include "models/weight_layout.h"
#include "util/error.h"

namespace tessel::models {

namespace {

// Every group of m consecutive values along each channel's reduction holds at most n non-zeros.
bool fitsPattern(const std::vector<float>& v, const WeightLayout& l, int n, int m) {
  if (l.reduction % m != 0) return false;  // a partial group would say nothing of the pattern
  for (int64_t b = 0; b < l.batch; ++b) {
    for (int64_t c = 0; c < l.channels; ++c) {
      for (int64_t g0 = 0; g0 < l.reduction; g0 += m) {
        int kept = 0;
        for (int64_t r = g0; r < std::min<int64_t>(g0 + m, l.reduction); ++r) {
          kept += v[static_cast<size_t>(l.index(b, r, c))] != 0.0f;
        }
        if (kept > n) return false;
      }
    }
  }
  return true;
}

void measureWeights(Graph& g) {
  if (!g.weight_values) {
    throw ConfigError({"", 0, 0, "--sparsity"},
                      "weights=measured reads the weights' own zeros, and this workload has no "
                      "weight values (an ONNX file with its initializers has)");
  }
  for (const Op& op : g.ops()) {
    if (!isWeightOperand(op, op.inputs.size() > 1 ? op.inputs[1] : -1)) continue;
    Tensor& w = g.tensor(op.inputs[1]);
    const std::optional<WeightLayout> layout = weightLayout(g, w.id);
    const auto values = g.weight_values->values(w.name);
    if (!values || !layout) {
      g.warnings.push_back("--sparsity weights=measured: '" + w.name +
                           "' has no values in the file; it stays dense");
      continue;
    }
    w.sparsity = measureSparsity(*values, *layout);
    w.sparsity.measured = true;
  }
}

}  // namespace

Sparsity measureSparsity(const std::vector<float>& values, const WeightLayout& layout) {
  size_t zeros = 0;
  for (float x : values) zeros += x == 0.0f;
  if (zeros == 0 || values.empty()) return {};
  constexpr std::pair<int, int> kPatterns[] = {{1, 8}, {1, 4}, {2, 8}, {1, 2}, {2, 4}, {4, 8}};
  for (const auto& [n, m] : kPatterns) {
    if (fitsPattern(values, layout, n, m)) return Sparsity::nm(n, m);
  }
  Sparsity s = Sparsity::uniform(1.0 - static_cast<double>(zeros) / static_cast<double>(values.size()));
  // Each output channel's own density, kept when they differ: the PEs holding the denser
  // channels finish last when the array skips zeros.
  std::vector<double> channels(static_cast<size_t>(layout.channels), 0.0);
  const double per = static_cast<double>(layout.batch * layout.reduction);
  if (layout.channels > 1 && per > 0 &&
      static_cast<size_t>(layout.batch * layout.reduction * layout.channels) == values.size()) {
    for (int64_t b = 0; b < layout.batch; ++b) {
      for (int64_t r = 0; r < layout.reduction; ++r) {
        for (int64_t c = 0; c < layout.channels; ++c) {
          channels[size_t(c)] += values[static_cast<size_t>(layout.index(b, r, c))] != 0.0f;
        }
      }
    }
    for (double& c : channels) c /= per;
    const auto [lo, hi] = std::minmax_element(channels.begin(), channels.end());
    if (*hi > *lo) s.channels = std::make_shared<const std::vector<double>>(std::move(channels));
  }
  return s;
}

SparsitySpec parseSparsitySpec(const std::string& text, const std::string& what) {
  SparsitySpec spec;
  bool seen[2] = {false, false};
  const SourceLocation at{"", 0, 0, what};
  if (text.empty()) throw ConfigError(at, "expected weights=PATTERN and/or inputs=PATTERN");
  std::stringstream parts(text);
  std::string part;
  if (text.back() == ',') {
    throw ConfigError(at, "ends with a comma; expected weights=PATTERN and/or inputs=PATTERN");
  }
  while (std::getline(parts, part, ',')) {
    const auto eq = part.find('=');
    const std::string key = part.substr(0, eq);
    if (eq == std::string::npos || (key != "weights" && key != "inputs")) {
      throw ConfigError(at, "expected weights=PATTERN or inputs=PATTERN (PATTERN an N:M such as "
                            "2:4 or a density such as 0.5), got '" + part + "'");
    }
    const int i = key == "weights" ? 0 : 1;
    if (seen[i]) throw ConfigError(at, key + " is given twice");
    seen[i] = true;
    if (i == 0 && part.substr(eq + 1) == "measured") {
      spec.weights_measured = true;
      continue;
    }
    std::string why;
    Sparsity s;
    if (!parseSparsity(part.substr(eq + 1), s, why)) throw ConfigError(at, key + ": " + why);
    (i == 0 ? spec.weights : spec.inputs) = s;
  }
  return spec;
}

std::string toString(const SparsitySpec& s) {
  if (s.dense()) return "dense";
  std::string out;
  if (s.weights_measured) out = "weights=measured";
  if (!s.weights.dense()) out = "weights=" + toString(s.weights);
  if (!s.inputs.dense()) out += (out.empty() ? "" : ",") + std::string("inputs=") + toString(s.inputs);
  return out;
}

bool isWeightOperand(const Op& op, int tensor) {
  if (op.kind != OpKind::MatMul && op.kind != OpKind::Conv2d) return false;
  return op.inputs.size() > 1 && op.inputs[1] == tensor;
}

void applySparsity(Graph& g, const SparsitySpec& spec) {
  if (spec.weights_measured) measureWeights(g);
  // `inputs` is the density of the activations a matmul or convolution reads: a model's own
  // input (an image, token ids) stays dense. A workload with no such activation — one layer
  // (conv:, gemm:), or layers that each read an input of their own — stands for layers inside a
  // network: their inputs take the density.
  bool reads_activation = false;
  for (const Op& op : g.ops()) {
    if (op.kind != OpKind::MatMul && op.kind != OpKind::Conv2d) continue;
    reads_activation = reads_activation || g.tensor(op.inputs.at(0)).role == TensorRole::Activation;
  }
  const TensorRole data = reads_activation ? TensorRole::Activation : TensorRole::Input;
  for (const Op& op : g.ops()) {
    if (op.kind != OpKind::MatMul && op.kind != OpKind::Conv2d) continue;
    if (!spec.weights.dense() && isWeightOperand(op, op.inputs.at(1))) {
      Tensor& w = g.tensor(op.inputs[1]);
      if (w.role == TensorRole::Weight) w.sparsity = spec.weights;
    }
    if (!spec.inputs.dense()) {
      Tensor& x = g.tensor(op.inputs.at(0));
      if (x.role == data) x.sparsity = spec.inputs;
    }
  }
}

}  // namespace tessel::models
