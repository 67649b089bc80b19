// The shipped configs load, with canonical values traced to their sources.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "tech/memory.h"
#include "tech/technology.h"
#include "tiny.h"

namespace tessel::arch {
namespace {

Accelerator shipped(const std::string& name) {
  return loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml");
}

TEST(ArchConfigTest, GemminiDefaultMatchesDefaultConfig) {
  const Accelerator a = shipped("gemmini-default");
  EXPECT_EQ(a.name, "gemmini-default");
  EXPECT_DOUBLE_EQ(a.clock_hz, 1e9);
  ASSERT_EQ(a.levels.size(), 3u);  // DRAM, scratchpad, accumulator: no L2
  EXPECT_EQ(a.levels[0].kind, LevelKind::DRAM);
  EXPECT_EQ(a.levels[1].kind, LevelKind::Scratchpad);
  EXPECT_EQ(a.levels[2].kind, LevelKind::Accumulator);

  const StorageLevel& dram = a.levels[0];
  EXPECT_DOUBLE_EQ(dram.bandwidth, 16);  // 16 B/cycle
  EXPECT_DOUBLE_EQ(dram.latency, 100);   // 100 ns at 1 GHz
  EXPECT_EQ(dram.capacity_bytes, 16ull << 30);

  const StorageLevel& sp = a.levels[1];
  EXPECT_EQ(sp.capacity_bytes, 262144u);  // 256 KiB
  EXPECT_EQ(sp.banks, 4);
  EXPECT_EQ(sp.row_bytes, 16);                                    // 16 x int8
  EXPECT_EQ(sp.capacity_bytes / sp.banks / sp.row_bytes, 4096u);  // rows per bank
  EXPECT_TRUE(sp.holds.inputs && sp.holds.weights && !sp.holds.outputs);
  EXPECT_DOUBLE_EQ(sp.bandwidth, 64);  // derived: 4 banks x 16 B

  const StorageLevel& acc = a.levels[2];
  EXPECT_EQ(acc.capacity_bytes, 65536u);  // 64 KiB
  EXPECT_EQ(acc.banks, 2);
  EXPECT_EQ(acc.row_bytes, 64);  // 16 x int32
  EXPECT_EQ(acc.capacity_bytes / acc.row_bytes, 1024u);
  EXPECT_EQ(acc.ports, 2);
  EXPECT_EQ(acc.dtype, DType::Int32);
  EXPECT_TRUE(acc.holds.outputs && !acc.holds.inputs);
}

TEST(ArchConfigTest, GemminiDefaultArrayDmaAndHost) {
  const Accelerator a = shipped("gemmini-default");
  EXPECT_DOUBLE_EQ(a.dma.bus_bytes_per_cycle, 16);  // 128-bit bus
  EXPECT_EQ(a.dma.max_request_bytes, 64);
  EXPECT_EQ(a.dma.max_inflight, 16);
  const ComputeArray& arr = a.array;
  EXPECT_EQ(arr.rows, 16);
  EXPECT_EQ(arr.cols, 16);
  EXPECT_EQ(arr.kind, ArrayKind::Systolic);
  EXPECT_EQ(arr.input_dtype, DType::Int8);
  EXPECT_EQ(arr.accum_dtype, DType::Int32);
  EXPECT_EQ(arr.dataflows, (std::vector<std::string>{"ws", "os"}));
  EXPECT_TRUE(arr.supportsDataflow("os"));
  EXPECT_FALSE(arr.supportsDataflow("rs"));
  EXPECT_DOUBLE_EQ(arr.macRate(DType::Int8), 1);
  EXPECT_DOUBLE_EQ(arr.macRate(DType::FP16), 0);  // not listed: unsupported
  EXPECT_EQ(arr.epilogue_ops,
            (std::vector<std::string>{"relu", "requantize", "residual_add", "maxpool"}));
  EXPECT_LT(arr.pipeline_latency, 0);  // not given: engines use rows + cols - 2
  EXPECT_FALSE(a.sfu.has_value());     // GELU/softmax/LayerNorm run on the host
  EXPECT_DOUBLE_EQ(a.host.clock_hz, 2e9);
  EXPECT_DOUBLE_EQ(a.host.flops, 32e9);
  EXPECT_DOUBLE_EQ(a.host.mem_bandwidth_bytes_per_s, 25.6e9);
  EXPECT_DOUBLE_EQ(a.host.link_bandwidth, 16);
  EXPECT_DOUBLE_EQ(a.host.link_latency, 500);       // 500 ns at the 1 GHz accelerator clock
  EXPECT_DOUBLE_EQ(a.host.offload_overhead, 1000);  // 1 us at 1 GHz
  EXPECT_DOUBLE_EQ(a.host.costPerElement("softmax"), 40);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("batchnorm"), 2);  // not in the file: the default
  EXPECT_DOUBLE_EQ(a.host.costPerElement("matmul"), -1);    // not an element-wise op
}

// gemmini-default is a 16 nm design (its technology section): the MAC is the 16 nm table's
// int8 MAC, DRAM is 8 x ddr3's pJ/bit whatever the MAC, and a systolic hop (wire + flip-flop) is
// below a MAC per byte.
TEST(ArchConfigTest, GemminiDefaultEnergiesComeFromItsTechnology) {
  const Accelerator a = shipped("gemmini-default");
  const tech::Technology t = tech::shippedTechnology("16nm", 0);
  EXPECT_DOUBLE_EQ(a.array.mac_energy_pj, t.macOf(DType::Int8)->energy_pj);
  EXPECT_DOUBLE_EQ(a.levels[0].read_energy_pj_per_byte, 8 * tech::dramPjPerBit("ddr3"));
  tech::SramShape scratchpad{256 * 1024, 4, 1};
  scratchpad.halo_um = t.sram.macro_halo_um;  // the H-tree crosses the space between the macros
  EXPECT_DOUBLE_EQ(a.levels[1].read_energy_pj_per_byte, tech::sram(t, scratchpad).read_pj_per_byte);
  EXPECT_LT(a.noc.energy_pj_per_byte, a.array.mac_energy_pj);
  EXPECT_GT(a.silicon.totalArea(), 0);
}

TEST(ArchConfigTest, SurveyModelMatchesTheAnalyticalModelDefaults) {
  const Accelerator a = shipped("gemmini-survey-model");
  EXPECT_DOUBLE_EQ(a.clock_hz, 1e9);
  ASSERT_EQ(a.levels.size(), 4u);
  EXPECT_EQ(a.levels[1].kind, LevelKind::L2);   // DRAM, L2, then the local memories
  EXPECT_DOUBLE_EQ(a.levels[0].bandwidth, 64);  // L2 <-> DRAM
  EXPECT_DOUBLE_EQ(a.levels[0].latency, 0);     // the model has no latency term
  EXPECT_EQ(a.levels[1].capacity_bytes, 2u << 20);
  EXPECT_DOUBLE_EQ(a.levels[1].bandwidth, 16);  // local <-> L2
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->capacity_bytes, 256u << 10);
  EXPECT_EQ(a.level(LevelKind::Accumulator)->capacity_bytes, 128u << 10);
  EXPECT_EQ(a.level(LevelKind::Accumulator)->row_bytes, 64);  // derived: 16 x int32
  EXPECT_EQ(a.array.rows, 16);
  EXPECT_DOUBLE_EQ(a.array.pipeline_latency, 16);
  ASSERT_TRUE(a.sfu.has_value());
  EXPECT_EQ(a.sfu->ops, (std::vector<std::string>{"softmax", "layernorm", "gelu", "add"}));
  EXPECT_EQ(a.sfu->lanes, 16);
  EXPECT_TRUE(a.sfu->integer);
  EXPECT_DOUBLE_EQ(a.sfu->cycles_per_vector, 1);
  EXPECT_DOUBLE_EQ(a.host.clock_hz, 2e9);  // no host: section, the schema defaults
}

TEST(ArchConfigTest, TpuV1LikeMatchesThePaper) {
  const Accelerator a = shipped("tpu-v1-like");
  EXPECT_DOUBLE_EQ(a.clock_hz, 700e6);
  EXPECT_DOUBLE_EQ(a.levels[0].bandwidth, 30e9 / 700e6);  // 30 GB/s in B/cycle (~42.9)
  EXPECT_DOUBLE_EQ(a.levels[0].latency, 70);              // 100 ns at 700 MHz
  const StorageLevel* ub = a.level(LevelKind::Scratchpad);
  ASSERT_NE(ub, nullptr);
  EXPECT_EQ(ub->capacity_bytes, 24u << 20);
  EXPECT_TRUE(ub->holds.inputs && !ub->holds.weights);  // weights stream from DRAM
  EXPECT_EQ(a.level(LevelKind::Accumulator)->capacity_bytes, 4u << 20);
  EXPECT_EQ(a.level(LevelKind::Accumulator)->capacity_bytes / 1024, 4096u);  // 4096 x 256 x 4 B
  EXPECT_EQ(a.array.rows, 256);
  EXPECT_EQ(a.array.cols, 256);
  EXPECT_EQ(a.array.dataflows, std::vector<std::string>{"ws"});
  EXPECT_FALSE(a.sfu.has_value());
  EXPECT_DOUBLE_EQ(a.host.link_bandwidth, 15.75e9 / 700e6);  // PCIe Gen3 x16: 22.5 B/cycle
}

TEST(ArchConfigTest, AnEyerissLikeGlobalBufferDesignLoads) {
  const std::string yaml =
      "name: eyeriss-like\nclock: 200 MHz\n"
      "dram: {bandwidth: 8 B/cycle, latency: 100 cycles}\n"
      "global_buffer: {capacity: 108 KiB, banks: 27, row_width: 8 B}\n"
      "array: {kind: spatial, rows: 12, cols: 14, input_dtype: int16, weight_dtype: int16,\n"
      "        accum_dtype: int32, dataflows: [rs, nlr], register_file: 512 B}\n"
      "noc: {kind: mesh, multicast: true}\n";
  const Accelerator a = loadString(yaml, "eyeriss.yaml");
  ASSERT_EQ(a.levels.size(), 2u);
  EXPECT_EQ(a.levels[1].kind, LevelKind::GlobalBuffer);
  EXPECT_EQ(a.levels[1].capacity_bytes, 108u * 1024);
  EXPECT_DOUBLE_EQ(a.levels[1].bandwidth, 27 * 8);  // derived: banks x row_width
  EXPECT_TRUE(a.levels[1].holds.inputs && a.levels[1].holds.weights && a.levels[1].holds.outputs);
  EXPECT_EQ(a.array.kind, ArrayKind::Spatial);
  EXPECT_EQ(a.array.pe_register_file_bytes, 512);
  EXPECT_TRUE(a.noc.multicast);
  EXPECT_EQ(a.noc.kind, "mesh");
}

TEST(ArchConfigTest, ShippedEyerissLikeMatchesThePapers) {
  const Accelerator a = shipped("eyeriss-like");
  EXPECT_DOUBLE_EQ(a.clock_hz, 200e6);
  EXPECT_DOUBLE_EQ(a.levels[0].bandwidth, 720e6 / 200e6);  // 64-bit bus at 90 MHz: 3.6 B/cycle
  const StorageLevel* gb = a.level(LevelKind::GlobalBuffer);
  ASSERT_NE(gb, nullptr);
  EXPECT_EQ(gb->capacity_bytes, 108u * 1024);  // + 168 x 448 B of filter pads = 181.5 KiB of SRAM
  EXPECT_EQ(a.array.rows * a.array.cols, 168);
  EXPECT_EQ(a.array.kind, ArrayKind::Spatial);
  // 16-bit scratch-pad entries: filter 224, ifmap 12, psum 24.
  EXPECT_TRUE(a.array.rf_partitioned);
  EXPECT_EQ(a.array.rf_weight_bytes, 224 * 2);
  EXPECT_EQ(a.array.rf_input_bytes, 12 * 2);
  EXPECT_EQ(a.array.rf_output_bytes, 24 * 2);
  EXPECT_EQ(a.array.pe_register_file_bytes, 520);
  // The ISCA 2016 costs per 16-bit access, normalized to a MAC (RF 1, NoC 2, buffer 6, DRAM 200),
  // are a check on the 65 nm technology model, not its input: the model gives RF 1.0, NoC 4.5
  // (a bus across 14 PEs of 231 um), buffer 2.5, DRAM 275 (DDR3). Each within 3x of the paper.
  const double mac = a.array.mac_energy_pj;
  auto within3x = [](double model, double paper) { return model > paper / 3 && model < paper * 3; };
  EXPECT_NEAR(a.array.rf_energy_pj_per_byte * 2 / mac, 1, 0.1);
  EXPECT_TRUE(within3x(a.noc.energy_pj_per_byte * 2 / mac, 2));
  EXPECT_TRUE(within3x(gb->read_energy_pj_per_byte * 2 / mac, 6));
  EXPECT_TRUE(within3x(a.levels[0].read_energy_pj_per_byte * 2 / mac, 200));
  EXPECT_TRUE(a.noc.multicast && a.noc.reduction);
  EXPECT_EQ(a.array.dataflows.front(), "rs");
  EXPECT_TRUE(a.warnings.empty());
}

TEST(ArchConfigTest, ShippedShiDianNaoLikeMatchesThePaper) {
  const Accelerator a = shipped("shidiannao-like");
  EXPECT_DOUBLE_EQ(a.clock_hz, 1e9);
  EXPECT_EQ(a.array.rows, 8);
  EXPECT_EQ(a.array.cols, 8);
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->capacity_bytes, 192000u);  // NBin 64 KB + SB 128 KB
  EXPECT_EQ(a.level(LevelKind::Accumulator)->capacity_bytes, 64000u);  // NBout
  EXPECT_EQ(a.array.rf_weight_bytes, 0);  // synapses are broadcast, never kept
  EXPECT_EQ(a.noc.kind, "mesh");
  EXPECT_TRUE(a.warnings.empty());
}

TEST(ArchConfigTest, ShippedNpu3CoreIsThreeTwoTopsCores) {
  const Accelerator a = shipped("npu-3core");
  EXPECT_EQ(a.cores.count, 3);
  EXPECT_DOUBLE_EQ(a.cores.fused_sync_cycles, 500);
  EXPECT_EQ(a.layout.channel_align, 16);
  EXPECT_EQ(a.layout.device_lowering_align, 32);
  // 3 cores x 32 x 32 MACs x 2 ops x 1 GHz = 6.1 TOPS.
  EXPECT_NEAR(3.0 * a.array.rows * a.array.cols * 2 * a.clock_hz, 6.1e12, 0.05e12);
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->capacity_bytes, 384u * 1024);
  EXPECT_EQ(a.level(LevelKind::Scratchpad)->row_bytes, 32);    // derived: 32 x int8
  EXPECT_EQ(a.level(LevelKind::Accumulator)->row_bytes, 128);  // derived: 32 x int32
  EXPECT_DOUBLE_EQ(a.levels[0].bandwidth, 32);                 // 32 GB/s at 1 GHz
  EXPECT_DOUBLE_EQ(a.levels[0].latency, 150);
  ASSERT_TRUE(a.sfu.has_value());
  for (const char* op : {"softmax", "layernorm", "gelu", "quantize", "dequantize"})
    EXPECT_TRUE(a.sfu->supports(op)) << op;
  EXPECT_DOUBLE_EQ(a.host.clock_hz, 2.4e9);
  EXPECT_DOUBLE_EQ(a.host.flops, 38.4e9);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("uint8_shift"), 0.06);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("transpose"), 1);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("quantize"), 0.6);
  EXPECT_TRUE(a.warnings.empty());
}

TEST(ArchConfigTest, RegisterFileIsOneSizeOrOnePerTensor) {
  const std::string base = testing::join(testing::kTiny);
  const Accelerator shared = loadString(base, "tiny.yaml", {"array.register_file=64 B"});
  EXPECT_FALSE(shared.array.rf_partitioned);
  EXPECT_EQ(shared.array.pe_register_file_bytes, 64);
  const Accelerator split =
      loadString(base, "tiny.yaml", {"array.register_file={inputs: 8 B, outputs: 16 B}"});
  EXPECT_TRUE(split.array.rf_partitioned);
  EXPECT_EQ(split.array.rf_input_bytes, 8);
  EXPECT_EQ(split.array.rf_weight_bytes, 0);  // left out: no pad for weights
  EXPECT_EQ(split.array.rf_output_bytes, 16);
  EXPECT_EQ(split.array.pe_register_file_bytes, 24);
  EXPECT_NE(shared.hash(), split.hash());
}

TEST(ArchConfigTest, LeftOutSectionsTakeTheirDefaults) {
  const Accelerator a = loadString(testing::join(testing::kTiny), "tiny.yaml");
  EXPECT_DOUBLE_EQ(a.dma.bus_bytes_per_cycle, 16);
  EXPECT_EQ(a.dma.max_inflight, 16);
  EXPECT_EQ(a.noc.kind, "systolic");
  EXPECT_DOUBLE_EQ(a.host.flops, 32e9);
  EXPECT_DOUBLE_EQ(a.host.link_latency, 500);  // "500 ns" default at 1 GHz
  EXPECT_EQ(a.array.input_dtype, DType::Int8);
  EXPECT_EQ(a.source, "tiny.yaml");
}

TEST(ArchConfigTest, GivenValuesBeatDerivedOnesAndMapsMerge) {
  const Accelerator a = loadString(
      testing::tinyPlus({"  mac_energy: 1 pJ", "  throughput: {int8: 1, fp16: 0.5}",
                         "host: {cycles_per_element: {softmax: 100}}", "noc: {energy: 3 pJ/B}"}),
      "tiny.yaml");
  EXPECT_DOUBLE_EQ(a.array.mac_energy_pj, 1);                  // given
  EXPECT_DOUBLE_EQ(a.levels[0].read_energy_pj_per_byte, 8 * tech::dramPjPerBit("ddr4"));  // not the MAC's
  EXPECT_DOUBLE_EQ(a.noc.energy_pj_per_byte, 3);               // given: not derived
  EXPECT_DOUBLE_EQ(a.array.macRate(DType::FP16), 0.5);
  EXPECT_DOUBLE_EQ(a.host.costPerElement("softmax"), 100);  // given
  EXPECT_DOUBLE_EQ(a.host.costPerElement("gelu"), 30);      // default kept
}

TEST(ArchConfigTest, SummaryFitsOneScreen) {
  const Accelerator a = shipped("gemmini-default");
  const std::string s = summary(a);
  EXPECT_NE(s.find("gemmini-default"), std::string::npos);
  EXPECT_NE(s.find(a.hash()), std::string::npos);
  EXPECT_NE(s.find("256 KiB"), std::string::npos);
  EXPECT_NE(s.find("64 KiB"), std::string::npos);
  EXPECT_NE(s.find("latency 100 cycles"), std::string::npos);
  EXPECT_NE(s.find("systolic 16x16"), std::string::npos);
  EXPECT_NE(s.find("sfu: none"), std::string::npos);
  EXPECT_NE(s.find("host: 2 GHz"), std::string::npos);
  // The logic and SRAM as a chip paper counts them (ChipParts.LogicGatesByHand, OnChipSramByHand).
  EXPECT_NE(s.find("logic 547 k NAND2-equivalent gates: accumulator 2.7 k, array 384 k, "
                   "epilogue 82.3 k"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("on-chip SRAM 322 KiB in 8 macros: scratchpad 256 KiB (4), accumulator 64 KiB (2)"),
            std::string::npos)
      << s;
  EXPECT_LE(std::count(s.begin(), s.end(), '\n'), 26);
}

}  // namespace
}  // namespace tessel::arch
