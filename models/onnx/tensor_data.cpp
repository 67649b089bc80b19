#include "models/onnx/tensor_data.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/error.h"

namespace tessel::models::onnx {
namespace {

int sizeOf(ElemType t) {
  switch (t) {
    case ElemType::Int8:
    case ElemType::Uint8:
    case ElemType::Bool:
      return 1;
    case ElemType::Int16:
    case ElemType::Uint16:
    case ElemType::Float16:
    case ElemType::BFloat16:
      return 2;
    case ElemType::Float:
    case ElemType::Int32:
    case ElemType::Uint32:
      return 4;
    case ElemType::Double:
    case ElemType::Int64:
    case ElemType::Uint64:
      return 8;
    default:
      return 0;
  }
}

template <class T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));  // x86 and ONNX are both little-endian
  return v;
}

double element(ElemType t, const char* p) {
  switch (t) {
    case ElemType::Float:
      return load<float>(p);
    case ElemType::Double:
      return load<double>(p);
    case ElemType::Int8:
      return load<int8_t>(p);
    case ElemType::Uint8:
    case ElemType::Bool:
      return load<uint8_t>(p);
    case ElemType::Int16:
      return load<int16_t>(p);
    case ElemType::Uint16:
      return load<uint16_t>(p);
    case ElemType::Int32:
      return load<int32_t>(p);
    case ElemType::Uint32:
      return load<uint32_t>(p);
    case ElemType::Int64:
      return static_cast<double>(load<int64_t>(p));
    case ElemType::Uint64:
      return static_cast<double>(load<uint64_t>(p));
    case ElemType::Float16:
    case ElemType::BFloat16:
      return halfBits(t, load<uint16_t>(p));
    default:
      return 0;
  }
}

}  // namespace

double halfBits(ElemType type, uint16_t bits) {
  if (type == ElemType::BFloat16) {
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  const int sign = (bits >> 15) ? -1 : 1;
  const int exp = (bits >> 10) & 0x1f;
  const int mant = bits & 0x3ff;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant ? NAN : sign * INFINITY;
  return sign * std::ldexp(mant + 1024, exp - 25);
}

bool decodeRaw(ElemType type, const char* data, size_t size, int64_t n, std::vector<double>& out) {
  const int width = sizeOf(type);
  if (width == 0 || n < 0 || size / static_cast<size_t>(width) != static_cast<size_t>(n) ||
      size % static_cast<size_t>(width) != 0)
    return false;
  out.resize(static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i) out[i] = element(type, data + i * width);
  return true;
}

std::vector<float> readExternal(const std::string& model_path, const Initializer& init) {
  const auto dir = std::filesystem::path(model_path).parent_path();
  const auto file = dir / init.location;
  const std::string what =
      "ONNX initializer '" + init.name + "' (external data '" + init.location + "')";
  const int width = sizeOf(init.type);
  if (width == 0) throw Error(what + ": unsupported element type");
  if (init.location.empty() || init.offset < 0) throw Error(what + ": bad external data entry");
  int64_t n = 1;
  for (int64_t d : init.dims) n *= d;  // the importer checked these dims
  if (init.length >= 0 && init.length != n * width)
    throw Error(what + ": length " + std::to_string(init.length) + " does not match its shape");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(what + ": cannot open " + file.string());
  std::vector<char> bytes(static_cast<size_t>(n * width));
  in.seekg(init.offset);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw Error(what + ": the file ends before the tensor's data does");
  std::vector<double> v;
  decodeRaw(init.type, bytes.data(), bytes.size(), n, v);
  return std::vector<float>(v.begin(), v.end());
}

}  // namespace tessel::models::onnx
