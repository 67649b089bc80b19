// One dtype per op. A precision plan names the dtype each op computes in; applyPrecision makes
// the graph obey it: tensors an op produces carry its dtype, weights take their consumer's, and
// a Quantize (to an integer or a narrower float) or Dequantize (to a wider float) op appears
// wherever a consumer needs its input in another dtype than the producer wrote. Both the timing
// engines and the functional executor read the resulting graph.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/graph.h"
#include "util/error.h"

namespace tessel::models {

// How a matmul whose weights are stored narrower than it computes gets them widened: in the
// array's datapath as they stream in (the weights move and sit in buffers at their stored
// width; the array's rate for the pair, `array.throughput` "bf16*int4"), or by a Dequantize op
// of its own that writes the weights out wide before the matmul reads them.
enum class Dequantize : uint8_t { Datapath, Op };

// What one op computes in: `dtype` for its activations and outputs, and optionally another
// dtype its weights are stored in (weight-only quantization: W4A16 = weights int4, dtype bf16).
// `weights` applies to the weight operand of matmuls and convolutions only.
struct OpPrecision {
  DType dtype = DType::Int8;
  std::optional<DType> weights;
  Dequantize dequantize = Dequantize::Datapath;
  // How sparse a matmul's or convolution's weights are (N:M or a density, docs/sparsity.md);
  // unset = as the workload says (--sparsity), `dense` (engaged, dense) = not sparse.
  std::optional<Sparsity> sparsity;
  bool operator==(const OpPrecision& o) const {
    return dtype == o.dtype && weights == o.weights && dequantize == o.dequantize &&
           sparsity == o.sparsity;
  }
  bool operator!=(const OpPrecision& o) const { return !(*this == o); }
};

struct PrecisionPlan {
  struct Entry {
    std::string op;  // op name in the graph
    DType dtype = DType::Int8;
    SourceLocation where;  // where the plan said so (for errors)
    std::optional<DType> weights;  // see OpPrecision
    Dequantize dequantize = Dequantize::Datapath;
    std::optional<Sparsity> sparsity;  // see OpPrecision
  };
  DType default_dtype = DType::Int8;
  std::optional<DType> default_weights;
  Dequantize default_dequantize = Dequantize::Datapath;
  std::optional<Sparsity> default_sparsity;
  SourceLocation default_where;  // where `default:` was given (empty when left out)
  std::vector<Entry> ops;        // overrides of the default, in file order

  DType dtypeOf(const std::string& op_name) const;
  OpPrecision precisionOf(const std::string& op_name) const;
  void set(const std::string& op_name, DType dtype);
  void set(const std::string& op_name, const OpPrecision& p);
};

// YAML or JSON: {default: int8, ops: {h0.attn.softmax: fp32, ...}}; any dtype may instead be a
// map {dtype: bf16, weights: int4, dequantize: datapath | op} (weight-only quantization).
// ConfigError (located) on malformed input or unknown dtypes.
PrecisionPlan parsePrecisionPlan(const std::string& text, const std::string& source_name);
PrecisionPlan loadPrecisionPlan(const std::string& path);
// The plan as YAML that parsePrecisionPlan reads back.
std::string toYaml(const PrecisionPlan& plan);

// The dtype each op reads each input in and writes each output in.
struct DTypeChoice {
  std::function<DType(const Op& op, size_t input)> input;
  std::function<DType(const Op& op, size_t output)> output;
  // The dtype a graph input or weight is stored in, given the dtype its first consumer reads
  // it in; unset = that dtype (the tensor arrives already converted).
  std::function<DType(const Tensor& t, DType first_read)> stored;
};

// The graph with every tensor in the dtype `choice` gives it (ops and names kept; the choice is
// asked about the original graph's ops), and a Quantize (to an integer or a narrower float) or
// Dequantize (to a wider float) op, named "<tensor>.to_<dtype>", wherever a consumer reads a
// tensor in another dtype than its producer wrote (one per tensor and dtype, shared by its
// consumers). Inputs and weights are stored as choice.stored says.
Graph retype(const Graph& graph, const DTypeChoice& choice);

// ConfigError (at the plan entry, with a suggestion) when the plan names an op the graph lacks.
Graph applyPrecision(const Graph& graph, const PrecisionPlan& plan);

}  // namespace tessel::models
