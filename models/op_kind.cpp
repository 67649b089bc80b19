// Names and report classes of op kinds.
#include "models/graph.h"

namespace tessel::models {

std::string_view nameOf(OpKind k) {
  switch (k) {
    case OpKind::MatMul:
      return "MatMul";
    case OpKind::BatchMatMul:
      return "BatchMatMul";
    case OpKind::Conv2d:
      return "Conv2d";
    case OpKind::Softmax:
      return "Softmax";
    case OpKind::LayerNorm:
      return "LayerNorm";
    case OpKind::Gelu:
      return "Gelu";
    case OpKind::Relu:
      return "Relu";
    case OpKind::Add:
      return "Add";
    case OpKind::BatchNorm:
      return "BatchNorm";
    case OpKind::MaxPool:
      return "MaxPool";
    case OpKind::AvgPool:
      return "AvgPool";
    case OpKind::GlobalAvgPool:
      return "GlobalAvgPool";
    case OpKind::Embedding:
      return "Embedding";
    case OpKind::Quantize:
      return "Quantize";
    case OpKind::Dequantize:
      return "Dequantize";
    case OpKind::Transpose:
      return "Transpose";
    case OpKind::Pad:
      return "Pad";
    case OpKind::Slice:
      return "Slice";
    case OpKind::Mul:
      return "Mul";
    case OpKind::Elementwise:
      return "Elementwise";
    case OpKind::Sigmoid:
      return "Sigmoid";
    case OpKind::Silu:
      return "Silu";
    case OpKind::HardSwish:
      return "HardSwish";
    case OpKind::RmsNorm:
      return "RmsNorm";
    case OpKind::Rope:
      return "Rope";
    case OpKind::Gather:
      return "Gather";
    case OpKind::Reduce:
      return "Reduce";
    case OpKind::Concat:
      return "Concat";
    case OpKind::MoeRoute:
      return "MoeRoute";
  }
  return "?";
}

std::string_view nameOf(OpClass c) {
  switch (c) {
    case OpClass::MatMul:
      return "MatMul";
    case OpClass::Conv:
      return "Conv";
    case OpClass::Softmax:
      return "Softmax";
    case OpClass::LayerNorm:
      return "LayerNorm";
    case OpClass::GELU:
      return "GELU";
    case OpClass::ResidualAdd:
      return "ResidualAdd";
    case OpClass::QuantDequant:
      return "QuantDequant";
    case OpClass::Pool:
      return "Pool";
    case OpClass::Layout:
      return "Layout";
    case OpClass::Activation:
      return "Activation";
    case OpClass::Elementwise:
      return "Elementwise";
    case OpClass::RoPE:
      return "RoPE";
    case OpClass::Reduce:
      return "Reduce";
    case OpClass::Routing:
      return "Routing";
    case OpClass::Other:
      return "Other";
  }
  return "?";
}

OpClass classOf(OpKind k) {
  switch (k) {
    case OpKind::MatMul:
    case OpKind::BatchMatMul:
      return OpClass::MatMul;
    case OpKind::Conv2d:
      return OpClass::Conv;
    case OpKind::Softmax:
      return OpClass::Softmax;
    case OpKind::LayerNorm:
    case OpKind::RmsNorm:
      return OpClass::LayerNorm;
    case OpKind::Gelu:
      return OpClass::GELU;
    case OpKind::Add:
      return OpClass::ResidualAdd;
    case OpKind::Quantize:
    case OpKind::Dequantize:
      return OpClass::QuantDequant;
    case OpKind::MaxPool:
    case OpKind::AvgPool:
    case OpKind::GlobalAvgPool:
      return OpClass::Pool;
    case OpKind::Transpose:
    case OpKind::Pad:
    case OpKind::Slice:
    case OpKind::Concat:
    case OpKind::Gather:
      return OpClass::Layout;
    case OpKind::Sigmoid:
    case OpKind::Silu:
    case OpKind::HardSwish:
      return OpClass::Activation;
    case OpKind::Mul:
    case OpKind::Elementwise:
      return OpClass::Elementwise;
    case OpKind::Rope:
      return OpClass::RoPE;
    case OpKind::Reduce:
      return OpClass::Reduce;
    case OpKind::MoeRoute:
      return OpClass::Routing;
    case OpKind::Relu:
    case OpKind::BatchNorm:
    case OpKind::Embedding:
      return OpClass::Other;
  }
  return OpClass::Other;
}

}  // namespace tessel::models
