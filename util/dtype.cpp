#include "util/dtype.h"

namespace tessel {

std::string_view nameOf(DType t) {
  switch (t) {
    case DType::Int8:
      return "int8";
    case DType::Int16:
      return "int16";
    case DType::Int32:
      return "int32";
    case DType::FP16:
      return "fp16";
    case DType::BF16:
      return "bf16";
    case DType::FP32:
      return "fp32";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view s) {
  if (s == "int8") return DType::Int8;
  if (s == "int16") return DType::Int16;
  if (s == "int32") return DType::Int32;
  if (s == "fp16" || s == "float16") return DType::FP16;
  if (s == "bf16" || s == "bfloat16") return DType::BF16;
  if (s == "fp32" || s == "float32") return DType::FP32;
  return std::nullopt;
}

}  // namespace tessel
