// The silicon around the blocks (arch/chip_parts.cpp) and the SRAM macro model
// (tech/memory.cpp), each number derived by hand from the 28 nm table.
#include <gtest/gtest.h>

#include <cmath>

#include "arch/chip_parts.h"
#include "arch/load.h"
#include "tech/memory.h"
#include "tech/technology.h"
#include "util/error.h"
#include "tiny.h"

namespace tessel::arch {
namespace {

const tech::Technology& t28() {
  static const tech::Technology t = tech::shippedTechnology("28nm", 0);
  return t;
}

// The periphery strip: a square 512 Kibit macro has the table's 0.75 array efficiency, so
// P = sqrt(524288) x (1 / sqrt(0.75) - 1) = 724.077 x 0.154701 = 112.016 cells.
double periphery() { return std::sqrt(524288.0) * (1 / std::sqrt(0.75) - 1); }

TEST(SramMacros, CountShapeAndPeripheryByHand) {
  // 256 KiB, 4 banks, a 128-bit word: max(4 banks, 1 for the word, 256 KiB / 64 KiB = 4) = 4
  // macros of 512 Kibit. Column mux 4 gives 1,024 rows x 512 columns (mux 8 is 512 x 1,024,
  // as far from square: the first is kept).
  tech::SramShape s{256 * 1024, 4, 1, 128};
  const tech::MacroPlan m = tech::sramMacros(t28(), s);
  EXPECT_EQ(m.count, 4);
  EXPECT_EQ(m.parallel, 1);
  EXPECT_DOUBLE_EQ(m.rows, 1024);
  EXPECT_DOUBLE_EQ(m.cols, 512);
  EXPECT_NEAR(m.periphery_cells, 112.016, 1e-3);
  const double eff = 1024.0 * 512 / ((1024 + periphery()) * (512 + periphery()));  // 0.7396
  EXPECT_NEAR(eff, 0.7396, 1e-4);
  const tech::MemoryCost c = tech::sram(t28(), s);
  EXPECT_EQ(c.macros, 4);
  EXPECT_NEAR(c.area_mm2, 256 * 1024 * 8 * 0.127 / eff * 1e-6, 1e-12);  // 0.360 mm2
}

TEST(SramMacros, AWideWordTakesMacrosSideBySide) {
  // 24 MiB read 2,048 bits at a time: 2,048 / 256 = 8 macros side by side; 24 MiB / 64 KiB =
  // 384 macros, a multiple of 8. Each 512 Kibit with a 256-bit word: mux 4, 512 x 1,024.
  tech::SramShape s{24u << 20, 24, 1, 2048};
  const tech::MacroPlan m = tech::sramMacros(t28(), s);
  EXPECT_EQ(m.parallel, 8);
  EXPECT_EQ(m.count, 384);
  EXPECT_DOUBLE_EQ(m.rows * m.cols, 524288);
  // 9 macros' worth of word (2,304 bits over 256-bit macros) rounds the count up to 9 per row.
  tech::SramShape odd{72 * 1024, 1, 1, 2304};
  const tech::MacroPlan o = tech::sramMacros(t28(), odd);
  EXPECT_EQ(o.parallel, 9);
  EXPECT_EQ(o.count, 9);  // 72 KiB / 64 KiB = 2 < 9
}

TEST(SramMacros, ASmallMacroIsMostlyPeriphery) {
  // Eyeriss's filter scratchpad, 224 x 16 b = 3,584 bits read 16 bits at a time: one macro;
  // mux 4 gives 56 x 64 (closest to square). Efficiency 3,584 / (168.016 x 176.016) = 0.121.
  tech::SramShape s{448, 1, 1, 16};
  const tech::MacroPlan m = tech::sramMacros(t28(), s);
  EXPECT_EQ(m.count, 1);
  EXPECT_DOUBLE_EQ(m.rows, 56);
  EXPECT_DOUBLE_EQ(m.cols, 64);
  EXPECT_NEAR(m.efficiency(), 3584 / ((56 + periphery()) * (64 + periphery())), 1e-12);
  EXPECT_LT(m.efficiency(), 0.13);
}

TEST(SramMacros, EachPlacedMacroKeepsItsHaloShared) {
  // Eyeriss's 448 B filter pad at 28 nm: one macro of (64 + P) x (56 + P) cells of 0.127 um2
  // (side 0.35637 um): 62.73 x 59.87 um. Alone in its PE it keeps 16 um all round:
  // (62.73 + 32) x (59.87 + 32) = 8,704 um2, 2.3x the macro's 3,756 um2.
  const double side = std::sqrt(0.127), w = (64 + periphery()) * side, h = (56 + periphery()) * side;
  tech::SramShape pad{448, 1, 1, 16};
  pad.halo_um = 16;
  const tech::MemoryCost one = tech::sram(t28(), pad);
  EXPECT_NEAR(one.macro_mm2, w * h * 1e-6, 1e-12);
  EXPECT_NEAR(one.area_mm2, (w + 32) * (h + 32) * 1e-6, 1e-12);
  EXPECT_NEAR(one.area_mm2 / one.macro_mm2, 2.32, 0.01);
  // Four macros (256 KiB in 4 banks, each 1,024 rows x 512 columns) in a 2 x 2
  // grid share the space between them: (2 (w + a) + a) x (2 (h + a) + a).
  tech::SramShape four{256 * 1024, 4, 1, 128};
  four.halo_um = 16;
  const double w4 = (512 + periphery()) * side, h4 = (1024 + periphery()) * side;
  EXPECT_NEAR(tech::sram(t28(), four).area_mm2, (2 * (w4 + 16) + 16) * (2 * (h4 + 16) + 16) * 1e-6, 1e-12);
  // Three fill a 2 x 2 grid but for one slot, which is not counted: 3 tiles + the edges.
  EXPECT_NEAR(tech::placedMacrosUm2(3, 10, 20, 2), 3 * 12 * 22 + 2 * (2 * 12 + 2 * 22) + 4, 1e-9);
  // Without a halo the macros abut: the placed area is the macros'.
  four.halo_um = 0;
  EXPECT_NEAR(tech::sram(t28(), four).area_mm2, tech::sram(t28(), four).macro_mm2, 1e-12);
  // No bits, no macros and no area (not 0 / 0).
  tech::SramShape empty{0};
  empty.halo_um = 16;
  const tech::MemoryCost none = tech::sram(t28(), empty);
  EXPECT_EQ(none.macros, 0);
  EXPECT_EQ(none.area_mm2, 0);
  EXPECT_EQ(none.macro_mm2, 0);
  // A bigger halo never shrinks a memory.
  four.halo_um = 40;
  EXPECT_GT(tech::sram(t28(), four).area_mm2, (2 * (w4 + 16) + 16) * (2 * (h4 + 16) + 16) * 1e-6);
}

Accelerator tiny28(const std::vector<std::string>& overrides) {
  std::string yaml = testing::join(testing::kTiny) + "technology: {node: 28nm}\n";
  return loadString(yaml, "tiny.yaml", overrides);
}

double component(const Silicon& s, const std::string& name) {
  for (const auto& [c, mm2] : s.area_mm2) {
    if (c == name) return mm2;
  }
  return -1;
}

TEST(ChipParts, ControllerAndDmaByHand) {
  const Accelerator a = tiny28({});
  const tech::Technology& t = t28();
  // NAND2: 0.798 um2 x 50.43 / 137 (the 28 nm add over Horowitz's) = 0.29374 um2.
  const double nand2 = 0.798 * 50.43 / 137;
  EXPECT_NEAR(tech::nand2AreaUm2(t), nand2, 1e-12);
  // Controller: 20,000 gates + (8 + 16 + 4) entries x 128 bits of flip-flops (2.26 um2/bit),
  // placed at 0.7: (5,874.8 + 8,099.8) / 0.7 um2 = 0.019964 mm2.
  const double ctl = (20000 * nand2 + 28 * 128 * 2.26) / 0.7 * 1e-6;
  EXPECT_NEAR(a.controller.area_mm2, ctl, 1e-9);
  EXPECT_NEAR(component(a.silicon, "control"), ctl, 1e-9);
  // Its energy per cycle: 20,000 gates x 0.1 x (0.0518 pJ / (50.43 / 0.29374) gates).
  EXPECT_NEAR(a.controller.energy_pj_per_cycle, 20000 * 0.1 * 0.0518 / (50.43 / nand2), 1e-12);
  // DMA: 2 engines x (15,000 gates / 0.7 + an SRAM of 16 x 64 B read 128 bits at a time).
  tech::SramShape buffer{1024, 1, 1, 128};
  buffer.halo_um = 16.0;  // the 28 nm table's macro halo
  const double dma = 2 * (15000 * nand2 / 0.7 * 1e-6 + tech::sram(t, buffer).area_mm2);
  EXPECT_NEAR(a.dma.area_mm2, dma, 1e-9);
}

TEST(ChipParts, DramPhyFromChannelsAndBumps) {
  // 16 B/cycle at 1 GHz = 16 GB/s of DDR4 (the default type): one 25.6 GB/s channel, 118
  // signals, each with a supply bump, at a 150 um pitch: 118 x 2 x 0.0225 = 5.31 mm2.
  const Accelerator a = tiny28({});
  EXPECT_EQ(a.levels[0].phy_channels, 1);
  EXPECT_NEAR(a.levels[0].phy_area_mm2, 118 * 2 * 0.0225, 1e-9);
  // 64 GB/s of LPDDR4 (8.53 GB/s per x16 channel): 8 channels x 32 signals x 2 x 0.0225.
  const Accelerator l = tiny28({"dram.type=lpddr4", "dram.bandwidth=64 B/cycle"});
  EXPECT_EQ(l.levels[0].phy_channels, 8);
  EXPECT_NEAR(l.levels[0].phy_area_mm2, 8 * 32 * 2 * 0.0225, 1e-9);
  // PCIe lanes add their SerDes; both are the I/O component.
  const Accelerator p = tiny28({"host.link.lanes=16"});
  EXPECT_NEAR(component(p.silicon, "io"), 118 * 2 * 0.0225 + 16 * 0.5, 1e-9);
}

TEST(ChipParts, AccumulatorAddersAndPlacement) {
  const Accelerator a = tiny28({});
  const Accelerator half = tiny28({"floorplan.logic_utilization=0.35"});
  // Halving the utilization doubles every placed logic area (the array's PEs), not the SRAM.
  EXPECT_NEAR(half.array.area_mm2, 2 * a.array.area_mm2, 1e-12);
  EXPECT_NEAR(half.levels[1].area_mm2, a.levels[1].area_mm2, 1e-12);
  // The accumulator's 16 INT32 adders (64 B rows / 4 B) are placed logic beside its SRAM.
  const double adders = 16 * 50.43e-6;
  EXPECT_NEAR(half.levels[2].area_mm2 - a.levels[2].area_mm2, adders / 0.35 - adders / 0.7, 1e-12);
}

TEST(ChipParts, AnEpilogueHasALanePerColumnAndAUnitPerOp) {
  // 16 lanes (array.cols) at INT32 (accum_dtype), 28 nm: relu the integer add (50.43 um2,
  // 0.0518 pJ); requantize the INT32 MAC (1,337 um2, 1.66 pJ); maxpool the add and a 32-bit
  // register (32 x 2.26 = 72.32 um2; 32 x 0.00466 = 0.14912 pJ written); residual_add nothing:
  // the residual adds into the accumulator with its own adders.
  const Accelerator a = tiny28({"array.epilogue_ops=[relu, requantize, maxpool, residual_add]"});
  const double lane_um2 = 50.43 + 1337 + (50.43 + 72.32);
  EXPECT_NEAR(a.array.epilogue_area_mm2, 16 * lane_um2 * 1e-6 / 0.7, 1e-9);  // 0.0345 mm2
  EXPECT_NEAR(component(a.silicon, "epilogue"), a.array.epilogue_area_mm2, 1e-12);
  EXPECT_NEAR(a.array.epiloguePj("relu"), 0.0518, 1e-12);
  EXPECT_NEAR(a.array.epiloguePj("requantize"), 1.66, 1e-12);
  EXPECT_NEAR(a.array.epiloguePj("maxpool"), 0.0518 + 0.14912, 1e-9);
  EXPECT_EQ(a.array.epiloguePj("residual_add"), 0);
  EXPECT_EQ(a.array.epiloguePj("avgpool"), 0);  // not listed: the epilogue does not apply it
  // Without epilogue ops there is no epilogue; given values replace the derived ones.
  EXPECT_EQ(component(tiny28({}).silicon, "epilogue"), -1);
  const Accelerator given = tiny28({"array.epilogue_ops=[relu, requantize]",
                                    "array.epilogue_energy=2 pJ", "array.epilogue_area=0.5 mm2"});
  EXPECT_DOUBLE_EQ(given.array.epiloguePj("requantize"), 2);
  EXPECT_DOUBLE_EQ(component(given.silicon, "epilogue"), 0.5);
}

TEST(ChipParts, ClockEnergyPerCycleByHand) {
  // A 16 x 16 INT8 systolic PE running WS and OS clocks its pipeline (pipelineBytes): kept, the
  // wider of WS's two weights and OS's two INT32 sums, 8 B; passing, the input and the wider of
  // WS's sum and OS's weight, 1 + 4 B: 13 B = 104 bits; its edges' skew registers (skewBytes:
  // 720 B = 5,760 bits); the controller's queues, 8 + 16 + 4 entries of 128 bits, a gate per
  // entry (their flip-flops on writes). Each load costs the 28 nm flip-flop's 0.00466 pJ per
  // cycle.
  const Accelerator a = tiny28({});
  ASSERT_EQ(a.silicon.clocked.size(), 3u);
  EXPECT_NEAR(a.silicon.clocked[0].pj_per_cycle, 28 * 0.00466, 1e-9);  // every cycle
  EXPECT_FALSE(a.silicon.clocked[0].while_computing);
  EXPECT_NEAR(a.silicon.clocked[1].pj_per_cycle, (256 * 104 + 5760) * 0.00466, 1e-9);  // gated
  EXPECT_TRUE(a.silicon.clocked[1].while_computing);
  // Without clock gating the array's flip-flops join the always-clocked load, and every bit of
  // the queues (3,584) is clocked.
  const Accelerator u = tiny28({"floorplan.clock_gating=false"});
  ASSERT_EQ(u.silicon.clocked.size(), 2u);
  EXPECT_NEAR(u.silicon.clocked[0].pj_per_cycle, (3584 + 256 * 104 + 5760) * 0.00466, 1e-9);
}

TEST(ChipParts, APesPipelineHoldsWhatItsDataflowsKeep) {
  // INT8 inputs and weights, INT32 sums, bytes of flip-flops per PE:
  //   systolic WS (TPU v1):  2 weights kept + input and sum passing  = 2 + 1 + 4 = 7
  //   systolic OS:           2 sums kept + input and weight passing  = 8 + 1 + 1 = 10
  //   systolic WS and OS:    shared, the wider: 8 kept + 1 + 4 passing = 13 (Gemmini's PE)
  //   spatial (sums in the register file): as WS                      = 7
  const auto bytes = [](const std::vector<std::string>& o) { return pipelineBytes(tiny28(o).array); };
  EXPECT_EQ(bytes({"array.dataflows=[ws]"}), 7u);
  EXPECT_EQ(bytes({"array.dataflows=[os]"}), 10u);
  EXPECT_EQ(bytes({}), 13u);
  EXPECT_EQ(bytes({"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]"}), 7u);
  // FP16 operands with FP32 sums, both dataflows: max(2 x 2, 2 x 4) + 2 + max(4, 2) = 14.
  EXPECT_EQ(bytes({"array.input_dtype=fp16", "array.weight_dtype=fp16", "array.accum_dtype=fp32",
                   "accumulator.dtype=fp32", "array.throughput={fp16: 1}"}),
            14u);
}

TEST(ChipParts, ASystolicArraysEdgesLineItsOperandsUp) {
  // 16 x 16, INT8 operands, INT32 sums; a triangle of 16 x 15 / 2 = 120 registers per skewed
  // lane: the inputs' skew 120 x 1 B, OS's weights' 120 x 1 B, the results' deskew 120 x 4 B
  // (the accumulator's 2 banks are fewer than the 16 columns): 720 B.
  EXPECT_EQ(skewBytes(tiny28({})), 720u);
  EXPECT_EQ(skewBytes(tiny28({"array.dataflows=[ws]"})), 600u);  // weights preload: no skew
  // A bank per column takes each column's results on its own schedule (TPU v1): inputs only
  // (and OS's weights).
  EXPECT_EQ(skewBytes(tiny28({"array.dataflows=[ws]", "accumulator.banks=16"})), 120u);
  EXPECT_EQ(skewBytes(tiny28({"array.kind=spatial", "noc.kind=mesh"})), 0u);
  // Placed with the PEs: 720 B of 28 nm flip-flops (2.26 um2 a bit) over the utilization.
  const Accelerator ws = tiny28({"array.dataflows=[ws]"});
  const Accelerator banked = tiny28({"array.dataflows=[ws]", "accumulator.banks=16"});
  EXPECT_NEAR(ws.array.area_mm2 - banked.array.area_mm2, 480 * 8 * 2.26e-6 / 0.7, 1e-12);
}

TEST(ChipParts, APeMeshHasNeighbourFifosClockedWithTheArray) {
  // A 16 x 16 spatial PE mesh: no routers, two neighbour FIFOs of 2 INT8 flits per PE, 32
  // flip-flop bits (2.26 um2 each, placed at 0.7); clocked with the array, gated: a gate per
  // flit, 4 per PE.
  const Accelerator a = tiny28({"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]"});
  EXPECT_EQ(a.noc.routers, 256);
  EXPECT_NEAR(a.noc.area_mm2, 256 * 32 * 2.26 / 0.7 * 1e-6, 1e-12);
  ASSERT_EQ(a.silicon.clocked.size(), 3u);
  EXPECT_NEAR(a.silicon.clocked[1].pj_per_cycle, 256 * (56 + 4) * 0.00466, 1e-9);
  EXPECT_TRUE(a.silicon.clocked[1].while_computing);
  EXPECT_NEAR(a.silicon.clocked[0].pj_per_cycle, 28 * 0.00466, 1e-9);  // the queues alone
}

TEST(ChipParts, AFlipFlopRegisterFileIsClockedAGatePerWordOrEveryBit) {
  // Eyeriss-like pads on the tiny 16 x 16 INT8 mesh (accumulating in INT32): inputs 24 B = 24
  // words, outputs 48 B = 12 words, the 448 B weight pad an SRAM macro (it clocks itself). With
  // clock gating each word's gate sees the clock while the array computes: 56 pipeline bits + 4
  // FIFO gates + 36 pad gates per PE. Without, every flip-flop bit every cycle: 56 + 32 + 576.
  const std::vector<std::string> pads = {"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]",
                                         "array.register_file={weights: 448 B, inputs: 24 B, outputs: 48 B}",
                                         "array.register_file_sram=[weights]"};
  const Accelerator gated = tiny28(pads);
  ASSERT_EQ(gated.silicon.clocked.size(), 3u);
  EXPECT_NEAR(gated.silicon.clocked[1].pj_per_cycle, 256 * (56 + 4 + 36) * 0.00466, 1e-9);
  std::vector<std::string> ungated = pads;
  ungated.push_back("floorplan.clock_gating=false");
  const Accelerator u = tiny28(ungated);
  ASSERT_EQ(u.silicon.clocked.size(), 2u);
  EXPECT_NEAR(u.silicon.clocked[0].pj_per_cycle, (3584 + 256 * (56 + 32 + 72 * 8)) * 0.00466, 1e-9);
}

TEST(ChipParts, AScratchPadBuiltAsSram) {
  // Eyeriss's PE: a 448 B weight pad, 24 B of inputs, 48 B of outputs. As flip-flops: 520 B x 8
  // x 3.03 um2 / 0.7 per PE. With the weight pad an SRAM macro (read one INT8 value at a time:
  // 3,584 bits, 56 x 64 cells, efficiency 0.121): that macro + the other 72 B of flip-flops.
  const std::vector<std::string> pads = {"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]",
                                         "array.register_file={weights: 448 B, inputs: 24 B, outputs: 48 B}"};
  const Accelerator flops = tiny28(pads);
  std::vector<std::string> sram = pads;
  sram.push_back("array.register_file_sram=[weights]");
  const Accelerator macro = tiny28(sram);
  EXPECT_NEAR(flops.array.register_file_area_mm2, 256 * 520 * 8 * 3.03 / 0.7 * 1e-6, 1e-9);
  tech::SramShape pad{448, 1, 1, 8};
  pad.halo_um = 16.0;  // the 28 nm table's macro halo, all round: the pad is one macro in its PE
  const double want = 256 * (tech::sram(t28(), pad).area_mm2 + 72 * 8 * 3.03 / 0.7 * 1e-6);
  EXPECT_NEAR(macro.array.register_file_area_mm2, want, 1e-9);
  // A tensor without a pad of its own cannot be one.
  try {
    tiny28({"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]", "array.register_file=64 B",
            "array.register_file_sram=[weights]"});
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("array.register_file_sram"), std::string::npos) << e.what();
  }
  // A name that is no tensor is called what it is not.
  std::vector<std::string> bias = pads;
  bias.push_back("array.register_file_sram=[bias]");
  try {
    tiny28(bias);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown tensor 'bias'; accepted: inputs, weights, outputs"),
              std::string::npos)
        << e.what();
  }
}

TEST(ChipParts, EachPadCostsItsOwnSizeAndKind) {
  // Eyeriss's pads at 28 nm: a flip-flop pad of B bytes costs ff + (rf - ff) x log2(B / 8) / 6
  // per byte (ff = 8 x 0.00466, rf = 8 x 0.0287 pJ): 24 B x = 0.26416, 48 B x = 0.43083. The
  // weight pad as an SRAM macro of 3,584 bits read 8 bits at a time costs its read:
  // 8 x (0.01585 + 3.101e-4 x sqrt(3584)) pJ per byte.
  const std::vector<std::string> pads = {"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]",
                                         "array.register_file={weights: 448 B, inputs: 24 B, outputs: 48 B}",
                                         "array.register_file_sram=[weights]"};
  const Accelerator a = tiny28(pads);
  const double ff = 8 * 0.00466, rf = 8 * 0.0287;
  EXPECT_NEAR(a.array.rf_pad_read_pj[0], ff + (rf - ff) * std::log2(3.0) / 6, 1e-9);    // 0.0881
  EXPECT_NEAR(a.array.rf_pad_read_pj[2], ff + (rf - ff) * std::log2(6.0) / 6, 1e-9);    // 0.1201
  EXPECT_NEAR(a.array.rf_pad_write_pj[2], a.array.rf_pad_read_pj[2], 1e-12);
  EXPECT_NEAR(a.array.rf_pad_read_pj[1], 8 * (0.01585 + 3.101e-4 * std::sqrt(3584.0)), 1e-6);  // 0.2753
  // The file's one energy stays the largest pad's, as flip-flops (the table's at 448 B).
  EXPECT_NEAR(a.array.rf_energy_pj_per_byte, ff + (rf - ff) * std::log2(56.0) / 6, 1e-9);
  // A given energy is every pad's; a shared file has no pads.
  std::vector<std::string> given = pads;
  given.push_back("array.register_file_energy=0.5 pJ/B");
  EXPECT_EQ(tiny28(given).array.rf_pad_read_pj[0], -1);
  EXPECT_EQ(tiny28({"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]", "array.register_file=64 B"})
                .array.rf_pad_read_pj[1],
            -1);
}

TEST(ChipParts, OnChipSramByHand) {
  // tiny: a 256 KiB scratchpad in 4 banks (4 macros of 64 KiB), a 64 KiB accumulator of 64 B
  // rows (512 bits: 2 macros side by side), 2 DMA engines with 16 x 64 B in flight (1 KiB, one
  // macro each).
  const Accelerator a = tiny28({});
  ASSERT_EQ(a.silicon.sram.size(), 3u);
  EXPECT_EQ(a.silicon.sram[0].component, "scratchpad");
  EXPECT_EQ(a.silicon.sram[0].bytes, 262144);
  EXPECT_EQ(a.silicon.sram[0].macros, 4);
  EXPECT_EQ(a.silicon.sram[1].bytes, 65536);
  EXPECT_EQ(a.silicon.sram[1].macros, 2);
  EXPECT_EQ(a.silicon.sram[2].component, "dma");
  EXPECT_EQ(a.silicon.sram[2].bytes, 2048);
  EXPECT_EQ(a.silicon.sram[2].macros, 2);
  // A 448 B pad built as SRAM in each of 256 PEs, and a 32 KiB instruction memory.
  const Accelerator p = tiny28({"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]",
                                "array.register_file={weights: 448 B, inputs: 24 B, outputs: 48 B}",
                                "array.register_file_sram=[weights]", "controller.instruction_memory=32 KiB"});
  ASSERT_EQ(p.silicon.sram.size(), 5u);
  EXPECT_EQ(p.silicon.sram[2].component, "register_file");
  EXPECT_EQ(p.silicon.sram[2].bytes, 256 * 448);
  EXPECT_EQ(p.silicon.sram[2].macros, 256);
  EXPECT_EQ(p.silicon.sram[3].component, "control");
  EXPECT_EQ(p.silicon.sram[3].bytes, 32768);
  EXPECT_EQ(p.silicon.sram[3].macros, 1);
}

double gates(const Silicon& s, const std::string& name) {
  for (const auto& [c, n] : s.logic_gates) {
    if (c == name) return n;
  }
  return 0;
}

TEST(ChipParts, LogicGatesByHand) {
  // A chip's gate count: each logic component's standard cells over the 28 nm NAND2 (0.29374
  // um2), before placement; SRAM macros are not gates.
  const Accelerator a = tiny28({});
  const double nand2 = 0.798 * 50.43 / 137;
  // 256 PEs of an INT8 MAC (154.2 um2) and 104 bits of pipeline flip-flops (2.26 um2 each),
  // and the edges' 5,760 bits of skew registers.
  EXPECT_NEAR(gates(a.silicon, "array"), (256 * (154.2 + 104 * 2.26) + 5760 * 2.26) / nand2, 1e-6);
  // The accumulator's 16 INT32 adders (50.43 um2 each), not its SRAM; the scratchpad none.
  EXPECT_NEAR(gates(a.silicon, "accumulator"), 16 * 50.43 / nand2, 1e-9);
  EXPECT_EQ(gates(a.silicon, "scratchpad"), 0);
  // The controller's 20,000 gates and its queues' 3,584 flip-flop bits; two DMA engines of
  // 15,000 gates each (their in-flight buffers are SRAM).
  EXPECT_NEAR(gates(a.silicon, "control"), 20000 + 3584 * 2.26 / nand2, 1e-6);
  EXPECT_NEAR(gates(a.silicon, "dma"), 30000, 1e-6);
  EXPECT_NEAR(a.silicon.totalLogicGates(),
              gates(a.silicon, "array") + gates(a.silicon, "accumulator") + 20000 + 3584 * 2.26 / nand2 + 30000,
              1e-6);
  // Placement does not change a gate count.
  const Accelerator half = tiny28({"floorplan.logic_utilization=0.35"});
  EXPECT_NEAR(half.silicon.totalLogicGates(), a.silicon.totalLogicGates(), 1e-6);
  // A pad of flip-flops is gates (3.03 um2 a bit); the same pad as an SRAM macro is not.
  const std::vector<std::string> pads = {"array.kind=spatial", "noc.kind=mesh", "array.dataflows=[os]",
                                         "array.register_file={weights: 448 B, inputs: 24 B, outputs: 48 B}"};
  std::vector<std::string> sram = pads;
  sram.push_back("array.register_file_sram=[weights]");
  EXPECT_NEAR(gates(tiny28(pads).silicon, "register_file"), 256 * 520 * 8 * 3.03 / nand2, 1e-6);
  EXPECT_NEAR(gates(tiny28(sram).silicon, "register_file"), 256 * 72 * 8 * 3.03 / nand2, 1e-6);
  // An area the design gives counts as placed cells: 1 mm2 at 0.7 is 0.7 mm2 of gates.
  EXPECT_NEAR(gates(tiny28({"array.area=1 mm2"}).silicon, "array"), 0.7e6 / nand2, 1e-3);
}

}  // namespace
}  // namespace tessel::arch
