#include "models/onnx/tensor_data.h"

#include <cmath>
#include <cstring>
#include <fstream>

#include "util/error.h"
#include "util/paths.h"

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

// A protobuf wire-format reader over [pos, end) of a buffer.
struct Wire {
  const std::string& b;
  size_t pos, end;

  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && pos < end; shift += 7) {
      const auto c = static_cast<uint8_t>(b[pos++]);
      v |= static_cast<uint64_t>(c & 0x7f) << shift;
      if (!(c & 0x80)) return true;
    }
    return false;
  }
  // The next field: its number, and for length-delimited ones their [start, stop).
  bool next(uint64_t& field, size_t& start, size_t& stop) {
    uint64_t tag = 0, v = 0;
    if (!varint(tag)) return false;
    field = tag >> 3;
    start = stop = pos;
    switch (tag & 7) {
      case 0:
        return varint(v);
      case 1:
        return end - pos >= 8 && (pos += 8, true);
      case 5:
        return end - pos >= 4 && (pos += 4, true);
      case 2:
        if (!varint(v) || v > end - pos) return false;
        start = pos;
        stop = pos += static_cast<size_t>(v);
        return true;
      default:
        return false;  // groups: not in ONNX
    }
  }
};

void tensorRange(const std::string& b, size_t s, size_t e,
                 std::map<std::string, std::pair<int64_t, int64_t>>& out) {
  Wire t{b, s, e};
  uint64_t f = 0;
  size_t a = 0, z = 0;
  std::string name;
  int64_t offset = -1, length = 0;
  while (t.pos < t.end && t.next(f, a, z)) {
    if (f == 8) name = b.substr(a, z - a);
    if (f == 9) {
      offset = static_cast<int64_t>(a);
      length = static_cast<int64_t>(z - a);
    }
  }
  if (offset >= 0 && !name.empty()) out[name] = {offset, length};
}

// Calls fn(field, start, stop) for every field of the serialized ModelProto's graph.
template <class Fn>
void forEachGraphField(const std::string& model, Fn fn) {
  Wire m{model, 0, model.size()};
  uint64_t f = 0;
  size_t a = 0, z = 0;
  while (m.pos < m.end && m.next(f, a, z)) {
    if (f != 7 || a == z) continue;  // ModelProto.graph
    Wire g{model, a, z};
    uint64_t gf = 0;
    size_t ga = 0, gz = 0;
    while (g.pos < g.end && g.next(gf, ga, gz)) fn(gf, ga, gz);
  }
}

}  // namespace

std::map<std::string, std::pair<int64_t, int64_t>> rawDataRanges(const std::string& model) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  forEachGraphField(model, [&](uint64_t field, size_t start, size_t stop) {
    if (field == 5 && start != stop) tensorRange(model, start, stop, out);  // GraphProto.initializer
  });
  return out;
}

int64_t graphEntries(const std::string& model, int field) {
  int64_t n = 0;
  forEachGraphField(model, [&](uint64_t f, size_t, size_t) { n += f == static_cast<uint64_t>(field); });
  return n;
}

std::vector<float> readRaw(const std::string& model_path, const Initializer& init) {
  const std::string what = "ONNX initializer '" + init.name + "'";
  int64_t n = 1;
  for (int64_t d : init.dims) n *= d;  // the importer checked these dims
  std::ifstream in(model_path, std::ios::binary);
  if (!in) throw Error(what + ": cannot open " + model_path);
  std::string bytes(static_cast<size_t>(init.raw_length), '\0');
  in.seekg(init.raw_offset);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::vector<double> v;
  if (!in || !decodeRaw(init.type, bytes.data(), bytes.size(), n, v))
    throw Error(what + ": its data does not match its shape and type");
  return std::vector<float>(v.begin(), v.end());
}

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

std::string externalDataPath(const std::string& model_path, const Initializer& init) {
  return resolveInside(folderOf(model_path), init.location,
                       "initializer '" + init.name + "': external data location",
                       {model_path, 0, 0, "workload"});
}

std::vector<float> readExternal(const std::string& model_path, const Initializer& init) {
  const std::string file = externalDataPath(model_path, init);
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
  if (!in) throw Error(what + ": cannot open " + file);
  std::vector<char> bytes(static_cast<size_t>(n * width));
  in.seekg(init.offset);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw Error(what + ": the file ends before the tensor's data does");
  std::vector<double> v;
  decodeRaw(init.type, bytes.data(), bytes.size(), n, v);
  return std::vector<float>(v.begin(), v.end());
}

}  // namespace tessel::models::onnx
