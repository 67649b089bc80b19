#include "serve/deploy.h"

#include <algorithm>

#include "util/error.h"

namespace tessel::serve {

using models::Graph;
using models::Op;
using models::OpKind;
using models::Tensor;
using models::TensorRole;

namespace {

ConfigError optionError(const std::string& option, const std::string& message) {
  return ConfigError({"", 0, 0, option}, message);
}

template <typename E>
E parseChoice(const std::string& s, const std::string& option,
              const std::vector<std::pair<std::string, E>>& choices) {
  std::string known;
  for (const auto& [name, value] : choices) {
    if (s == name) return value;
    known += (known.empty() ? "" : ", ") + name;
  }
  throw optionError(option, option + " '" + s + "' is not one of " + known);
}

// The request inputs: Input tensors read by the ops up to and including the first GEMM-like op.
std::vector<int> requestInputs(const Graph& g) {
  std::vector<int> inputs;
  for (const Op& op : g.ops()) {
    for (int t : op.inputs) {
      if (g.tensor(t).role == TensorRole::Input &&
          std::find(inputs.begin(), inputs.end(), t) == inputs.end())
        inputs.push_back(t);
    }
    if (op.isGemmLike()) break;
  }
  return inputs;
}

std::vector<int> graphOutputs(const Graph& g) {
  std::vector<int> outputs;
  for (const Op& op : g.ops()) {
    for (int t : op.outputs) {
      if (g.consumersOf(t).empty()) outputs.push_back(t);
    }
  }
  return outputs;
}

int64_t roundUp(int64_t x, int64_t to) { return to <= 1 ? x : (x + to - 1) / to * to; }

bool lowersOnDevice(const arch::Accelerator& acc, int64_t innermost) {
  const int64_t a = acc.layout.device_lowering_align;
  return a > 0 && innermost % a == 0;
}

// Appends ops to a graph, each with one fresh output tensor.
struct Appender {
  Graph& g;
  int emit(const std::string& name, OpKind kind, int in, std::vector<int64_t> shape, DType dtype,
           int out = -1) {
    Op op;
    op.name = name;
    op.kind = kind;
    op.inputs = {in};
    if (out < 0) out = g.addTensor(name, std::move(shape), dtype, TensorRole::Activation);
    g.tensor(out).role = TensorRole::Activation;  // a model input the lowering now writes
    op.outputs = {out};
    return g.op(g.addOp(op)).outputs[0];
  }
};

}  // namespace

InputDType parseInputDType(const std::string& s) {
  return parseChoice<InputDType>(
      s, "--input-dtype",
      {{"float32", InputDType::Float32}, {"uint8", InputDType::UInt8}, {"int8", InputDType::Int8}});
}
OutputDType parseOutputDType(const std::string& s) {
  return parseChoice<OutputDType>(s, "--output-dtype",
                                  {{"float32", OutputDType::Float32}, {"int8", OutputDType::Int8}});
}
InputLayout parseInputLayout(const std::string& s) {
  return parseChoice<InputLayout>(s, "--layout",
                                  {{"nchw", InputLayout::Nchw}, {"nhwc", InputLayout::Nhwc}});
}
std::string nameOf(InputDType t) {
  return t == InputDType::Float32 ? "float32" : t == InputDType::UInt8 ? "uint8" : "int8";
}
std::string nameOf(OutputDType t) { return t == OutputDType::Float32 ? "float32" : "int8"; }
std::string nameOf(InputLayout l) { return l == InputLayout::Nchw ? "nchw" : "nhwc"; }

namespace {

// Refuses an option that applies to none of the graph's request inputs or outputs.
void checkApplies(const Graph& graph, const std::vector<int>& inputs, const std::vector<int>& data,
                  const std::vector<int>& outputs, const DeployOptions& o, bool any_image) {
  for (int t : data) {
    const DType d = graph.tensor(t).dtype;
    if (d != DType::Int8 && o.input_dtype != InputDType::Float32) {
      throw optionError("--input-dtype", "--input-dtype " + nameOf(o.input_dtype) +
                                             " needs an int8 model input; '" + graph.name +
                                             "' takes " + std::string(tessel::nameOf(d)));
    }
  }
  for (int t : outputs) {
    const DType d = graph.tensor(t).dtype;
    if (d != DType::Int8 && o.output_dtype == OutputDType::Int8) {
      throw optionError("--output-dtype", "--output-dtype int8 needs an int8 model output; '" +
                                              graph.name + "' writes " +
                                              std::string(tessel::nameOf(d)));
    }
  }
  if (o.input_dtype_given && data.empty()) {
    throw optionError("--input-dtype",
                      "--input-dtype applies to a request input in int8; '" + graph.name +
                          "' takes " +
                          std::string(inputs.empty() ? "no input" : "integer indices") +
                          " (token ids need no quantize)");
  }
  if (o.layout_given && !any_image) {
    throw optionError("--layout",
                      "--layout applies to a 4-d image input; '" + graph.name + "' has none");
  }
}

// The request's ops into model input t: quantize on the host, then the lowering (transpose to
// the padded NHWC layout, or a pad) where the layout rule puts it. The last op writes t itself.
void lowerInput(Graph& out, const Tensor& native, const arch::Accelerator& acc, int64_t align,
                const DeployOptions& o) {
  Appender app{out};
  const int t = native.id;
  const bool nchw = native.shape.size() == 4 && o.layout == InputLayout::Nchw;
  std::vector<int64_t> given = native.shape;
  if (nchw) given = {native.shape[0], native.shape[3], native.shape[1], native.shape[2]};
  const bool device = lowersOnDevice(acc, given.back());
  const bool needs_pad = native.shape.back() % align != 0;
  // float32 into a narrower model dtype (int8; a cast to fp16/bf16); uint8 into int8.
  const bool quantize = o.input_dtype != InputDType::Int8 && native.dtype != DType::FP32;
  if (!nchw && !needs_pad && !quantize) return;  // int8 NHWC, aligned: the model's input
  const DType user_dtype = o.input_dtype == InputDType::Float32 ? DType::FP32 : native.dtype;
  int x = out.addTensor(native.name + ".request", given, user_dtype, TensorRole::Input);
  if (quantize) {
    const bool last = !nchw && !needs_pad;
    x = app.emit(native.name + ".quantize", OpKind::Quantize, x, given, native.dtype,
                 last ? t : -1);
    Op& q = out.op(out.producerOf(x));
    q.from_uint8 = o.input_dtype == InputDType::UInt8;
    q.host_side = true;
  }
  if (nchw) {
    // One pass writes the accelerator's layout: NHWC with the channels padded.
    std::vector<int64_t> nhwc = native.shape;
    nhwc.back() = roundUp(nhwc.back(), align);
    const int id = app.emit(native.name + ".to_nhwc", OpKind::Transpose, x, nhwc, native.dtype, t);
    Op& op = out.op(out.producerOf(id));
    op.layout.perm = {0, 2, 3, 1};
    op.layout.on_accelerator = device;
  } else if (needs_pad) {
    const int id = app.emit(native.name + ".pad", OpKind::Pad, x, {}, native.dtype, t);
    out.op(out.producerOf(id)).layout.on_accelerator = device;
  }
}

// The response's ops after model output t (written padded): slice, transpose back for an NCHW
// request, dequantize on the host.
void unlowerOutput(Graph& out, const Tensor& produced, const arch::Accelerator& acc, int64_t align,
                   const DeployOptions& o, bool any_image) {
  Appender app{out};
  const std::vector<int64_t>& shape = produced.shape;
  int x = produced.id;
  if (shape.back() % align != 0) {
    const int id = app.emit(produced.name + ".slice", OpKind::Slice, x, shape, produced.dtype);
    out.op(out.producerOf(id)).layout.on_accelerator = lowersOnDevice(acc, shape.back());
    x = id;
  }
  if (shape.size() == 4 && any_image && o.layout == InputLayout::Nchw) {
    const std::vector<int64_t> nchw = {shape[0], shape[3], shape[1], shape[2]};
    const int id = app.emit(produced.name + ".to_nchw", OpKind::Transpose, x, nchw, produced.dtype);
    Op& op = out.op(out.producerOf(id));
    op.layout.perm = {0, 3, 1, 2};
    op.layout.on_accelerator = lowersOnDevice(acc, shape.back());
    x = id;
  }
  if (o.output_dtype == OutputDType::Float32) {
    const int id = app.emit(produced.name + ".dequantize", OpKind::Dequantize, x,
                            out.tensor(x).shape, DType::FP32);
    out.op(out.producerOf(id)).host_side = true;
  }
}

}  // namespace

Graph withDeploymentOps(const Graph& graph, const arch::Accelerator& acc, const DeployOptions& o) {
  const std::vector<int> inputs = requestInputs(graph);
  const std::vector<int> all_outputs = graphOutputs(graph);
  std::vector<int> outputs;  // integer or half outputs the caller reads as float32 or int8
  for (int t : all_outputs) {
    if (graph.tensor(t).dtype != DType::FP32 && !graph.tensor(t).shape.empty())
      outputs.push_back(t);
  }
  const int64_t align = std::max<int64_t>(1, acc.layout.channel_align);
  // Data inputs: all but indices (int32 token ids) and scalars.
  std::vector<int> data;
  for (int t : inputs) {
    if (graph.tensor(t).dtype != DType::Int32 && !graph.tensor(t).shape.empty()) data.push_back(t);
  }
  const bool any_image = std::any_of(data.begin(), data.end(),
                                     [&](int t) { return graph.tensor(t).shape.size() == 4; });
  checkApplies(graph, inputs, data, all_outputs, o, any_image);

  // The same tensors (ids kept), those the accelerator reads or writes padded to its alignment;
  // then the request's ops, the model's, the response's.
  Graph out;
  out.name = graph.name;
  out.warnings = graph.warnings;
  out.weight_values = graph.weight_values;
  out.folded_parameters = graph.folded_parameters;
  for (const Tensor& t : graph.tensors()) {
    const bool padded = std::find(data.begin(), data.end(), t.id) != data.end() ||
                        std::find(outputs.begin(), outputs.end(), t.id) != outputs.end();
    std::vector<int64_t> shape = t.shape;
    if (padded) shape.back() = roundUp(shape.back(), align);
    out.tensor(out.addTensor(t.name, shape, t.dtype, t.role)).parameter = t.parameter;
  }
  for (int t : data) lowerInput(out, graph.tensor(t), acc, align, o);
  for (const Op& op : graph.ops()) out.addOp(op);
  for (int t : outputs) unlowerOutput(out, graph.tensor(t), acc, align, o, any_image);
  return out;
}

std::vector<Stage> stagesOf(const std::vector<bool>& on_accelerator) {
  const auto first = std::find(on_accelerator.begin(), on_accelerator.end(), true);
  const auto last = std::find(on_accelerator.rbegin(), on_accelerator.rend(), true);
  std::vector<Stage> stages(on_accelerator.size(), Stage::Job);
  if (first == on_accelerator.end()) return stages;  // nothing on the accelerator: all one job
  const size_t begin = static_cast<size_t>(first - on_accelerator.begin());
  const size_t end = on_accelerator.size() - static_cast<size_t>(last - on_accelerator.rbegin());
  for (size_t i = 0; i < begin; ++i) stages[i] = Stage::Pre;
  for (size_t i = end; i < stages.size(); ++i) stages[i] = Stage::Post;
  return stages;
}

}  // namespace tessel::serve
