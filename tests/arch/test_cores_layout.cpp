// The cores: and layout: sections and the host costs of the layout ops: defaults, given values,
// located errors, the hash and the summary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/schema.h"
#include "tiny.h"

namespace tessel::arch {
namespace {

using testing::col;
using ::testing::HasSubstr;
using testing::loadError;
using ::testing::StartsWith;
using testing::tinyPlus;

const std::string kGemmini = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";

Accelerator tiny(const std::vector<std::string>& overrides = {}) {
  return loadString(testing::join(testing::kTiny), "tiny.yaml", overrides);
}

TEST(ArchCoresTest, LeftOutMeansOneCoreAndNoLayoutPreference) {
  const Accelerator a = tiny();
  EXPECT_EQ(a.cores.count, 1);
  EXPECT_DOUBLE_EQ(a.cores.fused_sync_cycles, 0);
  EXPECT_EQ(a.layout.channel_align, 1);
  EXPECT_EQ(a.layout.device_lowering_align, 0);
}

TEST(ArchCoresTest, GivenValuesAreRead) {
  const Accelerator a =
      loadString(tinyPlus({"cores:", "  count: 3", "  fused_sync: 200 cycles",
                           "layout:", "  channel_align: 16", "  device_lowering_align: 32"}),
                 "tiny.yaml");
  EXPECT_EQ(a.cores.count, 3);
  EXPECT_DOUBLE_EQ(a.cores.fused_sync_cycles, 200);
  EXPECT_EQ(a.layout.channel_align, 16);
  EXPECT_EQ(a.layout.device_lowering_align, 32);
  // A time in seconds converts with the accelerator clock, like host.offload_overhead.
  EXPECT_DOUBLE_EQ(tiny({"cores.fused_sync=0.5 us"}).cores.fused_sync_cycles, 500);
  EXPECT_EQ(tiny({"cores.count=64"}).cores.count, 64);  // the largest accepted
}

TEST(ArchCoresTest, BadCoresValuesAreLocated) {
  // "cores:" is line 16, its first parameter line 17; "  count: " is 9 characters.
  EXPECT_EQ(loadError(tinyPlus({"cores:", "  count: 65"})),
            "tiny.yaml:17:10: at 'cores.count': must be at most 64, got '65'");
  EXPECT_EQ(loadError(tinyPlus({"cores:", "  count: 0"})),
            "tiny.yaml:17:10: at 'cores.count': must be greater than zero, got '0'");
  EXPECT_EQ(loadError(tinyPlus({"cores:", "  count: -2"})),
            "tiny.yaml:17:10: at 'cores.count': must not be negative, got '-2'");
  EXPECT_EQ(loadError(tinyPlus({"cores:", "  count: three"})),
            "tiny.yaml:17:10: at 'cores.count': expected an integer, got 'three'");
  EXPECT_EQ(loadError(tinyPlus({"cores:", "  cout: 2"})),
            "tiny.yaml:17:3: at 'cores.cout': unknown key 'cout' in 'cores'; did you mean "
            "'count'?");
  const std::string sync = "  fused_sync: 200 cycels";
  EXPECT_THAT(loadError(tinyPlus({"cores:", sync})),
              StartsWith("tiny.yaml:17:" + std::to_string(col(sync, "200")) +
                         ": at 'cores.fused_sync': unknown unit 'cycels'"));
  EXPECT_EQ(loadError(tinyPlus({"cores:", "  fused_sync: -5 cycles"})),
            "tiny.yaml:17:15: at 'cores.fused_sync': a time must not be negative, got '-5 cycles'");
  EXPECT_EQ(loadError(tinyPlus({"core: {count: 2}"})),
            "tiny.yaml:16:1: at 'core': unknown key 'core' at top level; did you mean 'cores'?");
  EXPECT_EQ(loadError(tinyPlus({"cores: 2"})),
            "tiny.yaml:16:8: at 'cores': expected a mapping, got '2'");
}

TEST(ArchCoresTest, BadLayoutValuesAreLocated) {
  // "  channel_align: " is 17 characters, "  device_lowering_align: " 25.
  EXPECT_EQ(loadError(tinyPlus({"layout:", "  channel_align: 0"})),
            "tiny.yaml:17:18: at 'layout.channel_align': must be greater than zero, got '0'");
  EXPECT_EQ(loadError(tinyPlus({"layout:", "  channel_align: 1.5"})),
            "tiny.yaml:17:18: at 'layout.channel_align': expected an integer, got '1.5'");
  EXPECT_EQ(loadError(tinyPlus({"layout:", "  device_lowering_align: -32"})),
            "tiny.yaml:17:26: at 'layout.device_lowering_align': must not be negative, got '-32'");
  EXPECT_THAT(loadError(tinyPlus({"layout:", "  device_lowering_align: 2000000"})),
              StartsWith("tiny.yaml:17:26: at 'layout.device_lowering_align': must be at most"));
  EXPECT_EQ(loadError(tinyPlus({"layout:", "  chanel_align: 16"})),
            "tiny.yaml:17:3: at 'layout.chanel_align': unknown key 'chanel_align' in 'layout'; "
            "did you mean 'channel_align'?");
  EXPECT_EQ(loadError(testing::join(testing::kTiny), {"layout.channel_align=x"}),
            "<-p layout.channel_align=x>: at 'layout.channel_align': expected an integer, "
            "got 'x'");
}

TEST(ArchCoresTest, ErrorsAreConfigErrors) {
  EXPECT_THROW(tiny({"cores.count=100"}), ConfigError);
  EXPECT_THROW(tiny({"layout.channel_align=0"}), ConfigError);
}

TEST(ArchCoresTest, HashDependsOnCoresAndLayout) {
  const std::string h = tiny().hash();
  EXPECT_NE(tiny({"cores.count=2"}).hash(), h);
  EXPECT_NE(tiny({"cores.count=2"}).hash(), tiny({"cores.count=3"}).hash());
  EXPECT_NE(tiny({"cores.fused_sync=10 cycles"}).hash(), h);
  EXPECT_NE(tiny({"layout.channel_align=16"}).hash(), h);
  EXPECT_NE(tiny({"layout.device_lowering_align=32"}).hash(), h);
  EXPECT_NE(tiny({"host.cycles_per_element={transpose: 2}"}).hash(), h);
  // Given at their defaults, they change nothing.
  EXPECT_EQ(tiny({"cores.count=1", "layout.channel_align=1", "host.cycles_per_element={pad: 0.25}"})
                .hash(),
            h);
}

TEST(ArchCoresTest, DesignsWithoutThemKeepTheirHashes) {
  // Computed when the parts around the blocks and the floorplan joined the canonical text
  // (format tessel-arch-3: controller, DMA, routers, PHY, SRAM macros and their halos, clock, a
  // PE's pipeline by its dataflows, a systolic array's skew registers, the epilogue's silicon
  // where it has ops); neither cores:, layout: nor the layout ops at their defaults enter it.
  EXPECT_EQ(tiny().hash(), "8b821aaefa2bf0de");
  EXPECT_EQ(loadFile(kGemmini, {"dram.capacity=4GiB"}).hash(), "cc756f5aac6a5264");
  const std::string canonical = loadFile(kGemmini).canonical();
  EXPECT_EQ(canonical.find("cores."), std::string::npos);
  EXPECT_EQ(canonical.find("layout."), std::string::npos);
  EXPECT_EQ(canonical.find("transpose"), std::string::npos);
}

TEST(ArchCoresTest, LayoutOpsHaveHostCostsAndRunOnAnSfu) {
  const Accelerator a = tiny();
  EXPECT_DOUBLE_EQ(a.host.costPerElement("transpose"), 1);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("pad"), 0.25);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("slice"), 0.25);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("uint8_shift"), 0.125);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("softmax"), 40);  // the older defaults stay
  // Costs stay in sfuOpNames() order whatever order they are given in.
  const Accelerator b = tiny({"host.cycles_per_element={uint8_shift: 0.5, transpose: 3}"});
  const auto& order = sfuOpNames();
  ASSERT_EQ(b.host.cycles_per_element.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(b.host.cycles_per_element[i].first, order[i]);
  EXPECT_DOUBLE_EQ(b.host.costPerElement("uint8_shift"), 0.5);
  EXPECT_TRUE(tiny({"sfu={ops: [transpose, pad, slice, uint8_shift]}"}).sfu->supports("pad"));
}

TEST(ArchCoresTest, SummaryShowsCoresAndLayoutOnlyWhenSet) {
  const std::string plain = summary(tiny());
  EXPECT_EQ(plain.find("cores:"), std::string::npos);
  EXPECT_EQ(plain.find("layout:"), std::string::npos);
  const std::string s = summary(tiny({"cores={count: 3, fused_sync: 500 cycles}",
                                      "layout={channel_align: 16, device_lowering_align: 32}"}));
  EXPECT_THAT(s, HasSubstr("cores: 3 sharing the DRAM; fused: 3x wider, 500 cycles per op"));
  EXPECT_THAT(s, HasSubstr("layout: channels padded to a multiple of 16; the device lowers inputs "
                           "whose channels are a multiple of 32"));
}

}  // namespace
}  // namespace tessel::arch
