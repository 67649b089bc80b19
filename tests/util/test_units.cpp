#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/util/error_of.h"
#include "util/units.h"

namespace tessel::units {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const SourceLocation kAt{"arch.yaml", 3, 5, "scratchpad.capacity"};

using tessel::testing::errorOf;

TEST(UnitsTest, SizesInEveryForm) {
  EXPECT_EQ(parseBytes("256 KiB", kAt), 256u * 1024);
  EXPECT_EQ(parseBytes("256KiB", kAt), 256u * 1024);  // the space is optional
  EXPECT_EQ(parseBytes("2 MB", kAt), 2000000u);       // decimal prefixes are powers of 1000
  EXPECT_EQ(parseBytes("2 MiB", kAt), 2u * 1024 * 1024);
  EXPECT_EQ(parseBytes("64 B", kAt), 64u);
  EXPECT_EQ(parseBytes("4 GiB", kAt), 4ull * 1024 * 1024 * 1024);
  EXPECT_EQ(parseBytes("1 kB", kAt), 1000u);
  EXPECT_EQ(parseBytes("1 TB", kAt), 1000000000000ull);
  EXPECT_EQ(parseBytes("1.5 KiB", kAt), 1536u);  // fractions that land on whole bytes
  EXPECT_EQ(parseBytes("4096", kAt), 4096u);     // a plain integer is bytes
  EXPECT_EQ(parseBytes("  16 B ", kAt), 16u);    // surrounding blanks are ignored
}

TEST(UnitsTest, SizeErrorsNameTheProblemAndTheLocation) {
  const std::string neg = errorOf([] { parseBytes("-1 KiB", kAt); });
  EXPECT_THAT(neg, HasSubstr("arch.yaml:3:5: at 'scratchpad.capacity': "));
  EXPECT_THAT(neg, HasSubstr("must not be negative, got '-1 KiB'"));
  EXPECT_THAT(errorOf([] { parseBytes("nan KiB", kAt); }), HasSubstr("not a finite number"));
  EXPECT_THAT(errorOf([] { parseBytes("inf", kAt); }), HasSubstr("not a finite number"));
  EXPECT_THAT(errorOf([] { parseBytes("lots", kAt); }),
              HasSubstr("expected a size like '256 KiB', got 'lots'"));
  EXPECT_THAT(errorOf([] { parseBytes("", kAt); }), HasSubstr("got nothing"));
  EXPECT_THAT(errorOf([] { parseBytes("0.5 B", kAt); }), HasSubstr("not a whole number of bytes"));
  EXPECT_THAT(errorOf([] { parseBytes("2e30 B", kAt); }), HasSubstr("too large"));
}

TEST(UnitsTest, UnknownUnitListsTheAcceptedOnesAndSuggests) {
  // "KB" is neither SI (kB) nor IEC (KiB); it is rejected rather than guessed.
  const std::string msg = errorOf([] { parseBytes("2 KB", kAt); });
  EXPECT_THAT(msg, AllOf(HasSubstr("unknown unit 'KB' in '2 KB' for a size"),
                         HasSubstr("accepted: B, kB, MB, GB, TB, KiB, MiB, GiB, TiB"),
                         HasSubstr("did you mean 'kB'?")));
}

TEST(UnitsTest, BandwidthConvertsToBytesPerCycle) {
  EXPECT_DOUBLE_EQ(parseBandwidth("16 B/cycle", 1e9, kAt), 16);
  EXPECT_DOUBLE_EQ(parseBandwidth("64 B/cycle", 7e8, kAt), 64);   // per cycle: clock-independent
  EXPECT_DOUBLE_EQ(parseBandwidth("25.6 GB/s", 1e9, kAt), 25.6);  // 25.6e9 B/s / 1e9 cycles/s
  EXPECT_DOUBLE_EQ(parseBandwidth("1 TB/s", 1e9, kAt), 1000);     // 1e12 / 1e9
  EXPECT_DOUBLE_EQ(parseBandwidth("30 GB/s", 7e8, kAt), 30e9 / 7e8);
  EXPECT_DOUBLE_EQ(parseBandwidth("1 KiB/s", 1024, kAt), 1);  // 1024 B/s at 1024 Hz
  EXPECT_DOUBLE_EQ(parseBandwidth("0", 1e9, kAt), 0);         // plain number: B/cycle
}

TEST(UnitsTest, BandwidthErrors) {
  EXPECT_THAT(errorOf([] { parseBandwidth("16 B/clk", 1e9, kAt); }),
              AllOf(HasSubstr("unknown unit 'B/clk'"), HasSubstr("B/cycle, or a size per second")));
  EXPECT_THAT(errorOf([] { parseBandwidth("16 GB/s", 0, kAt); }), HasSubstr("without a clock"));
  EXPECT_THAT(errorOf([] { parseBandwidth("-16 B/cycle", 1e9, kAt); }),
              HasSubstr("must not be negative"));
}

TEST(UnitsTest, ByteRateConvertsToBytesPerSecond) {
  EXPECT_DOUBLE_EQ(parseByteRate("25.6 GB/s", 2e9, kAt), 25.6e9);
  EXPECT_DOUBLE_EQ(parseByteRate("8 B/cycle", 2e9, kAt), 16e9);  // 8 B x 2e9 cycles/s
  EXPECT_THAT(errorOf([] { parseByteRate("25", 2e9, kAt); }), HasSubstr("needs a unit"));
}

TEST(UnitsTest, Frequency) {
  EXPECT_DOUBLE_EQ(parseFrequency("1 GHz", kAt), 1e9);
  EXPECT_DOUBLE_EQ(parseFrequency("700 MHz", kAt), 7e8);
  EXPECT_DOUBLE_EQ(parseFrequency("200MHz", kAt), 2e8);
  // A bare "1000" could mean Hz or MHz: a unit is required.
  EXPECT_THAT(errorOf([] { parseFrequency("1000", kAt); }),
              AllOf(HasSubstr("a frequency needs a unit"), HasSubstr("Hz, kHz, MHz, GHz")));
  EXPECT_THAT(errorOf([] { parseFrequency("1 Ghz", kAt); }), HasSubstr("did you mean 'GHz'?"));
}

TEST(UnitsTest, TimeConvertsToCycles) {
  EXPECT_DOUBLE_EQ(parseCycles("100 ns", 1e9, kAt), 100);  // 100e-9 s x 1e9 Hz
  EXPECT_DOUBLE_EQ(parseCycles("1 us", 1e9, kAt), 1000);
  EXPECT_DOUBLE_EQ(parseCycles("100 ns", 7e8, kAt), 70);  // 100e-9 x 7e8
  EXPECT_DOUBLE_EQ(parseCycles("100 cycles", 1e9, kAt), 100);
  EXPECT_DOUBLE_EQ(parseCycles("1 cycle", 1e9, kAt), 1);
  EXPECT_DOUBLE_EQ(parseCycles("20", 1e9, kAt), 20);         // plain number: cycles
  EXPECT_DOUBLE_EQ(parseCycles("100 cycles", 0, kAt), 100);  // cycles need no clock
  EXPECT_THAT(
      errorOf([] { parseCycles("5 sec", 1e9, kAt); }),
      AllOf(HasSubstr("unknown unit 'sec'"), HasSubstr("cycle, cycles, ps, ns, us, ms, s")));
}

TEST(UnitsTest, EnergiesAndThroughput) {
  EXPECT_DOUBLE_EQ(parseEnergy("0.2 pJ", kAt), 0.2);
  EXPECT_DOUBLE_EQ(parseEnergy("1 nJ", kAt), 1000);
  EXPECT_DOUBLE_EQ(parseEnergy("500 fJ", kAt), 0.5);
  EXPECT_THAT(errorOf([] { parseEnergy("0.2", kAt); }), HasSubstr("an energy needs a unit"));
  EXPECT_DOUBLE_EQ(parseEnergyPerByte("20 pJ/B", kAt), 20);
  EXPECT_DOUBLE_EQ(parseEnergyPerByte("1 nJ/B", kAt), 1000);
  EXPECT_THAT(errorOf([] { parseEnergyPerByte("20 pJ", kAt); }), HasSubstr("did you mean 'pJ/B'?"));
  EXPECT_DOUBLE_EQ(parseFlopRate("32 GFLOP/s", kAt), 32e9);
  EXPECT_DOUBLE_EQ(parseFlopRate("1 TFLOP/s", kAt), 1e12);
  EXPECT_THAT(errorOf([] { parseFlopRate("32 GFLOPS", kAt); }),
              HasSubstr("did you mean 'GFLOP/s'?"));
}

TEST(UnitsTest, Formatting) {
  EXPECT_EQ(formatBytes(0), "0 B");
  EXPECT_EQ(formatBytes(100), "100 B");
  EXPECT_EQ(formatBytes(256 * 1024), "256 KiB");
  EXPECT_EQ(formatBytes(4ull << 30), "4 GiB");
  EXPECT_EQ(formatBytes(2000000), "2 MB");  // not a whole number of KiB: decimal form
  // Large quotients read better scaled; exabytes exist.
  EXPECT_EQ(formatBytes(976562500000ull * 1024), "909.495 TiB");
  EXPECT_EQ(formatBytes(uint64_t{1} << 62), "4 EiB");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");  // neither: scaled binary
  EXPECT_EQ(formatFrequency(7e8), "700 MHz");
  EXPECT_EQ(formatFrequency(1e9), "1 GHz");
  EXPECT_EQ(formatNumber(25.6), "25.6");
  EXPECT_EQ(formatNumber(1e6), "1000000");
  EXPECT_EQ(formatCount(0), "0");
  EXPECT_EQ(formatCount(999), "999");
  EXPECT_EQ(formatCount(1000001), "1,000,001");
  EXPECT_EQ(formatCount(-1000), "-1,000");
  EXPECT_EQ(formatCount(INT64_MIN), "-9,223,372,036,854,775,808");
}

}  // namespace
}  // namespace tessel::units

namespace tessel::units {
namespace {

TEST(UnitsTest, AQuantityWithoutItsRateSuffixGetsAHint) {
  std::string msg;
  try {
    parseBandwidth("16 GB", 1e9, {"a.yaml", 1, 1, "dram.bandwidth"});
  } catch (const ConfigError& e) {
    msg = e.what();
  }
  EXPECT_THAT(msg, ::testing::HasSubstr("did you mean 'GB/s'?"));
}

}  // namespace
TEST(UnitsTest, OutOfRangeNumbersSayWhichWay) {
  const SourceLocation at{"t.yaml", 1, 1, "x"};
  try {
    parseBandwidth("1e-400 B/cycle", 1e9, at);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'1e-400 B/cycle' is too small"), std::string::npos)
        << e.what();
  }
  try {
    parseBandwidth("1e400 B/cycle", 1e9, at);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'1e400 B/cycle' is too large"), std::string::npos)
        << e.what();
  }
}

}  // namespace tessel::units

namespace tessel::units {
namespace {

// Fixed-point with the digits asked for, rounded as printf rounds ("%.*f").
TEST(Units, FormatFixed) {
  EXPECT_EQ(formatFixed(2.345, 1), "2.3");
  EXPECT_EQ(formatFixed(1074.4, 0), "1074");
  EXPECT_EQ(formatFixed(-0.5, 2), "-0.50");
  EXPECT_EQ(formatFixed(1e300, 0).size(), 301u);  // no truncation of the largest doubles
}

}  // namespace
}  // namespace tessel::units
