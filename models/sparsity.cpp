#include "models/sparsity.h"

#include <sstream>

#include "util/error.h"

namespace tessel::models {

SparsitySpec parseSparsitySpec(const std::string& text, const std::string& what) {
  SparsitySpec spec;
  bool seen[2] = {false, false};
  const SourceLocation at{"", 0, 0, what};
  if (text.empty()) throw ConfigError(at, "expected weights=PATTERN and/or inputs=PATTERN");
  std::stringstream parts(text);
  std::string part;
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
  if (!s.weights.dense()) out = "weights=" + toString(s.weights);
  if (!s.inputs.dense()) out += (out.empty() ? "" : ",") + std::string("inputs=") + toString(s.inputs);
  return out;
}

bool isWeightOperand(const Op& op, int tensor) {
  if (op.kind != OpKind::MatMul && op.kind != OpKind::Conv2d) return false;
  return op.inputs.size() > 1 && op.inputs[1] == tensor;
}

void applySparsity(Graph& g, const SparsitySpec& spec) {
  for (const Op& op : g.ops()) {
    if (op.kind != OpKind::MatMul && op.kind != OpKind::Conv2d) continue;
    if (!spec.weights.dense() && isWeightOperand(op, op.inputs.at(1))) {
      Tensor& w = g.tensor(op.inputs[1]);
      if (w.role == TensorRole::Weight) w.sparsity = spec.weights;
    }
    if (!spec.inputs.dense()) {
      Tensor& x = g.tensor(op.inputs.at(0));
      if (x.role == TensorRole::Activation) x.sparsity = spec.inputs;
    }
  }
}

}  // namespace tessel::models
