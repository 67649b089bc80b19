// The co-design case study's three designs and the Gemmini SoC host load, and differ only where
// each step of the study changes them.
#include <gtest/gtest.h>

#include "arch/load.h"

namespace tessel::arch {
namespace {

Accelerator shipped(const std::string& name) {
  return loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml");
}

uint64_t localSram(const Accelerator& a) {
  return a.level(LevelKind::Scratchpad)->capacity_bytes +
         a.level(LevelKind::Accumulator)->capacity_bytes;
}

TEST(ArchCodesignConfigs, StepsLoadAndRebalanceTheSameSram) {
  const Accelerator base = shipped("codesign-0-baseline");
  const Accelerator rebalanced = shipped("codesign-1-rebalanced");
  const Accelerator ibert = shipped("codesign-2-ibert");
  // 256 + 64 KiB, then 64 + 256 KiB: the same 320 KiB.
  EXPECT_EQ(localSram(base), 320u * 1024);
  EXPECT_EQ(localSram(rebalanced), localSram(base));
  EXPECT_EQ(base.level(LevelKind::Scratchpad)->capacity_bytes, 256u * 1024);
  EXPECT_EQ(rebalanced.level(LevelKind::Accumulator)->capacity_bytes, 256u * 1024);
  EXPECT_EQ(localSram(ibert), localSram(rebalanced));
  for (const Accelerator* a : {&base, &rebalanced, &ibert}) {
    EXPECT_EQ(a->level(LevelKind::L2)->capacity_bytes, 2u << 20) << a->name;  // 2 MiB
    EXPECT_DOUBLE_EQ(a->levels[0].bandwidth, 64) << a->name;                  // L2 <-> DRAM
    EXPECT_DOUBLE_EQ(a->level(LevelKind::L2)->bandwidth, 16) << a->name;      // local <-> L2
    EXPECT_EQ(a->array.rows, 16);
    EXPECT_EQ(a->array.dataflows, (std::vector<std::string>{"ws"}));
    EXPECT_DOUBLE_EQ(a->host.clock_hz, 1e9);  // the Rocket host of gemmini-soc
  }
  // Only step 2 has the integer nonlinear units.
  EXPECT_FALSE(base.sfu.has_value());
  EXPECT_FALSE(rebalanced.sfu.has_value());
  ASSERT_TRUE(ibert.sfu.has_value());
  EXPECT_TRUE(ibert.sfu->integer);
  EXPECT_EQ(ibert.sfu->lanes, 16);
  for (const char* op : {"softmax", "layernorm", "gelu", "add"})
    EXPECT_TRUE(ibert.sfu->supports(op));
}

TEST(ArchCodesignConfigs, GemminiSocIsGemminiDefaultWithARocketHost) {
  const Accelerator def = shipped("gemmini-default");
  const Accelerator soc = shipped("gemmini-soc");
  // The hardware below the host is the same.
  EXPECT_EQ(localSram(soc), localSram(def));
  EXPECT_EQ(soc.array.epilogue_ops, def.array.epilogue_ops);
  EXPECT_FALSE(soc.sfu.has_value());
  // Rocket: 1 GHz, one scalar FMA per cycle (2 GFLOP/s), the 128-bit system bus.
  EXPECT_DOUBLE_EQ(soc.host.clock_hz, 1e9);
  EXPECT_DOUBLE_EQ(soc.host.flops, 2e9);
  EXPECT_DOUBLE_EQ(soc.host.mem_bandwidth_bytes_per_s, 16e9);
  EXPECT_DOUBLE_EQ(soc.host.link_bandwidth, 16);
  EXPECT_DOUBLE_EQ(soc.host.link_latency, 100);
  EXPECT_DOUBLE_EQ(soc.host.offload_overhead, 100);
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("dequantize"), 5);
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("quantize"), 7);
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("softmax"), 36);
  // Byte-wise layout loops on the scalar core (the file derives each).
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("transpose"), 4);
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("pad"), 2);
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("slice"), 3);
  EXPECT_DOUBLE_EQ(soc.host.costPerElement("uint8_shift"), 0.5);
  // gemmini-default keeps its generic server host.
  EXPECT_DOUBLE_EQ(def.host.clock_hz, 2e9);
}

}  // namespace
}  // namespace tessel::arch
