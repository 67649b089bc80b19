// Names, widths and storage of every dtype, the block-scaled ones' scales included.
#include <gtest/gtest.h>

#include "util/dtype.h"

namespace tessel {
namespace {

DType parsed(const char* s) {
  const auto t = parseDType(s);
  EXPECT_TRUE(t.has_value()) << s;
  return t.value_or(DType::FP32);
}

TEST(DTypeNames, EveryShippedNameParsesBackToItself) {
  for (const std::string& name : shippedDTypeNames()) {
    const auto t = parseDType(name);
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ(nameOf(*t), name);
  }
  EXPECT_EQ(shippedDTypeNames().size(), 19u);  // 6 whole-byte + 7 narrow + 6 MX (e8m0 is a scale only)
}

TEST(DTypeNames, AliasesAndGroupedNames) {
  EXPECT_EQ(parsed("fp8"), DType::FP8_E4M3);
  EXPECT_EQ(parsed("bfloat16"), DType::BF16);
  // The OCP MX formats spelled as element_g32_e8m0 are the shipped ones.
  EXPECT_EQ(parsed("fp4_e2m1_g32_e8m0"), DType::MXFP4);
  EXPECT_EQ(parsed("int8_g32_e8m0"), DType::MXINT8);
  EXPECT_EQ(parsed("fp8_g32_e8m0"), DType::MXFP8_E4M3);
  const DType w4 = parsed("int4_g128_fp16");
  EXPECT_EQ(nameOf(w4), "int4_g128_fp16");
  EXPECT_EQ(parsed("int4_g128_fp16"), w4);  // registered once
  const auto s = blockScalingOf(w4);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->element, DType::Int4);
  EXPECT_EQ(s->block, 128);
  EXPECT_EQ(s->scale, DType::FP16);
  EXPECT_EQ(nameOf(parsed("nvfp4")), "fp4_e2m1_g16_fp8_e4m3");
}

TEST(DTypeNames, Rejected) {
  for (const char* bad : {"e8m0", "int3", "fp8_e3m4", "int4_g0_fp16", "int4_g5000_fp16", "int4_g128",
                          "int4_g128_int8", "fp32_g32_e8m0", "mxfp4_g32_e8m0", "int4_gx_fp16", "", "_g32_fp16"}) {
    EXPECT_FALSE(parseDType(bad).has_value()) << bad;
  }
}

TEST(DTypeStorage, BytesPerElementScalesIncluded) {
  EXPECT_EQ(bytesOf(DType::Int8), 1.0);
  EXPECT_EQ(bytesOf(DType::BF16), 2.0);
  EXPECT_EQ(bytesOf(DType::Int4), 0.5);
  EXPECT_EQ(bytesOf(DType::UInt4), 0.5);
  EXPECT_EQ(bytesOf(DType::FP8_E5M2), 1.0);
  EXPECT_EQ(bytesOf(DType::FP6_E2M3), 0.75);
  EXPECT_EQ(bytesOf(DType::FP4_E2M1), 0.5);
  // MX: 32 elements and one 8-bit scale.
  EXPECT_EQ(bytesOf(DType::MXFP4), (32 * 4 + 8) / 256.0);    // 0.53125
  EXPECT_EQ(bytesOf(DType::MXFP6_E3M2), (32 * 6 + 8) / 256.0);  // 0.78125
  EXPECT_EQ(bytesOf(DType::MXFP8_E4M3), (32 * 8 + 8) / 256.0);  // 1.03125
  EXPECT_EQ(bytesOf(DType::MXINT8), 1.03125);
  // int4 in groups of 128 with an fp16 scale: (128 x 4 + 16) / (128 x 8) = 0.515625.
  EXPECT_EQ(bytesOf(parsed("int4_g128_fp16")), 0.515625);
  // NVFP4: 16 fp4 elements and an fp8 scale: (16 x 4 + 8) / 128 = 0.5625.
  EXPECT_EQ(bytesOf(parsed("nvfp4")), 0.5625);
}

TEST(DTypeStorage, TensorBytesRoundUpElementsAndBlocks) {
  EXPECT_EQ(storageBytes(DType::FP32, 3), 12);
  EXPECT_EQ(storageBytes(DType::Int4, 3), 2);             // 12 bits -> 2 bytes
  EXPECT_EQ(storageBytes(DType::FP6_E3M2, 5), 4);          // 30 bits -> 4 bytes
  EXPECT_EQ(storageBytes(DType::MXFP4, 32), 16 + 1);       // one block
  EXPECT_EQ(storageBytes(DType::MXFP4, 33), 17 + 2);       // 132 bits -> 17 bytes, two scales
  EXPECT_EQ(storageBytes(parsed("int4_g128_fp16"), 4096 * 4096), 4096 * 4096 / 2 + 4096 * 32 * 2);
}

TEST(DTypeKinds, IntegerNarrowAndWhole) {
  EXPECT_TRUE(isInteger(DType::Int4));
  EXPECT_FALSE(isInteger(DType::MXINT8));  // carries its scales in the data
  EXPECT_TRUE(isNarrowFloat(DType::MXINT8));
  EXPECT_TRUE(isNarrowFloat(DType::FP8_E4M3));
  EXPECT_FALSE(isNarrowFloat(DType::BF16));
  EXPECT_TRUE(isWholeBytes(DType::Int16));
  EXPECT_FALSE(isWholeBytes(DType::Int4));
  EXPECT_FALSE(isWholeBytes(DType::MXFP8_E4M3));
  EXPECT_EQ(elementBits(DType::MXFP6_E2M3), 6);
  EXPECT_EQ(elementBits(parsed("int4_g128_fp16")), 4);
}

// Every reader reports a bad dtype with dtypeError: a grouped name names its wrong part.
TEST(DTypeError, NamesTheWrongPartOfAGroupedName) {
  EXPECT_EQ(dtypeError("mxfp8_g0_e8m0"),
            "dtype 'mxfp8_g0_e8m0' (<element>_g<block>_<scale>): block size 0 must be ≥ 1");
  EXPECT_NE(dtypeError("int4_g128_e5m2").find("scale 'e5m2' must be e8m0"), std::string::npos);
  EXPECT_NE(dtypeError("fp32_g32_e8m0").find("element 'fp32' is wider than 16 bits"),
            std::string::npos);
  EXPECT_NE(dtypeError("mxfp4_g32_e8m0").find("element 'mxfp4' is itself block-scaled"),
            std::string::npos);
  EXPECT_EQ(dtypeError("fp9").rfind("unknown dtype 'fp9'; accepted: int8", 0), 0u);
  EXPECT_FALSE(parseDType("mxfp8_g0_e8m0"));
  EXPECT_TRUE(parseDType("int4_g4096_fp16"));
}

}  // namespace
}  // namespace tessel
