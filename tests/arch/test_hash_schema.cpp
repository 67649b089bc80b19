#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "arch/hash.h"
#include "arch/schema.h"
#include "tiny.h"

namespace tessel::arch {
namespace {

const std::string kGemmini = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml";

TEST(ArchHashTest, Fnv1aMatchesPublishedVectors) {
  // Reference values from the FNV specification's test suite (64-bit FNV-1a).
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(toHex(0xaf63dc4c8601ec8cULL), "af63dc4c8601ec8c");
  EXPECT_EQ(toHex(0x1), "0000000000000001");
}

TEST(ArchHashTest, HashDigestsTheCanonicalText) {
  const Accelerator a = loadFile(kGemmini);
  EXPECT_EQ(a.hash(), toHex(fnv1a64(a.canonical())));
  EXPECT_EQ(a.hash().size(), 16u);
  EXPECT_EQ(loadFile(kGemmini).hash(), a.hash());  // deterministic
}

TEST(ArchHashTest, DependsOnValuesNotOnSpellingOrLabels) {
  const std::string base = testing::join(testing::kTiny);
  const std::string h = loadString(base, "tiny.yaml").hash();
  // Same canonical values written differently.
  EXPECT_EQ(loadString(testing::tinyWith(7, "  capacity: 262144"), "tiny.yaml").hash(), h);
  EXPECT_EQ(loadString(testing::tinyWith(5, "  latency: 100 cycles"), "tiny.yaml").hash(), h);
  EXPECT_EQ(loadString(testing::tinyWith(1, "name: other"), "elsewhere.yaml").hash(), h);
  EXPECT_EQ(loadString(base, "tiny.yaml", {"description=notes"}).hash(), h);
}

TEST(ArchHashTest, ChangesWithAnyHardwareValue) {
  const std::string base = testing::join(testing::kTiny);
  const std::string h = loadString(base, "t").hash();
  for (const std::string o :
       {"accumulator.capacity=128KiB", "dram.latency=101 ns", "array.dataflows=[ws]",
        "host.cycles_per_element={softmax: 41}", "sfu={ops: [gelu]}", "array.mac_energy=0.35 pJ"}) {
    EXPECT_NE(loadString(base, "t", {o}).hash(), h) << o;
  }
}

// Every parameter path, listed independently of the schema table.
const std::vector<std::string> kParams = {
    "name",
    "description",
    "clock",
    "dram.capacity",
    "dram.bandwidth",
    "dram.latency",
    "dram.type",
    "dram.read_energy",
    "dram.write_energy",
    "dram.efficiency",
    "dram.phy_area",
    "dram.tensors.inputs.read_energy",
    "dram.tensors.inputs.write_energy",
    "dram.tensors.weights.read_energy",
    "dram.tensors.weights.write_energy",
    "dram.tensors.outputs.read_energy",
    "dram.tensors.outputs.write_energy",
    "l2.capacity",
    "l2.bandwidth",
    "l2.latency",
    "l2.banks",
    "l2.holds",
    "l2.read_energy",
    "l2.write_energy",
    "l2.area",
    "l2.leakage",
    "l2.drain_energy",
    "l2.tensors.inputs.read_energy",
    "l2.tensors.inputs.write_energy",
    "l2.tensors.weights.read_energy",
    "l2.tensors.weights.write_energy",
    "l2.tensors.outputs.read_energy",
    "l2.tensors.outputs.write_energy",
    "scratchpad.capacity",
    "scratchpad.banks",
    "scratchpad.row_width",
    "scratchpad.ports",
    "scratchpad.holds",
    "scratchpad.bandwidth",
    "scratchpad.latency",
    "scratchpad.read_energy",
    "scratchpad.write_energy",
    "scratchpad.area",
    "scratchpad.leakage",
    "scratchpad.drain_energy",
    "scratchpad.fanout.instances",
    "scratchpad.fanout.mesh_x",
    "scratchpad.fanout.multicast",
    "scratchpad.fanout.reduction",
    "scratchpad.fanout.bandwidth",
    "scratchpad.fanout.split_reduction",
    "scratchpad.fanout.energy",
    "scratchpad.tensors.inputs.read_energy",
    "scratchpad.tensors.inputs.write_energy",
    "scratchpad.tensors.weights.read_energy",
    "scratchpad.tensors.weights.write_energy",
    "scratchpad.tensors.outputs.read_energy",
    "scratchpad.tensors.outputs.write_energy",
    "accumulator.capacity",
    "accumulator.banks",
    "accumulator.row_width",
    "accumulator.ports",
    "accumulator.holds",
    "accumulator.dtype",
    "accumulator.bandwidth",
    "accumulator.latency",
    "accumulator.read_energy",
    "accumulator.write_energy",
    "accumulator.area",
    "accumulator.leakage",
    "accumulator.drain_energy",
    "accumulator.tensors.inputs.read_energy",
    "accumulator.tensors.inputs.write_energy",
    "accumulator.tensors.weights.read_energy",
    "accumulator.tensors.weights.write_energy",
    "accumulator.tensors.outputs.read_energy",
    "accumulator.tensors.outputs.write_energy",
    "global_buffer.capacity",
    "global_buffer.banks",
    "global_buffer.row_width",
    "global_buffer.ports",
    "global_buffer.holds",
    "global_buffer.bandwidth",
    "global_buffer.latency",
    "global_buffer.read_energy",
    "global_buffer.write_energy",
    "global_buffer.area",
    "global_buffer.leakage",
    "global_buffer.drain_energy",
    "global_buffer.fanout.instances",
    "global_buffer.fanout.mesh_x",
    "global_buffer.fanout.multicast",
    "global_buffer.fanout.reduction",
    "global_buffer.fanout.bandwidth",
    "global_buffer.fanout.split_reduction",
    "global_buffer.fanout.energy",
    "global_buffer.tensors.inputs.read_energy",
    "global_buffer.tensors.inputs.write_energy",
    "global_buffer.tensors.weights.read_energy",
    "global_buffer.tensors.weights.write_energy",
    "global_buffer.tensors.outputs.read_energy",
    "global_buffer.tensors.outputs.write_energy",
    "cluster_buffer.capacity",
    "cluster_buffer.banks",
    "cluster_buffer.row_width",
    "cluster_buffer.ports",
    "cluster_buffer.holds",
    "cluster_buffer.bandwidth",
    "cluster_buffer.latency",
    "cluster_buffer.read_energy",
    "cluster_buffer.write_energy",
    "cluster_buffer.area",
    "cluster_buffer.leakage",
    "cluster_buffer.drain_energy",
    "cluster_buffer.tensors.inputs.read_energy",
    "cluster_buffer.tensors.inputs.write_energy",
    "cluster_buffer.tensors.weights.read_energy",
    "cluster_buffer.tensors.weights.write_energy",
    "cluster_buffer.tensors.outputs.read_energy",
    "cluster_buffer.tensors.outputs.write_energy",
    "dma.bus_width",
    "dma.max_request",
    "dma.max_inflight",
    "dma.row_requests",
    "dma.engines",
    "dma.gates",
    "dma.area",
    "dma.leakage",
    "controller.load_entries",
    "controller.execute_entries",
    "controller.store_entries",
    "controller.gates",
    "controller.command_bits",
    "controller.instruction_memory",
    "controller.activity",
    "controller.launch_latency",
    "controller.area",
    "controller.leakage",
    "controller.energy",
    "array.kind",
    "array.rows",
    "array.cols",
    "array.input_dtype",
    "array.weight_dtype",
    "array.accum_dtype",
    "array.dataflows",
    "array.throughput",
    "array.weight_double_buffered",
    "array.epilogue_ops",
    "array.epilogue_energy",
    "array.epilogue_area",
    "array.epilogue_leakage",
    "array.register_file",
    "array.register_file_sram",
    "array.register_file_energy",
    "array.registers",
    "array.register_energy",
    "array.mac_energy",
    "array.mac_area",
    "array.area",
    "array.leakage",
    "array.register_file_drain_energy",
    "array.register_file_area",
    "array.register_file_leakage",
    "array.pipeline_latency",
    "noc.kind",
    "noc.bandwidth",
    "noc.multicast",
    "noc.reduction",
    "noc.energy",
    "noc.area",
    "noc.leakage",
    "sfu.ops",
    "sfu.lanes",
    "sfu.arithmetic",
    "sfu.cycles_per_vector",
    "sfu.energy",
    "sfu.area",
    "sfu.leakage",
    "host.clock",
    "host.flops",
    "host.memory_bandwidth",
    "host.offload_overhead",
    "host.step_overhead",
    "host.sequence_overhead",
    "host.energy_per_flop",
    "host.energy_per_byte",
    "host.cycles_per_element",
    "host.link.bandwidth",
    "host.link.lanes",
    "host.link.lane_area",
    "host.link.latency",
    "cores.count",
    "cores.fused_sync",
    "layout.channel_align",
    "layout.device_lowering_align",
    "technology.node",
    "technology.table",
    "technology.voltage",
    "floorplan.logic_utilization",
    "floorplan.sram_macro_size",
    "floorplan.sram_macro_width",
    "floorplan.macro_halo",
    "floorplan.clock_gating",
    "floorplan.clock_energy",
    "sparsity.structured",
    "sparsity.structured_operand",
    "sparsity.skip",
    "sparsity.gate",
    "sparsity.run_bits",
    "sparsity.decode_energy",
    "sparsity.formats.dram.inputs",
    "sparsity.formats.dram.weights",
    "sparsity.formats.l2.inputs",
    "sparsity.formats.l2.weights",
    "sparsity.formats.scratchpad.inputs",
    "sparsity.formats.scratchpad.weights",
    "sparsity.formats.global_buffer.inputs",
    "sparsity.formats.global_buffer.weights",
    "sparsity.formats.cluster_buffer.inputs",
    "sparsity.formats.cluster_buffer.weights",
    "sparsity.formats.register_file.inputs",
    "sparsity.formats.register_file.weights",
    "sparsity.skip_reads.dram.inputs",
    "sparsity.skip_reads.dram.weights",
    "sparsity.skip_reads.l2.inputs",
    "sparsity.skip_reads.l2.weights",
    "sparsity.skip_reads.scratchpad.inputs",
    "sparsity.skip_reads.scratchpad.weights",
    "sparsity.skip_reads.global_buffer.inputs",
    "sparsity.skip_reads.global_buffer.weights",
    "sparsity.skip_reads.cluster_buffer.inputs",
    "sparsity.skip_reads.cluster_buffer.weights",
    "sparsity.gate_reads.dram.inputs",
    "sparsity.gate_reads.dram.weights",
    "sparsity.gate_reads.l2.inputs",
    "sparsity.gate_reads.l2.weights",
    "sparsity.gate_reads.scratchpad.inputs",
    "sparsity.gate_reads.scratchpad.weights",
    "sparsity.gate_reads.global_buffer.inputs",
    "sparsity.gate_reads.global_buffer.weights",
    "sparsity.gate_reads.cluster_buffer.inputs",
    "sparsity.gate_reads.cluster_buffer.weights",
};

std::vector<std::string> schemaPaths() {
  std::vector<std::string> paths;
  for (const auto& s : schema()) {
    for (const auto& p : s.params) paths.push_back(s.path.empty() ? p.key : s.path + "." + p.key);
  }
  return paths;
}

TEST(ArchSchemaTest, TheTableHasExactlyTheDocumentedParameters) {
  EXPECT_EQ(schemaPaths(), kParams);
}

TEST(ArchSchemaTest, SchemaDocMentionsEveryParameterWithItsDefault) {
  const std::string doc = schemaDoc();
  for (const auto& path : kParams) {
    EXPECT_NE(doc.find("  " + path + "  ["), std::string::npos) << path;
  }
  EXPECT_NE(doc.find("scratchpad.capacity  [required]"), std::string::npos);
  EXPECT_NE(doc.find("scratchpad.banks  [default 1]"), std::string::npos);
  EXPECT_NE(doc.find("dram.read_energy  [derived: 8 x the DRAM type's pJ/bit"), std::string::npos);
}

TEST(ArchSchemaTest, TheUserDocsMentionEveryParameter) {
  std::ifstream in(std::string(TESSEL_SOURCE_DIR) + "/docs/arch-yaml.md");
  ASSERT_TRUE(in) << "docs/arch-yaml.md missing";
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& path : kParams) {
    EXPECT_NE(text.str().find("`" + path + "`"), std::string::npos) << path;
  }
}

TEST(ArchSchemaTest, EveryOptionalDefaultIsValid) {
  // The tiny config leaves out every optional parameter and section, so loading it parses
  // every default text of the sections it has; the sections it lacks are added here.
  EXPECT_NO_THROW(loadString(testing::tinyPlus({"sfu: {ops: [gelu]}",
                                                "l2: {capacity: 1 MiB, "
                                                "bandwidth: 8 B/cycle, latency: 10 cycles}"}),
                             "tiny.yaml"));
}

}  // namespace
}  // namespace tessel::arch
