// A hand-made run whose every number is chosen so the expected reports can be worked out by
// hand (see the arithmetic in the tests). Four ops on a 16-PE array at 1 GHz:
//   op 0  h0.attn.qkv   MatMul   array  1500 cycles = compute 1000 + fill 200 + memory 300
//   op 1  h0.softmax    Softmax  sfu     300 cycles = sfu 300
//   op 2  h0.gelu       Gelu     fused     0 cycles (charged to op 0)
//   op 3  embed, tokens Embedding host   200 cycles = host 150 + noc 50
#pragma once

#include "sim/stats.h"

namespace tessel::reports::sample {

inline sim::LevelTraffic traffic(std::string level, std::array<int64_t, 3> read,
                                 std::array<int64_t, 3> write) {
  sim::LevelTraffic t;
  t.level = std::move(level);
  t.read_bytes = read;
  t.write_bytes = write;
  return t;
}

// One level's accesses of a loop nest, with words = bytes (every tensor one byte wide).
inline sim::LevelAccesses accesses(std::string level, int64_t instances, std::array<bool, 3> holds,
                                   std::array<int64_t, 3> reads, std::array<int64_t, 3> fills,
                                   std::array<int64_t, 3> updates) {
  sim::LevelAccesses a;
  a.level = std::move(level);
  a.instances = instances;
  a.holds = holds;
  a.reads = a.read_bytes = a.timeloop_reads = reads;  // no partial sums go up
  a.fills = a.fill_bytes = fills;
  a.updates = a.update_bytes = updates;
  return a;
}

inline sim::OpStats op(int id, std::string name, models::OpKind kind, models::OpClass cls,
                       sim::Placement placement) {
  sim::OpStats s;
  s.op_id = id;
  s.name = std::move(name);
  s.kind = kind;
  s.op_class = cls;
  s.placement = placement;
  return s;
}

inline sim::RunStats sampleRun() {
  using models::OpClass;
  using models::OpKind;
  sim::RunStats run;
  run.tool_version = "0.1.0";
  run.arch_name = "tiny-gemmini";
  run.arch_hash = "0123456789abcdef";
  run.workload = "gpt2-tiny";
  run.engine = "analytical";
  run.options = {{"seq", "8"}, {"batch", "1"}, {"phase", "prefill"}};
  run.level_names = {"DRAM", "Scratchpad"};
  run.clock_hz = 1e9;
  // Silicon without leakage, so the energies stay the ops' own.
  run.area_mm2 = {{"Scratchpad", 0.5}, {"array", 0.25}};
  run.logic_gates = {{"array", 400000}};
  run.sram = {{"Scratchpad", 262144, 4}};
  run.leakage_mw = {{"Scratchpad", 0.0}, {"array", 0.0}};
  run.peak_macs_per_cycle = 16;
  run.pes = 16;

  sim::OpStats qkv = op(0, "h0.attn.qkv", OpKind::MatMul, OpClass::MatMul, sim::Placement::Array);
  qkv.macs = 19200;  // utilization 19200 / (1500 * 16) = 0.8
  qkv.dtype = "bf16";
  qkv.weight_dtype = "int4_g128_fp16";  // weight-only
  qkv.cycles = 1500;
  qkv.cycles_by_cause = {1000, 200, 300, 0, 0, 0};
  // DRAM: 1024 + 4096 + 512 = 5632; Scratchpad: 2048 + 8192 + 1024 + 4096 = 15360.
  qkv.traffic = {traffic("DRAM", {1024, 4096, 0}, {0, 0, 512}),
                 traffic("Scratchpad", {2048, 8192, 0}, {1024, 4096, 0})};
  // The same bytes by nest level, in words: the scratchpad's fills are DRAM's reads, the PEs'
  // weight fills the bytes the NoC delivered. The PEs hold no inputs or outputs: no rows.
  qkv.accesses = {accesses("dram", 1, {true, true, true}, {1024, 4096, 0}, {}, {0, 0, 512}),
                  accesses("scratchpad", 1, {true, true, false}, {2048, 8192, 0},
                           {1024, 4096, 0}, {}),
                  accesses("pe", 16, {false, true, false}, {0, 19200, 0}, {0, 8192, 0}, {})};
  qkv.networks = {{"scratchpad", "array", 16, 1, {2048, 8192, 0}, {8192, 8192, 0}}};
  qkv.energy_pj = {{"mac", 1000.5}, {"DRAM", 2000}};
  qkv.utilization = 0.8;
  // The keys dataflows::Mapping::flatten() writes.
  qkv.mapping = {{"dataflow", "ws"},    {"mapper", "gemmini_auto"},
                 {"array", "4x4"},      {"tile_m", "4"},
                 {"tile_n", "4"},       {"tile_k", "12"},
                 {"loop_order", "MNK"}, {"double_buffered", "true"}};
  qkv.loop_nest = "for k in 0..12\n  for i in 0..4";
  // What the systemc engine fills (the only one that does): the unit's waits, largest first.
  qkv.waits = {{"noc", 250}, {"dma: load weights", 50}};
  // 2:4 weights on a datapath that runs them: half the MACs performed, 2-bit indices moved.
  qkv.sparsity.sparse = true;
  qkv.sparsity.inputs = "dense";
  qkv.sparsity.weights = "2:4";
  qkv.sparsity.effective_macs = static_cast<double>(qkv.macs) / 2;
  qkv.sparsity.metadata_bytes = 96;

  sim::OpStats softmax =
      op(1, "h0.softmax", OpKind::Softmax, OpClass::Softmax, sim::Placement::Sfu);
  softmax.cycles = 300;
  softmax.cycles_by_cause = {0, 0, 0, 0, 300, 0};
  softmax.energy_pj = {{"sfu", 50}};

  sim::OpStats gelu = op(2, "h0.gelu", OpKind::Gelu, OpClass::GELU, sim::Placement::Fused);
  gelu.fused_into = 0;

  sim::OpStats embed =
      op(3, "embed, tokens", OpKind::Embedding, OpClass::Other, sim::Placement::Host);
  embed.cycles = 200;
  embed.cycles_by_cause = {0, 0, 0, 50, 0, 150};
  embed.traffic = {traffic("DRAM", {100, 1000, 0}, {0, 0, 200})};  // 1300 bytes

  // A fused group of ops 0 and 1 (as --fusion auto records it): 1800 cycles and 5632 DRAM bytes
  // against 2500 cycles and 9000 bytes under the epilogue plan.
  qkv.fusion_group = softmax.fusion_group = "attention@h0.attn.qkv";
  sim::GroupRecord group;
  group.name = "attention@h0.attn.qkv";
  group.kind = "attention";
  group.schedule = "block";
  group.block_rows = 16;
  group.block_cols = 32;
  group.resident = "Scratchpad";
  group.ops = {0, 1};
  group.cycles = 1800;
  group.offchip_bytes = 5632;
  group.epilogue_cycles = 2500;
  group.epilogue_offchip_bytes = 9000;
  run.fusion_groups = {group};

  run.ops = {qkv, softmax, gelu, embed};
  return run;
}

}  // namespace tessel::reports::sample
