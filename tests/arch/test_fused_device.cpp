// fusedDevice() and coreSharing(): the numbers derived by hand for shipped designs, and the
// derived devices pass the loader's own cross-checks.
#include <gtest/gtest.h>

#include "arch/bandwidth.h"
#include "arch/building.h"
#include "arch/cores.h"
#include "arch/load.h"
#include "util/error.h"

namespace tessel::arch {
namespace {

Accelerator shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml", overrides);
}

// The cross-checks arch::load runs, on a device no file describes; returns its warnings.
std::vector<std::string> crossChecked(const Accelerator& acc) {
  Building b;
  b.acc = acc;
  b.acc.warnings.clear();
  validate(b);
  return b.acc.warnings;
}

TEST(ArchFusedDevice, GemminiDefaultWithTwoCores) {
  const Accelerator one = shipped("gemmini-default", {"cores.count=2"});
  const Accelerator f = fusedDevice(one);
  EXPECT_EQ(f.cores.count, 1);
  // 16x16 per core, side by side: 16 x 32; each core's skew stays 16 + 16 - 2.
  EXPECT_EQ(f.array.rows, 16);
  EXPECT_EQ(f.array.cols, 32);
  EXPECT_DOUBLE_EQ(f.array.pipeline_latency, 30);
  EXPECT_DOUBLE_EQ(f.array.macRate(DType::Int8), 1);  // per PE: unchanged
  const StorageLevel& sp = *f.level(LevelKind::Scratchpad);
  EXPECT_EQ(sp.capacity_bytes, 512u * 1024);  // 2 x 256 KiB
  EXPECT_EQ(sp.banks, 4);
  EXPECT_EQ(sp.row_bytes, 32);          // 32 cols x int8: two 16 B rows side by side
  EXPECT_DOUBLE_EQ(sp.bandwidth, 128);  // 4 banks x 32 B = 2 x 64 B/cycle
  const StorageLevel& acc = *f.level(LevelKind::Accumulator);
  EXPECT_EQ(acc.capacity_bytes, 128u * 1024);  // 2 x 64 KiB
  EXPECT_EQ(acc.row_bytes, 128);               // 32 cols x int32
  EXPECT_DOUBLE_EQ(acc.bandwidth, 256);        // 2 banks x 128 B
  EXPECT_EQ(acc.ports, 2);
  // Shared and unchanged: DRAM, host.
  EXPECT_DOUBLE_EQ(f.levels[0].bandwidth, 16);
  EXPECT_DOUBLE_EQ(f.levels[0].latency, 100);
  EXPECT_DOUBLE_EQ(f.host.clock_hz, one.host.clock_hz);
  EXPECT_DOUBLE_EQ(f.host.link_bandwidth, one.host.link_bandwidth);
  // Two DMA engines: 2 x 16 B/cycle of bus, 2 x 16 requests of 64 B in flight.
  EXPECT_DOUBLE_EQ(f.dma.bus_bytes_per_cycle, 32);
  EXPECT_EQ(f.dma.max_inflight, 32);
  EXPECT_EQ(f.dma.max_request_bytes, 64);
  // One core streams at its DMA window, 16 x 64 B / 100 cycles = 10.24 B/cycle; two reach the
  // DRAM's 16.
  EXPECT_DOUBLE_EQ(offChipBandwidth(one).bytes_per_cycle, 10.24);
  EXPECT_DOUBLE_EQ(offChipBandwidth(f).bytes_per_cycle, 16);
  EXPECT_EQ(offChipBandwidth(f).limit, "dram.bandwidth");
  EXPECT_NE(f.hash(), one.hash());
  EXPECT_TRUE(crossChecked(f).empty());
}

TEST(ArchFusedDevice, SfuLanesNocAndAnL2) {
  const Accelerator f =
      fusedDevice(shipped("gemmini-survey-model", {"cores.count=3", "noc.bandwidth=64 B/cycle"}));
  ASSERT_TRUE(f.sfu.has_value());
  EXPECT_EQ(f.sfu->lanes, 48);  // 3 x 16
  EXPECT_DOUBLE_EQ(f.sfu->cycles_per_vector, 1);
  EXPECT_DOUBLE_EQ(f.noc.bandwidth, 192);
  EXPECT_DOUBLE_EQ(f.array.pipeline_latency, 16);    // given in the file: one core's
  const StorageLevel& l2 = *f.level(LevelKind::L2);  // shared
  EXPECT_EQ(l2.capacity_bytes, 2u << 20);
  EXPECT_DOUBLE_EQ(l2.bandwidth, 16);
  EXPECT_EQ(f.level(LevelKind::Accumulator)->capacity_bytes, 3u * 128 * 1024);
  EXPECT_TRUE(crossChecked(f).empty());
}

TEST(ArchFusedDevice, ASpatialDesignGetsMoreGlobalBufferBanks) {
  const Accelerator one = shipped("eyeriss-like", {"cores.count=2"});
  const Accelerator f = fusedDevice(one);
  const StorageLevel& gb = *f.level(LevelKind::GlobalBuffer);
  const StorageLevel& gb1 = *one.level(LevelKind::GlobalBuffer);
  EXPECT_EQ(gb.capacity_bytes, 2 * gb1.capacity_bytes);
  EXPECT_EQ(gb.banks, 2 * gb1.banks);
  EXPECT_EQ(gb.row_bytes, gb1.row_bytes);
  EXPECT_DOUBLE_EQ(gb.bandwidth, 2 * gb1.bandwidth);
  EXPECT_EQ(f.array.cols, 2 * one.array.cols);
  EXPECT_EQ(f.array.pe_register_file_bytes, one.array.pe_register_file_bytes);  // per PE
  EXPECT_DOUBLE_EQ(f.array.pipeline_latency, one.array.pipeline_latency);
  EXPECT_TRUE(crossChecked(f).empty());
}

TEST(ArchFusedDevice, OneCoreIsTheDeviceItself) {
  const Accelerator a = shipped("gemmini-default");
  EXPECT_EQ(fusedDevice(a).canonical(), a.canonical());
}

TEST(ArchCoreSharing, TwoBusyCoresHalveTheDram) {
  const Accelerator a = shipped("gemmini-default", {"cores.count=2"});
  const Accelerator s = coreSharing(a, 2);
  EXPECT_DOUBLE_EQ(s.levels[0].bandwidth, 8);  // 16 / 2
  EXPECT_EQ(s.cores.count, 2);
  EXPECT_EQ(s.level(LevelKind::Scratchpad)->capacity_bytes, 256u * 1024);  // its own
  EXPECT_DOUBLE_EQ(s.dma.bus_bytes_per_cycle, 16);
  EXPECT_DOUBLE_EQ(offChipBandwidth(s).bytes_per_cycle, 8);  // now below its DMA window
  EXPECT_EQ(coreSharing(a, 1).canonical(), a.canonical());
}

TEST(ArchCoreSharing, TheL2IsSharedToo) {
  const Accelerator a = shipped("gemmini-survey-model", {"cores.count=4"});
  const Accelerator s = coreSharing(a, 4);
  EXPECT_DOUBLE_EQ(s.levels[0].bandwidth, 16);                  // 64 / 4
  EXPECT_DOUBLE_EQ(s.level(LevelKind::L2)->bandwidth, 4);       // 16 / 4
  EXPECT_EQ(s.level(LevelKind::L2)->capacity_bytes, 2u << 20);  // capacity is not split
}

TEST(ArchCoreSharing, BusyOutsideOneToCountIsAConfigError) {
  const Accelerator a = shipped("gemmini-default", {"cores.count=2"});
  EXPECT_THROW(coreSharing(a, 0), ConfigError);
  EXPECT_THROW(coreSharing(a, 3), ConfigError);
  try {
    coreSharing(a, 3);
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.where().yaml_path, "cores.count");
    EXPECT_NE(std::string(e.what()).find("give 1..2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessel::arch
