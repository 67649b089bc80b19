// Numeric element types shared by the architecture, the graph and the kernels.
//
// Three families:
//   - whole-byte integers and IEEE/brain floats: int8, int16, int32, fp16, bf16, fp32;
//   - narrow types: int4, uint4 (two's complement / unsigned nibbles), the OCP 8-bit floats
//     fp8_e4m3 and fp8_e5m2 (OFP8 v1.0), and the OCP MX element floats fp6_e3m2, fp6_e2m3,
//     fp4_e2m1 (Microscaling Formats v1.0, section 5.3);
//   - block-scaled types: an element type, a block of elements along the tensor's last axis
//     and one scale per block. The OCP MX formats are shipped by name (mxfp8_e4m3, mxfp8_e5m2,
//     mxfp6_e3m2, mxfp6_e2m3, mxfp4, mxint8: 32 elements, an E8M0 power-of-two scale); any
//     other is written `<element>_g<block>_<scale>` (int4_g128_fp16: int4 weights in groups of
//     128 with an fp16 scale each, as weight-only int4 deployments store them; nvfp4 =
//     fp4_e2m1_g16_fp8_e4m3).
// Storage is counted exactly: a tensor of n elements takes ceil(n x element bits / 8) bytes
// plus ceil(n / block) scales; bytesOf() is that per element (scales included), a fraction for
// the narrow and block types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

// Values past the last enumerator are block-scaled types registered by parseDType (their
// names and shapes live in a process-wide table that only grows).
enum class DType : uint8_t {
  Int8,
  Int16,
  Int32,
  FP16,
  BF16,
  FP32,
  Int4,
  UInt4,
  FP8_E4M3,
  FP8_E5M2,
  FP6_E3M2,
  FP6_E2M3,
  FP4_E2M1,
  E8M0,  // the MX scale: an 8-bit power of two (only as a block's scale)
  MXFP8_E4M3,
  MXFP8_E5M2,
  MXFP6_E3M2,
  MXFP6_E2M3,
  MXFP4,
  MXINT8,
};

// A block-scaled type: `block` consecutive elements of `element` share one `scale`.
struct BlockScaling {
  DType element = DType::Int8;
  int block = 32;
  DType scale = DType::E8M0;
};
std::optional<BlockScaling> blockScalingOf(DType t);
inline bool isBlockScaled(DType t) { return blockScalingOf(t).has_value(); }

// Bits of one element (without a block's scale): 4 for int4 and mxfp4, 8 for fp8_e4m3 ...
int elementBits(DType t);
// Average bytes per element, scales included: 1 for int8, 0.5 for int4, (32 x 4 + 8) / 256 =
// 0.53125 for mxfp4. Exact (a binary fraction) whenever the block is a power of two.
double bytesOf(DType t);
// Bytes of a tensor of `elements` elements, scales included, rounded up to whole bytes.
int64_t storageBytes(DType t, int64_t elements);
// Whole-byte storage: every plain type of 8 bits or more (what a memory row can hold whole).
inline bool isWholeBytes(DType t) { return elementBits(t) % 8 == 0 && !isBlockScaled(t); }

// Plain integers (int4, uint4, int8, int16, int32): quantized with a zero point and a scale the
// executor carries beside the tensor. Block-scaled integers (mxint8) are not: they carry their
// scales in the data.
bool isInteger(DType t);
// Plain floats of fewer than 16 bits (fp8, fp6, fp4) and the block-scaled types: formats an
// executor emulates by rounding FP32 values, which the host CPU has no instructions for.
bool isNarrowFloat(DType t);

// "int8", "fp8_e4m3", "mxfp4", "int4_g128_fp16" ... (lower case, as written in YAML and JSON).
std::string_view nameOf(DType t);
// Parses the names nameOf produces plus the aliases "float32", "float16", "bfloat16", "fp8"
// (= fp8_e4m3), "nvfp4" (= fp4_e2m1_g16_fp8_e4m3) and any `<element>_g<block>_<scale>`
// (element: a plain type of at most 16 bits; block: 1..4096; scale: e8m0, fp8_e4m3, fp16, bf16
// or fp32); nullopt otherwise. e8m0 alone is not a dtype here (only a scale).
std::optional<DType> parseDType(std::string_view s);
// Why parseDType(s) fails, as one message naming `s`: the wrong part of an
// `<element>_g<block>_<scale>` name ("block size 0 must be ≥ 1"), else "unknown dtype" with
// the accepted names and a "did you mean". Every reader of a dtype reports with it.
std::string dtypeError(std::string_view s);
// The names parseDType accepts, for messages: "int8, int16, ..., mxint8, <element>_g<N>_<scale>".
std::string acceptedDTypes();
// The shipped names (for "did you mean" suggestions).
std::vector<std::string> shippedDTypeNames();

}  // namespace tessel
