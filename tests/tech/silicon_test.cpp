// Energies, areas and leakage a design derives from its technology (arch/silicon.cpp): a tiny
// design on the round-number table derived by hand, explicit energies kept as given, static
// energy as leakage x time, and the mechanisms the issue named (links vs MACs, DRAM vs MAC).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"
#include "tech/technology.h"
#include "util/error.h"

namespace tessel {
namespace {

using ::testing::HasSubstr;

const std::string kRound = std::string(TESSEL_SOURCE_DIR) + "/tests/tech/data/round.yaml";

// `scratchpad` adds keys to the scratchpad's mapping. The blocks alone: logic placed at full
// utilization and the parts around the blocks left out (given as 0; they are derived by hand
// in tests/arch/test_chip_parts.cpp).
std::string tinyDesign(const std::string& scratchpad = "") {
  return "name: tiny\n"
         "clock: 1 GHz\n"
         "technology: {table: " + kRound + "}\n"
         "floorplan: {logic_utilization: 1, clock_energy: 0 pJ}\n"
         "controller: {area: 0 mm2, leakage: 0 mW, energy: 0 pJ}\n"
         "dma: {area: 0 mm2, leakage: 0 mW}\n"
         "dram: {bandwidth: 16 B/cycle, latency: 100 cycles, type: lpddr4, phy_area: 0 mm2}\n"
         "scratchpad: {capacity: 8 KiB" + scratchpad + "}\n"
         "accumulator: {capacity: 4 KiB}\n"
         "array: {rows: 4, cols: 4, dataflows: [ws, os]}\n";
}

double component(const std::vector<std::pair<std::string, double>>& parts, const std::string& name) {
  for (const auto& [n, v] : parts) {
    if (n == name) return v;
  }
  ADD_FAILURE() << "no component " << name;
  return 0;
}

// The round table (tests/tech/data/round.yaml), a 4 x 4 int8 systolic array running WS and OS:
//   MAC 0.5 pJ, 100 um2. Pipeline flip-flops per PE: kept, the wider of WS's 2 weights and OS's
//   2 INT32 sums, 8 B; passing, the input and the wider of WS's sum and OS's weight, 1 + 4 B:
//   13 B = 104 bits: 416 um2, 104 x 200 pW. Array: 16 x (100 + 416) um2 = 8,256 um2; leakage
//   16 x (100 um2 x 1,000 pW/um2 + 20,800 pW) = 1,932,800 pW = 1.9328e-3 mW.
//   The edges' skew registers (arch/chip_parts.h, skewBytes): triangles of 4 x 3 / 2 = 6 for
//   the inputs (1 B), OS's weights (1 B) and the INT32 results (4 B), 36 B = 288 bits: 1,152
//   um2, 57,600 pW; the array 9,408 um2 and 1.9904e-3 mW.
//   PE pitch, without the edges, sqrt(8,256 / 16) = sqrt(516) um. A hop: 8 x 0.1 pJ/bit/mm x 0.0227156 mm + a
//   flip-flop write 8 x 0.02 = 0.0181725 + 0.16 pJ/B. No register file: the "register_file"
//   energy is the pipeline flip-flops', 0.16 pJ/B.
//   Scratchpad 8 KiB: 65,536 bits, (0.01 + 0.001 x 256) x 8 = 2.128 pJ/B read, x 1.5 write;
//   6.5536e-4 mW; read 4 B at a time, one macro of 256 x 256 cells (column mux 8) with the
//   round table's periphery P = 299.92 cells (tests/tech/technology_test.cpp): efficiency
//   (256 / 555.92)^2 = 0.21206, area 0.032768 / 0.21206 = 0.154525 mm2.
//   Accumulator 4 KiB read 16 B at a time: one macro of 256 x 128 cells (mux 1): efficiency
//   32,768 / (555.92 x 427.92) = 0.13775, 0.016384 / 0.13775 = 0.118946 mm2, plus its 4 INT32
//   adders (16 B / 4 B), 4 x 50 um2.
//   DRAM lpddr4: 8 x the shipped table's pJ/bit, whatever the MAC.
TEST(Silicon, ATinyDesignByHand) {
  const arch::Accelerator a = arch::loadString(tinyDesign(), "tiny.yaml");
  EXPECT_DOUBLE_EQ(a.array.mac_energy_pj, 0.5);
  EXPECT_DOUBLE_EQ(a.array.mac_area_um2, 100);
  EXPECT_NEAR(a.array.area_mm2, 9408e-6, 1e-15);
  EXPECT_NEAR(a.array.leakage_mw, 1.9904e-3, 1e-15);
  EXPECT_NEAR(a.silicon.pe_pitch_mm, std::sqrt(516.0) * 1e-3, 1e-12);
  EXPECT_NEAR(a.noc.energy_pj_per_byte, 8 * 0.1 * std::sqrt(516.0) * 1e-3 + 0.16, 1e-12);
  EXPECT_NEAR(a.array.rf_energy_pj_per_byte, 0.16, 1e-12);
  const arch::StorageLevel& sp = a.levels[1];
  EXPECT_NEAR(sp.read_energy_pj_per_byte, 2.128, 1e-12);
  EXPECT_NEAR(sp.write_energy_pj_per_byte, 3.192, 1e-12);
  const double p = std::sqrt(524288.0) * (1 / std::sqrt(0.5) - 1);
  const double sp_area = 0.032768 / std::pow(256 / (256 + p), 2);
  const double acc_area = 0.016384 / (256.0 * 128 / ((256 + p) * (128 + p))) + 4 * 50e-6;
  EXPECT_NEAR(sp_area, 0.154525, 1e-6);
  EXPECT_NEAR(acc_area, 0.118946 + 0.0002, 1e-6);
  EXPECT_NEAR(sp.area_mm2, sp_area, 1e-15);
  EXPECT_NEAR(sp.leakage_mw, 6.5536e-4, 1e-15);
  EXPECT_NEAR(a.levels[2].area_mm2, acc_area, 1e-15);
  EXPECT_DOUBLE_EQ(a.levels[0].read_energy_pj_per_byte, 8 * tech::dramPjPerBit("lpddr4"));
  EXPECT_NEAR(a.silicon.totalArea(), sp_area + acc_area + 9408e-6, 1e-12);
  EXPECT_NEAR(component(a.silicon.area_mm2, "array"), 9408e-6, 1e-15);
  EXPECT_NEAR(component(a.silicon.area_mm2, "register_file"), 0, 1e-15);
}

// A register file of 32 B per PE: 256 bits x 2 um2 = 512 um2 per PE, 16 PEs = 8,192 um2. Its
// energy lies between a flip-flop's (8 x 0.02 = 0.16 pJ/B at 8 B) and the table's register file
// (8 x 0.05 = 0.4 pJ/B at 512 B), at log2(32 / 8) / 6 = 1/3 of the way: 0.24 pJ/B. The pitch
// grows: sqrt((5,184 + 8,192) / 16) = sqrt(836) um.
TEST(Silicon, ARegisterFileAddsAreaAndWidensThePitch) {
  const arch::Accelerator a = arch::loadString(tinyDesign(), "tiny.yaml",
                                               {"array.kind=spatial", "array.register_file=32 B", "noc.kind=mesh",
                                                "array.dataflows=[ws]"});
  EXPECT_NEAR(a.array.register_file_area_mm2, 8192e-6, 1e-15);
  EXPECT_NEAR(a.array.rf_energy_pj_per_byte, 0.24, 1e-12);
  // 512 B and more: the table's register file.
  const arch::Accelerator big = arch::loadString(tinyDesign(), "tiny.yaml",
                                                 {"array.kind=spatial", "array.register_file=1 KiB", "noc.kind=mesh"});
  EXPECT_NEAR(big.array.rf_energy_pj_per_byte, 0.4, 1e-12);
  EXPECT_NEAR(a.silicon.pe_pitch_mm, std::sqrt(836.0) * 1e-3, 1e-12);
}

// Four arrays under the scratchpad: the array's silicon counts four times; a fan-out hop is a
// wire as long as one array's side with its edges, sqrt(9,408 um2) = 97.0 um: 8 x 0.1 x 0.0970
// pJ/B.
TEST(Silicon, FanOutCopiesCountEveryInstance) {
  const arch::Accelerator a = arch::loadString(tinyDesign(", fanout: {instances: 4}"), "tiny.yaml");
  EXPECT_NEAR(component(a.silicon.area_mm2, "array"), 4 * 9408e-6, 1e-15);
  EXPECT_NEAR(a.levels[1].fanout.energy_pj_per_byte, 8 * 0.1 * std::sqrt(9408e-6), 1e-12);
}

// Explicit energies, the way an Accelergy table gives them, are kept exactly; leakage given as
// 0 leaves no static energy, so the run's energy is the access counts times those numbers.
TEST(Silicon, ExplicitEnergiesAreKeptAsGiven) {
  const arch::Accelerator a = arch::loadString(
      tinyDesign(", tensors: {inputs: {read_energy: 1.5 pJ/B, write_energy: 2.5 pJ/B},"
                 " weights: {read_energy: 3 pJ/B, write_energy: 4 pJ/B}}"),
      "tiny.yaml",
      {"array.mac_energy=0.25 pJ", "dram.read_energy=100 pJ/B", "dram.write_energy=120 pJ/B",
       "accumulator.read_energy=7 pJ/B", "accumulator.write_energy=9 pJ/B", "noc.energy=0.5 pJ/B",
       "array.register_file_energy=0.125 pJ/B", "scratchpad.leakage=0 mW", "accumulator.leakage=0 mW",
       "array.leakage=0 mW"});
  EXPECT_DOUBLE_EQ(a.levels[1].readPj(0), 1.5);
  EXPECT_DOUBLE_EQ(a.levels[1].writePj(1), 4);
  EXPECT_DOUBLE_EQ(a.levels[0].writePj(2), 120);
  EXPECT_DOUBLE_EQ(a.noc.energy_pj_per_byte, 0.5);
  models::WorkloadOptions o;
  const models::Graph g = models::build("gemm:M=16,K=16,N=16", o);
  const sim::RunStats r = sim::simulate(g, a, dataflows::loadDataflow("ws"), {});
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(r.staticEnergyPj(), 0.0);
  // Every storage level's energy is its bytes times the given per-tensor energies.
  const double given_read[3][3] = {{100, 100, 100}, {1.5, 3, 0}, {7, 7, 7}};
  const double given_write[3][3] = {{120, 120, 120}, {2.5, 4, 0}, {9, 9, 9}};
  for (size_t l = 0; l < 3; ++l) {
    double expect = 0;
    for (size_t t = 0; t < 3; ++t) {
      expect += static_cast<double>(r.ops[0].traffic[l].read_bytes[t]) * given_read[l][t] +
                static_cast<double>(r.ops[0].traffic[l].write_bytes[t]) * given_write[l][t];
    }
    EXPECT_NEAR(component(r.ops[0].energy_pj, a.levels[l].name), expect, 1e-9) << a.levels[l].name;
  }
  EXPECT_DOUBLE_EQ(component(r.ops[0].energy_pj, "array"), 16 * 16 * 16 * 0.25);
  EXPECT_DOUBLE_EQ(r.energyTotalPj(), r.dynamicEnergyPj());
}

// Static energy is the leakage power times the run's time: twice the work, twice the leakage.
TEST(Silicon, StaticEnergyIsLeakageTimesTime) {
  const arch::Accelerator a = arch::loadString(tinyDesign(), "tiny.yaml");
  models::WorkloadOptions o;
  const auto small = sim::simulate(models::build("gemm:M=64,K=64,N=64", o), a, dataflows::loadDataflow("ws"), {});
  const auto large = sim::simulate(models::build("gemm:M=128,K=64,N=64", o), a, dataflows::loadDataflow("ws"), {});
  EXPECT_NEAR(small.staticEnergyPj(), a.silicon.totalLeakage() * small.seconds() * 1e9, 1e-9);
  EXPECT_GT(large.seconds(), small.seconds());
  EXPECT_NEAR(large.staticEnergyPj() / small.staticEnergyPj(), large.seconds() / small.seconds(), 1e-12);
  EXPECT_NEAR(small.energyTotalPj(), small.dynamicEnergyPj() + small.staticEnergyPj(), 1e-6);
  EXPECT_NEAR(small.powerW(), small.energyTotalPj() * 1e-12 / small.seconds(), 1e-12);
  EXPECT_NEAR(small.areaMm2(), a.silicon.totalArea(), 1e-15);
}

// A systolic hop is a wire one PE pitch long and the flip-flop that receives the byte: a fraction
// of a MAC per byte (the old Eyeriss ratio made it 2x a MAC). Output-stationary moves one input
// and one weight byte a hop per MAC, so its links cost less than its MACs; weight-stationary
// moves a 4-byte partial sum down a hop per MAC as well, and pays for it.
TEST(Silicon, SystolicLinksCostLessThanTheMacs) {
  const arch::Accelerator a = arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  EXPECT_LT(a.noc.energy_pj_per_byte, a.array.mac_energy_pj / 2);
  models::WorkloadOptions o;
  const models::Graph g = models::build("gemm:M=256,K=256,N=256", o);
  const auto os = sim::simulate(g, a, dataflows::loadDataflow("os"), {}).energyByComponent();
  EXPECT_LT(component(os, "noc"), component(os, "array"));
  const auto ws = sim::simulate(g, a, dataflows::loadDataflow("ws"), {}).energyByComponent();
  EXPECT_GT(component(ws, "noc"), component(os, "noc"));
}

// DRAM energy comes from the memory type: a different MAC leaves it alone.
TEST(Silicon, TheMacDoesNotSetTheDramEnergy) {
  const std::string gemmini = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";
  const arch::Accelerator a = arch::loadFile(gemmini);
  const arch::Accelerator b = arch::loadFile(gemmini, {"array.mac_energy=5 pJ"});
  EXPECT_EQ(a.levels[0].read_energy_pj_per_byte, b.levels[0].read_energy_pj_per_byte);
  EXPECT_EQ(a.levels[1].read_energy_pj_per_byte, b.levels[1].read_energy_pj_per_byte);
  const arch::Accelerator hbm = arch::loadFile(gemmini, {"dram.type=hbm2"});
  EXPECT_DOUBLE_EQ(hbm.levels[0].read_energy_pj_per_byte, 8 * tech::dramPjPerBit("hbm2"));
}

std::string loadError(const std::string& yaml, const std::vector<std::string>& p = {}) {
  try {
    arch::loadString(yaml, "tiny.yaml", p);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Silicon, BadTechnologyInputIsLocated) {
  EXPECT_THAT(loadError(tinyDesign(), {"technology={node: 29nm}"}),
              AllOf(HasSubstr("technology.node"), HasSubstr("28nm")));
  EXPECT_THAT(loadError(tinyDesign(), {"dram.type=ddr9"}), AllOf(HasSubstr("dram.type"), HasSubstr("ddr4")));
  EXPECT_THAT(loadError(tinyDesign(), {"technology={table: /nonexistent/t.yaml}"}),
              HasSubstr("technology.table"));
  EXPECT_THAT(loadError(tinyDesign(), {"technology.voltage=5 V"}), HasSubstr("voltage"));
  EXPECT_THAT(loadError(tinyDesign(), {"scratchpad.area=-1 mm2"}), HasSubstr("scratchpad.area"));
  EXPECT_THAT(loadError(tinyDesign(), {"floorplan.macro_halo=-2 um"}), HasSubstr("floorplan.macro_halo"));
  EXPECT_THAT(loadError(tinyDesign(), {"floorplan.macro_halo=2"}), AllOf(HasSubstr("unit"), HasSubstr("um")));
  // The round table has no bf16 MAC: name the dtype and what to give instead.
  EXPECT_THAT(loadError(tinyDesign(), {"array.input_dtype=bf16", "array.weight_dtype=bf16", "array.accum_dtype=fp32",
                                       "accumulator.dtype=fp32"}),
              AllOf(HasSubstr("bf16"), HasSubstr("array.mac_energy")));
}

}  // namespace
}  // namespace tessel
