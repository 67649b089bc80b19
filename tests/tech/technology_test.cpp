// The technology model: tables, SRAM / cell / wire costs derived by hand from a table of round
// numbers (data/round.yaml), and the shape of the shipped tables (monotone in capacity,
// ordered by node, DRAM types independent of any MAC).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "tech/memory.h"
#include "tech/technology.h"
#include "util/error.h"

namespace tessel::tech {
namespace {

const std::string kRound = std::string(TESSEL_SOURCE_DIR) + "/tests/tech/data/round.yaml";

TEST(Technology, ReadsATableAsGiven) {
  const Technology t = technologyFromFile(kRound, 0);
  EXPECT_EQ(t.node, "round");
  EXPECT_DOUBLE_EQ(t.voltage, 1.0);  // nominal when not given
  ASSERT_NE(t.macOf(DType::Int8), nullptr);
  EXPECT_DOUBLE_EQ(t.macOf(DType::Int8)->energy_pj, 0.5);
  EXPECT_EQ(t.macOf(DType::BF16), nullptr);  // not in this table
  EXPECT_DOUBLE_EQ(t.flip_flop.area_um2_per_bit, 4);
  EXPECT_DOUBLE_EQ(t.sram.macro_halo_um, 0);  // not in this table: macros abut
  // The shipped tables keep a halo around each macro (OpenROAD-flow-scripts' platform defaults).
  EXPECT_DOUBLE_EQ(shippedTechnology("45nm", 0).sram.macro_halo_um, 18.8);
  EXPECT_DOUBLE_EQ(shippedTechnology("7nm", 0).sram.macro_halo_um, 10);
}

// The round table's array efficiency is 0.5: the periphery strip of a macro is P = sqrt(512 Ki)
// x (1 / sqrt(0.5) - 1) = 724.08 x 0.41421 = 299.92 cells (a square 512 Kibit macro at 0.5).
// An 8 KiB macro read 64 bits at a time is 256 x 256 cells (column mux 4): efficiency
// (256 / 555.92)^2 = 0.21206.
double roundPeriphery() { return std::sqrt(524288.0) * (1 / std::sqrt(0.5) - 1); }
double squareEfficiency(double side) { return std::pow(side / (side + roundPeriphery()), 2); }

// 8 KiB, one bank, one port: 65,536 bits, sqrt = 256.
//   per bit 0.01 + 0.001 x 256 = 0.266 pJ -> 2.128 pJ/B read, x 1.5 = 3.192 pJ/B write
//   area 65,536 x 0.5 um2 / 0.21206 = 154,525 um2 = 0.154525 mm2
//   leakage 65,536 x 10 pW = 655,360 pW = 6.5536e-4 mW
TEST(Sram, OneBankByHand) {
  const Technology t = technologyFromFile(kRound, 0);
  const MemoryCost c = sram(t, {8192, 1, 1});
  EXPECT_NEAR(c.read_pj_per_byte, 2.128, 1e-12);
  EXPECT_NEAR(c.write_pj_per_byte, 3.192, 1e-12);
  EXPECT_NEAR(squareEfficiency(256), 0.21206, 1e-5);
  EXPECT_NEAR(c.area_mm2, 0.032768 / squareEfficiency(256), 1e-15);
  EXPECT_EQ(c.macros, 1);
  EXPECT_NEAR(c.leakage_mw, 6.5536e-4, 1e-15);
}

// 4 banks: 4 macros of 16,384 bits, 128 x 128 cells (mux 2): efficiency (128 / 427.92)^2 =
// 0.08947, area 0.032768 / 0.08947 = 0.36624 mm2 -- smaller macros, more periphery. Energy:
// sqrt(16,384) = 128 -> 0.138 pJ/bit, plus the H-tree to a bank: half the memory's side,
// 0.1 pJ/bit/mm x sqrt(0.36624 mm2) / 2 = 0.030259 pJ/bit; (0.138 + 0.030259) x 8 = 1.34607 pJ/B.
TEST(Sram, BanksShortenTheLinesButAddTheTree) {
  const Technology t = technologyFromFile(kRound, 0);
  const MemoryCost c = sram(t, {8192, 4, 1});
  const double area = 0.032768 / squareEfficiency(128);
  EXPECT_NEAR(area, 0.36624, 1e-5);
  EXPECT_NEAR(c.area_mm2, area, 1e-15);
  EXPECT_EQ(c.macros, 4);
  EXPECT_NEAR(c.read_pj_per_byte, 8 * (0.138 + 0.1 * std::sqrt(area) / 2), 1e-12);
}

// 2 ports: the cell grows 1 + 0.5 = 1.5x: area 0.049152 / 0.21206 = 0.23179 mm2, leakage
// 9.8304e-4 mW, and the lines cross 1.5x the cells: sqrt(65,536 x 1.5) = 313.5 -> per bit
// 0.01 + 0.3135
TEST(Sram, PortsWidenTheCell) {
  const Technology t = technologyFromFile(kRound, 0);
  const MemoryCost c = sram(t, {8192, 1, 2});
  EXPECT_NEAR(c.area_mm2, 0.049152 / squareEfficiency(256), 1e-15);
  EXPECT_NEAR(c.leakage_mw, 9.8304e-4, 1e-15);
  EXPECT_NEAR(c.read_pj_per_byte, 8 * (0.01 + 0.001 * std::sqrt(65536 * 1.5)), 1e-12);
}

// Half the voltage: dynamic energy x 0.25, leakage x 0.5, area unchanged.
TEST(Technology, VoltageScalesDynamicAndLeakageApart) {
  const Technology t = technologyFromFile(kRound, 0.5);
  const MemoryCost c = sram(t, {8192, 1, 1});
  EXPECT_NEAR(c.read_pj_per_byte, 2.128 * 0.25, 1e-12);
  EXPECT_NEAR(c.leakage_mw, 6.5536e-4 * 0.5, 1e-15);
  EXPECT_NEAR(c.area_mm2, 0.032768 / squareEfficiency(256), 1e-15);
  EXPECT_NEAR(wirePjPerByte(t, 2.0), 8 * 0.1 * 2 * 0.25, 1e-12);
}

// 16 bytes of flip-flops: 128 bits x 4 um2 = 512 um2; 0.02 pJ/bit -> 0.16 pJ/B; 128 x 200 pW.
TEST(Cells, FlipFlopsByHand) {
  const Technology t = technologyFromFile(kRound, 0);
  const MemoryCost c = cellStorage(t, t.flip_flop, 16);
  EXPECT_NEAR(c.read_pj_per_byte, 0.16, 1e-12);
  EXPECT_NEAR(c.area_mm2, 512e-6, 1e-15);
  EXPECT_NEAR(c.leakage_mw, 128 * 200e-9, 1e-15);
  EXPECT_NEAR(logicLeakageMw(t, 100), 100 * 1000e-9, 1e-15);
}

TEST(Technology, AVoltageFarFromNominalIsRefused) {
  EXPECT_THROW(technologyFromFile(kRound, 2.0), ConfigError);
  EXPECT_THROW(technologyFromFile(kRound, 0.1), ConfigError);
}

// A table's number too large to keep a chip's area finite is refused with its key and place,
// as a negative one is.
TEST(Technology, ANumberBeyondAnyTableIsLocated) {
  std::ifstream in(std::string(TESSEL_SOURCE_DIR) + "/configs/tech/28nm.yaml");
  const std::string shipped((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string bad : {"1e300", "-3"}) {
    std::string text = shipped;
    const size_t at = text.find("macro_halo_um: 16.0");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 19, "macro_halo_um: " + bad);
    const std::string path = ::testing::TempDir() + "/bad28.yaml";
    std::ofstream(path) << text;
    try {
      technologyFromFile(path, 0);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("sram.macro_halo_um"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad == "-3" ? ">= 0" : "at most 1e9"), std::string::npos) << e.what();
    }
  }
}

TEST(Technology, AnUnknownNodeListsTheShippedOnes) {
  try {
    shippedTechnology("29nm", 0);
    FAIL() << "accepted 29nm";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("28nm"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean"), std::string::npos) << m;
  }
}

// Every shipped node: energy per byte and area grow with capacity, for 1 to 8 banks and 1 or 2
// ports; more ports never cost less; the MAC and the SRAM shrink from node to node.
TEST(ShippedTables, MonotoneInCapacityAndOrderedByNode) {
  const auto nodes = shippedNodes();
  ASSERT_GE(nodes.size(), 4u);
  double last_mac = 1e9, last_sram = 1e9;
  for (const std::string& n : nodes) {
    SCOPED_TRACE(n);
    const Technology t = shippedTechnology(n, 0);
    for (int banks : {1, 2, 8}) {
      for (int ports : {1, 2}) {
        MemoryCost prev = sram(t, {1024, banks, ports});
        for (uint64_t cap = 2048; cap <= (uint64_t{1} << 27); cap *= 2) {
          const MemoryCost c = sram(t, {cap, banks, ports});
          EXPECT_GT(c.read_pj_per_byte, prev.read_pj_per_byte) << cap;
          EXPECT_GT(c.area_mm2, prev.area_mm2) << cap;
          EXPECT_GT(c.leakage_mw, prev.leakage_mw) << cap;
          prev = c;
        }
        EXPECT_GE(sram(t, {65536, banks, 2}).read_pj_per_byte, sram(t, {65536, banks, 1}).read_pj_per_byte);
      }
    }
    ASSERT_NE(t.macOf(DType::Int8), nullptr);
    EXPECT_LT(t.macOf(DType::Int8)->energy_pj, last_mac);
    EXPECT_LT(t.macOf(DType::Int8)->energy_pj, t.macOf(DType::FP16)->energy_pj);
    EXPECT_LT(t.macOf(DType::FP16)->energy_pj, t.macOf(DType::FP32)->energy_pj);
    const double sram32k = sram(t, {32768, 1, 1}).read_pj_per_byte;
    EXPECT_LT(sram32k, last_sram);
    last_mac = t.macOf(DType::Int8)->energy_pj;
    last_sram = sram32k;
  }
}

// Horowitz (ISSCC 2014, 45 nm): a 64-bit read of 8 KB costs 10 pJ, 32 KB 20 pJ, 1 MB 100 pJ.
// The fitted closed form reproduces them within 10 %.
TEST(ShippedTables, The45nmSramFitsHorowitz) {
  const Technology t = shippedTechnology("45nm", 0);
  EXPECT_NEAR(8 * sram(t, {8 * 1024, 1, 1}).read_pj_per_byte, 10, 1.0);
  EXPECT_NEAR(8 * sram(t, {32 * 1024, 1, 1}).read_pj_per_byte, 20, 2.0);
  EXPECT_NEAR(8 * sram(t, {1024 * 1024, 1, 1}).read_pj_per_byte, 100, 10.0);
}

// DRAM energy per bit by type: HBM below LPDDR below DDR, every type positive.
TEST(ShippedTables, DramByType) {
  for (const std::string& type : dramTypes()) EXPECT_GT(dramPjPerBit(type), 0) << type;
  EXPECT_LT(dramPjPerBit("hbm2"), dramPjPerBit("lpddr4"));
  EXPECT_LT(dramPjPerBit("lpddr4"), dramPjPerBit("ddr4"));
  EXPECT_LT(dramPjPerBit("lpddr5"), dramPjPerBit("lpddr4"));
  EXPECT_EQ(dramPjPerBit("sdram"), -1);
}

}  // namespace
}  // namespace tessel::tech
