// Numeric element types shared by the architecture, the graph and the kernels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel {

enum class DType : uint8_t { Int8, Int16, Int32, FP16, BF16, FP32 };

constexpr int bytesOf(DType t) {
  switch (t) {
    case DType::Int8:
      return 1;
    case DType::Int16:
    case DType::FP16:
    case DType::BF16:
      return 2;
    case DType::Int32:
    case DType::FP32:
      return 4;
  }
  return 4;
}

constexpr bool isInteger(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32;
}

// "int8", "fp16", ... (lower case, as written in YAML and JSON).
std::string_view nameOf(DType t);
// Parses the names nameOf produces (plus "float32"/"float16"/"bfloat16"); nullopt otherwise.
std::optional<DType> parseDType(std::string_view s);

}  // namespace tessel
