// Number formatting: engineering and binary units, rounding policy, mapping forms.
#include "reports/format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sample_run.h"

namespace tessel::reports {
namespace {

TEST(ReportsFormat, EngineeringSeconds) {
  EXPECT_EQ(engSeconds(0.01234), "12.34 ms");
  EXPECT_EQ(engSeconds(2e-6), "2.00 us");
  EXPECT_EQ(engSeconds(1.5), "1.50 s");
  EXPECT_EQ(engSeconds(0), "0.00 ps");
  EXPECT_EQ(engSeconds(0.9999999), "1.00 s");  // rounding up moves to the next unit
  EXPECT_EQ(engSeconds(3600), "3600.00 s");    // no unit above seconds
}

TEST(ReportsFormat, EnergyAndFrequency) {
  EXPECT_EQ(engEnergyPj(3050.5), "3.05 nJ");
  EXPECT_EQ(engEnergyPj(12), "12.00 pJ");
  EXPECT_EQ(engHertz(1e9), "1.00 GHz");
  EXPECT_EQ(engHertz(800e6), "800.00 MHz");
}

TEST(ReportsFormat, BinaryBytes) {
  EXPECT_EQ(binaryBytes(0), "0 B");
  EXPECT_EQ(binaryBytes(1023), "1023 B");
  EXPECT_EQ(binaryBytes(1024), "1.00 KiB");
  EXPECT_EQ(binaryBytes(6932), "6.77 KiB");  // 6932 / 1024 = 6.769
  EXPECT_EQ(binaryBytes(int64_t{3} * 512 * 1024), "1.50 MiB");
  EXPECT_EQ(binaryBytes(int64_t{5} << 30), "5.00 GiB");
}

TEST(ReportsFormat, Commas) {
  EXPECT_EQ(withCommas(0), "0");
  EXPECT_EQ(withCommas(999), "999");
  EXPECT_EQ(withCommas(1000), "1,000");
  EXPECT_EQ(withCommas(1234567890), "1,234,567,890");
  EXPECT_EQ(withCommas(-1234), "-1,234");
  EXPECT_EQ(withCommas(std::numeric_limits<int64_t>::min()), "-9,223,372,036,854,775,808");
  EXPECT_EQ(cyclesText(1499.6), "1,500");
}

TEST(ReportsFormat, RoundingPolicy) {
  EXPECT_EQ(roundQuantity(1234567.891234567), 1234567.89123);  // 12 significant digits
  EXPECT_EQ(roundQuantity(2e-6), 2e-6);
  EXPECT_FALSE(std::signbit(roundQuantity(-0.0)));
  EXPECT_EQ(roundRatio(1.0 / 3.0), 0.333333);  // 6 decimals
  EXPECT_EQ(quantityText(1500), "1500");
  EXPECT_EQ(quantityText(3050.5), "3050.5");
  EXPECT_EQ(ratioText(0.8), "0.800000");
  EXPECT_TRUE(std::isnan(roundQuantity(std::nan(""))));
  EXPECT_EQ(quantityText(1e300), "1e+300");
  EXPECT_EQ(fixedText(1e300, 2).size(), 301u + 3u);  // 301 digits, '.', two decimals
}

TEST(ReportsFormat, CutAndPad) {
  EXPECT_EQ(cut("abcdefgh", 5), "ab...");
  EXPECT_EQ(cut("abc", 5), "abc");
  EXPECT_EQ(padRight("abc", 5), "abc   ");  // width 5, then one separating space
  EXPECT_EQ(padLeft("42", 5), "   42");
  EXPECT_EQ(padLeft("123456", 3), "123456");  // numbers are never cut
}

TEST(ReportsFormat, MappingForms) {
  const sim::OpStats qkv = sample::sampleRun().ops[0];
  EXPECT_EQ(mappingShort(qkv), "ws m=4 n=4 k=12");
  EXPECT_EQ(mappingKv(qkv),
            "dataflow=ws;mapper=gemmini_auto;array=4x4;tile_m=4;tile_n=4;tile_k=12;"
            "loop_order=MNK;double_buffered=true");
  sim::OpStats other;
  other.mapping = {{"placement", "sfu"}, {"unit_op", "softmax"}};  // an SFU op: no tiles
  EXPECT_EQ(mappingShort(other), "placement=sfu unit_op=softmax");
  EXPECT_EQ(mappingShort(sim::OpStats{}), "");
}

TEST(ReportsFormat, DominantCausePrefersFirstOnTie) {
  sim::OpStats op;
  op.cycles_by_cause = {10, 30, 30, 0, 0, 0};
  EXPECT_EQ(dominantCause(op), sim::Cause::FillDrain);
  EXPECT_EQ(dominantCause(sim::OpStats{}), sim::Cause::Compute);
}

}  // namespace
}  // namespace tessel::reports
