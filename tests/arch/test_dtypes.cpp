// The array's rates for the new dtypes and for weight-only pairs, and their MAC costs.
#include <gtest/gtest.h>

#include "arch/accelerator.h"
#include "tests/arch/tiny.h"

namespace tessel::arch::testing {
namespace {

Accelerator tinyWithRates(const std::string& throughput) {
  return loadString(tinyPlus({"  input_dtype: bf16", "  weight_dtype: bf16", "  accum_dtype: fp32",
                              "  throughput: " + throughput}),
                    "tiny.yaml");
}

TEST(ArrayDTypes, NarrowFloatsAndMxHaveTheirOwnRates) {
  const Accelerator a = tinyWithRates("{bf16: 1, fp8_e4m3: 2, fp8: 2, mxfp4: 4, mxint8: 2}");
  EXPECT_EQ(a.array.macRate(DType::BF16), 1.0);
  EXPECT_EQ(a.array.macRate(DType::FP8_E4M3), 2.0);  // "fp8" is fp8_e4m3: the later key wins
  EXPECT_EQ(a.array.macRate(DType::MXFP4), 4.0);
  EXPECT_EQ(a.array.macRate(DType::MXINT8), 2.0);
  EXPECT_EQ(a.array.macRate(DType::FP8_E5M2), 0.0);  // not listed: the array cannot run it
}

TEST(ArrayDTypes, WeightOnlyPairs) {
  const Accelerator a = tinyWithRates("{bf16: 1, int8: 2, bf16*int4: 0.5}");
  ASSERT_EQ(a.array.mixed_macs_per_cycle.size(), 1u);
  EXPECT_EQ(a.array.macRate(DType::BF16, DType::Int4), 0.5);  // the stated cost of widening
  EXPECT_EQ(a.array.macRate(DType::BF16, DType::Int8), 1.0);  // unlisted: widened for free
  EXPECT_EQ(a.array.macRate(DType::Int8, DType::BF16), 1.0);  // wider weights: the wider's rate
  EXPECT_EQ(a.array.macRate(DType::FP8_E5M2, DType::Int4), 0.0);
}

TEST(ArrayDTypes, NarrowMacsAreCostedByTheTechnologyTable) {
  const Accelerator a = tinyWithRates("{bf16: 1, fp8_e5m2: 2, mxfp4: 4, uint4: 4}");
  // The technology table's rows (configs/tech/*.yaml): fp8 for E5M2 and the MX fp4 element
  // (assumed, docs/technology.md), int4 for uint4; all below bf16's MAC.
  EXPECT_LT(a.array.macEnergy(DType::FP8_E5M2), a.array.macEnergy(DType::BF16));
  EXPECT_EQ(a.array.macEnergy(DType::FP8_E5M2), a.array.macEnergy(DType::MXFP4));
  EXPECT_LT(a.array.macEnergy(DType::UInt4), a.array.macEnergy(DType::FP8_E5M2));
}

TEST(ArrayDTypes, ScratchpadRowsOfANarrowInputDtype) {
  // 16 columns of mxfp4: 16 x 4 bits + one scale byte = 9 bytes a row.
  const Accelerator a = loadString(tinyPlus({"  input_dtype: mxfp4", "  throughput: {mxfp4: 1}"}), "tiny.yaml");
  ASSERT_NE(a.level(LevelKind::Scratchpad), nullptr);
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->row_bytes, 9);
}

}  // namespace
}  // namespace tessel::arch::testing
