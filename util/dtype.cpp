#include "util/dtype.h"

#include <array>
#include <atomic>
#include <charconv>
#include <deque>
#include <mutex>

#include "util/suggest.h"

namespace tessel {

namespace {

struct Named {
  DType type;
  std::string_view name;
  int bits;
};

// Every enumerated type: its name and element width.
constexpr Named kNamed[] = {
    {DType::Int8, "int8", 8},           {DType::Int16, "int16", 16},
    {DType::Int32, "int32", 32},        {DType::FP16, "fp16", 16},
    {DType::BF16, "bf16", 16},          {DType::FP32, "fp32", 32},
    {DType::Int4, "int4", 4},           {DType::UInt4, "uint4", 4},
    {DType::FP8_E4M3, "fp8_e4m3", 8},   {DType::FP8_E5M2, "fp8_e5m2", 8},
    {DType::FP6_E3M2, "fp6_e3m2", 6},   {DType::FP6_E2M3, "fp6_e2m3", 6},
    {DType::FP4_E2M1, "fp4_e2m1", 4},   {DType::E8M0, "e8m0", 8},
    {DType::MXFP8_E4M3, "mxfp8_e4m3", 8}, {DType::MXFP8_E5M2, "mxfp8_e5m2", 8},
    {DType::MXFP6_E3M2, "mxfp6_e3m2", 6}, {DType::MXFP6_E2M3, "mxfp6_e2m3", 6},
    {DType::MXFP4, "mxfp4", 4},         {DType::MXINT8, "mxint8", 8},
};
constexpr int kFirstRegistered = 128;

const Named* named(DType t) {
  for (const Named& n : kNamed) {
    if (n.type == t) return &n;
  }
  return nullptr;
}

// The OCP MX formats: 32 elements, an E8M0 scale (Microscaling Formats v1.0, table 1).
std::optional<BlockScaling> mxScaling(DType t) {
  switch (t) {
    case DType::MXFP8_E4M3:
      return BlockScaling{DType::FP8_E4M3, 32, DType::E8M0};
    case DType::MXFP8_E5M2:
      return BlockScaling{DType::FP8_E5M2, 32, DType::E8M0};
    case DType::MXFP6_E3M2:
      return BlockScaling{DType::FP6_E3M2, 32, DType::E8M0};
    case DType::MXFP6_E2M3:
      return BlockScaling{DType::FP6_E2M3, 32, DType::E8M0};
    case DType::MXFP4:
      return BlockScaling{DType::FP4_E2M1, 32, DType::E8M0};
    case DType::MXINT8:
      return BlockScaling{DType::Int8, 32, DType::E8M0};
    default:
      return std::nullopt;
  }
}

// Block-scaled types written by name: registered once, never removed, so their ids and name
// views stay valid for the process. Registration takes a lock; lookups (the cost model asks for
// a dtype's bytes millions of times, from every mapper thread) read a published slot without one.
struct Registered {
  BlockScaling scaling;
  std::string name;
};
constexpr int kRegisteredSlots = 256 - kFirstRegistered;
struct Registry {
  std::mutex mutex;  // serializes registration
  std::deque<Registered> types;
  std::array<std::atomic<const Registered*>, kRegisteredSlots> published{};
};
Registry& registry() {
  static Registry r;
  return r;
}

const Registered* registered(DType t) {
  const int i = static_cast<int>(t) - kFirstRegistered;
  if (i < 0) return nullptr;
  return registry().published[static_cast<size_t>(i)].load(std::memory_order_acquire);
}

std::optional<DType> registerScaling(const BlockScaling& s, std::string name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < r.types.size(); ++i) {
    if (r.types[i].name == name) return static_cast<DType>(kFirstRegistered + static_cast<int>(i));
  }
  if (r.types.size() >= static_cast<size_t>(kRegisteredSlots)) return std::nullopt;  // 128 distinct is plenty
  r.types.push_back({s, std::move(name)});
  const size_t i = r.types.size() - 1;
  r.published[i].store(&r.types[i], std::memory_order_release);
  return static_cast<DType>(kFirstRegistered + static_cast<int>(i));
}

std::optional<DType> plainNamed(std::string_view s) {
  if (s == "float32") return DType::FP32;
  if (s == "float16") return DType::FP16;
  if (s == "bfloat16") return DType::BF16;
  if (s == "fp8") return DType::FP8_E4M3;
  for (const Named& n : kNamed) {
    if (n.name == s && n.type != DType::E8M0) return n.type;
  }
  return std::nullopt;
}

constexpr int kMaxBlock = 4096;

// A name of the shape `<element>_g<digits>_<scale>`, split at the last such "_g<digits>_".
struct GroupedParts {
  std::string_view element, block, scale;
};

std::optional<GroupedParts> groupedParts(std::string_view s) {
  for (size_t at = s.rfind("_g"); at != std::string_view::npos && at > 0; at = s.rfind("_g", at - 1)) {
    const size_t under = s.find('_', at + 2);
    if (under == std::string_view::npos || under == at + 2) continue;
    const std::string_view digits = s.substr(at + 2, under - at - 2);
    if (digits.find_first_not_of("0123456789") != std::string_view::npos) continue;
    return GroupedParts{s.substr(0, at), digits, s.substr(under + 1)};
  }
  return std::nullopt;
}

bool validScale(DType t) {
  return t == DType::E8M0 || t == DType::FP8_E4M3 || t == DType::FP16 || t == DType::BF16 ||
         t == DType::FP32;
}

// What is wrong with a grouped name's parts ("" when nothing is); `block` is set when valid.
std::string groupedProblem(const GroupedParts& g, int& block) {
  const auto [end, ec] = std::from_chars(g.block.data(), g.block.data() + g.block.size(), block);
  if (ec != std::errc() || end != g.block.data() + g.block.size() || block < 1 || block > kMaxBlock) {
    return "block size " + std::string(g.block) + " must be " +
           (ec == std::errc() && block < 1 ? "≥ 1" : "at most " + std::to_string(kMaxBlock));
  }
  const auto element = plainNamed(g.element);
  if (!element) {
    return "element '" + std::string(g.element) + "' is not a plain dtype" +
           didYouMean(g.element, shippedDTypeNames());
  }
  if (isBlockScaled(*element)) return "element '" + std::string(g.element) + "' is itself block-scaled";
  if (elementBits(*element) > 16) {
    return "element '" + std::string(g.element) + "' is wider than 16 bits";
  }
  const auto scale = g.scale == "e8m0" ? std::optional<DType>(DType::E8M0) : plainNamed(g.scale);
  if (!scale || !validScale(*scale)) {
    return "scale '" + std::string(g.scale) + "' must be e8m0, fp8_e4m3, fp16, bf16 or fp32";
  }
  return "";
}

// `<element>_g<block>_<scale>`.
std::optional<DType> parseGrouped(std::string_view s) {
  const auto g = groupedParts(s);
  int block = 0;
  if (!g || !groupedProblem(*g, block).empty()) return std::nullopt;
  const DType element = *plainNamed(g->element);
  const DType scale = g->scale == "e8m0" ? DType::E8M0 : *plainNamed(g->scale);
  const BlockScaling scaling{element, block, scale};
  for (const Named& n : kNamed) {  // the MX formats keep their own names
    const auto mx = mxScaling(n.type);
    if (mx && mx->element == scaling.element && mx->block == block && mx->scale == scaling.scale) return n.type;
  }
  return registerScaling(scaling, std::string(nameOf(element)) + "_g" + std::to_string(block) + "_" +
                                      std::string(nameOf(scale)));
}

}  // namespace

std::optional<BlockScaling> blockScalingOf(DType t) {
  if (auto mx = mxScaling(t)) return mx;
  if (const Registered* r = registered(t)) return r->scaling;
  return std::nullopt;
}

int elementBits(DType t) {
  if (const Named* n = named(t)) return n->bits;
  if (const Registered* r = registered(t)) return elementBits(r->scaling.element);
  return 32;
}

double bytesOf(DType t) {
  const auto s = blockScalingOf(t);
  if (!s) return elementBits(t) / 8.0;
  return (static_cast<double>(s->block) * elementBits(t) + elementBits(s->scale)) / (8.0 * s->block);
}

int64_t storageBytes(DType t, int64_t elements) {
  const int64_t bits = elements * elementBits(t);
  int64_t bytes = (bits + 7) / 8;
  if (const auto s = blockScalingOf(t)) bytes += (elements + s->block - 1) / s->block * (elementBits(s->scale) / 8);
  return bytes;
}

bool isInteger(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int4 ||
         t == DType::UInt4;
}

bool isNarrowFloat(DType t) {
  return t == DType::FP8_E4M3 || t == DType::FP8_E5M2 || t == DType::FP6_E3M2 ||
         t == DType::FP6_E2M3 || t == DType::FP4_E2M1 || isBlockScaled(t);
}

std::string_view nameOf(DType t) {
  if (const Named* n = named(t)) return n->name;
  if (const Registered* r = registered(t)) return r->name;
  return "?";
}

std::optional<DType> parseDType(std::string_view s) {
  if (s == "nvfp4") return parseGrouped("fp4_e2m1_g16_fp8_e4m3");
  if (auto t = plainNamed(s)) return t;
  return parseGrouped(s);
}

std::string dtypeError(std::string_view s) {
  if (const auto g = groupedParts(s)) {
    int block = 0;
    const std::string problem = groupedProblem(*g, block);
    if (!problem.empty()) {
      return "dtype '" + std::string(s) + "' (<element>_g<block>_<scale>): " + problem;
    }
  }
  return "unknown dtype '" + std::string(s) + "'; accepted: " + acceptedDTypes() +
         didYouMean(s, shippedDTypeNames());
}

std::string acceptedDTypes() {
  std::string out;
  for (const std::string& n : shippedDTypeNames()) out += (out.empty() ? "" : ", ") + n;
  return out + ", <element>_g<block>_<scale> (e.g. int4_g128_fp16)";
}

std::vector<std::string> shippedDTypeNames() {
  std::vector<std::string> out;
  for (const Named& n : kNamed) {
    if (n.type != DType::E8M0) out.emplace_back(n.name);
  }
  return out;
}

}  // namespace tessel
