// What an engine reports for one op, and what the graph-level schedule reports for a run.
// Reports read only these structs. Cycles are accelerator cycles.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/graph.h"

namespace tessel::sim {

// Why a cycle was spent. Per op, cycles_by_cause sums exactly to cycles.
enum class Cause : uint8_t {
  Compute,      // MACs issuing at full array rate
  FillDrain,    // pipeline fill/drain, weight preload, partially filled array tiles
  MemoryStall,  // waiting on DRAM/L2 (bandwidth or latency) beyond what overlaps compute
  Noc,          // buffer-to-array delivery beyond what overlaps compute
  Sfu,          // special-function unit time
  Host,         // host CPU offload (transfer, (de)quantize, the op, call overhead); kernel launches
};
inline constexpr int kNumCauses = 6;
std::string_view nameOf(Cause c);

enum class Operand : uint8_t { Input, Weight, Output };
inline constexpr int kNumOperands = 3;
std::string_view nameOf(Operand r);

// Bytes read from / written to one storage level, per GEMM operand.
struct LevelTraffic {
  std::string level;  // StorageLevel::name
  std::array<int64_t, kNumOperands> read_bytes{};
  std::array<int64_t, kNumOperands> write_bytes{};
  int64_t total() const;
};

// Accesses to one level of a loop-nest mapping's chain (nest::Hardware's levels: "dram",
// "global_buffer", "pe"...), in Timeloop's terms, summed over the level's instances. Reads:
// operands sent to the children, partial sums sent to the parent or read to take an update.
// Fills: written from the parent (operands coming down, partial sums sent back down). Updates:
// partial sums written from the children. Counts are words (elements at the width the transfer
// moves them), then bytes (reports/SCHEMA.md, "Accesses").
struct LevelAccesses {
  std::string level;                            // nest level name
  int64_t instances = 1;                        // copies of the level in the design
  std::array<bool, kNumOperands> holds{};       // the tensor lives here or the mapping keeps it
  std::array<int64_t, kNumOperands> reads{}, fills{}, updates{};  // words
  // Reads as Timeloop's "Scalar reads" count them: outputs leave out the partial sums the level
  // sends up to its parent (Timeloop folds that read into the parent's update).
  std::array<int64_t, kNumOperands> timeloop_reads{};  // words
  std::array<int64_t, kNumOperands> read_bytes{}, fill_bytes{}, update_bytes{};

  // Reports list a tensor at a level when the level holds it or it moved there.
  bool listed(int t) const;
};

// Bytes one kind of network carried: a level's fan-out to the copies below it, or the array's
// NoC (rows x cols PEs), summed over the network's copies.
struct NetworkTraffic {
  std::string level;      // the level above the network
  std::string kind;       // "fanout" | "array"
  int64_t fanout = 1;     // destinations per copy: the level's fan-out, or rows x cols
  int64_t instances = 1;  // copies of the network (of the level above it)
  std::array<int64_t, kNumOperands> sent_bytes{};       // into the network (a multicast once)
  std::array<int64_t, kNumOperands> delivered_bytes{};  // received (a multicast per receiver)
};

enum class Placement : uint8_t { Array, Sfu, Host, Fused };
std::string_view nameOf(Placement p);

struct OpStats {
  int op_id = -1;
  std::string name;
  models::OpKind kind = models::OpKind::MatMul;
  models::OpClass op_class = models::OpClass::Other;
  Placement placement = Placement::Array;
  int fused_into = -1;  // op id of the group anchor when placement == Fused
  std::string fusion_group;  // the fused chain the op is a member of (GroupRecord::name), or ""
  std::string dtype;         // what the op reads its first input in ("bf16", "fp8_e4m3", ...)
  std::string weight_dtype;  // its weight operand's stored dtype; empty when it reads no weights

  int64_t macs = 0;
  double cycles = 0;
  std::array<double, kNumCauses> cycles_by_cause{};
  std::vector<LevelTraffic> traffic;                      // outermost level first
  std::vector<std::pair<std::string, double>> energy_pj;  // component -> picojoules
  // The same energy split by the tensor it moved (inputs, weights, outputs); MACs and the SFU
  // and host belong to none. Filled for loop-nest mappings, zeros otherwise.
  std::array<double, kNumOperands> energy_by_operand_pj{};
  // Accesses below the storage levels: bytes read and written in the PEs' register files, and
  // bytes the NoC carried from the local memories to the PEs (a multicast once). Loop-nest
  // mappings fill them; 0 otherwise.
  int64_t register_file_bytes = 0;
  int64_t noc_bytes = 0;
  // The same accesses per level of the loop nest's chain and per network, for reproducing
  // Timeloop's and ZigZag's counts; empty without a loop-nest mapping.
  std::vector<LevelAccesses> accesses;  // outermost level first
  std::vector<NetworkTraffic> networks;  // outermost first, the array's NoC last
  double utilization = 0;  // macs / (cycles * PEs * MACs/PE/cycle of its dtype); 0 on the host
  // Sparse operands (dataflows/nest/sparse.h): their patterns, the MACs performed (skipped ones
  // not) and gated, and the metadata bytes moved at every level. `sparse` false: all dense.
  struct Sparse {
    bool sparse = false;
    std::string inputs, weights;  // "0.4", "2:4", "dense"
    double effective_macs = 0, gated_macs = 0, metadata_bytes = 0;
  } sparsity;
  // Engines that execute commands (systemc): cycles the op's unit (array, SFU, host) stood idle
  // or was held, by what it waited on ("dma: load weights", "dispatch: store queue full",
  // "noc"...), largest first. Empty for the analytical engine.
  std::vector<std::pair<std::string, double>> waits;

  // The mapping, flattened for reports: ("dataflow","ws"), ("tile_i","4"), ...
  std::vector<std::pair<std::string, std::string>> mapping;
  std::string loop_nest;  // printable loop nest, may be empty

  double energyTotal() const;
  int64_t bytesAt(std::string_view level) const;  // reads + writes at that level
};

// One command as it ran on one hardware block, for Chrome trace-event / Perfetto output.
struct TraceSlice {
  std::string track;   // the module: "dma", "scratchpad", "array", "noc", "sfu", "host"...
  std::string name;    // "load inputs", "compute", "store outputs", "preload weights"...
  std::string op;      // the op it belongs to
  std::string tensor;  // "inputs" | "weights" | "outputs" | ""
  int64_t bytes = 0;
  double start = 0;     // cycles from the start of the run
  double duration = 0;  // cycles
};

// A fused group as it ran (dataflows/fused_group.h): its members' totals, and the same ops'
// cycles and off-chip bytes under the epilogue plan (what fusing saved).
struct GroupRecord {
  std::string name;      // "attention@layers.0.attn.score"
  std::string kind;      // "attention" | "ffn" | "conv"
  // "row" | "block" (attention), "rows" | "partials" (ffn), "recompute" | "keep" (conv)
  std::string schedule;
  int64_t block_rows = 0, block_cols = 0;
  std::string resident;  // the level K/V or the weights stay in between row blocks, or ""
  std::string partials;  // FFN: the level its running output lives in between chunks, or ""
  std::vector<int> ops;  // member op ids
  double cycles = 0;
  int64_t offchip_bytes = 0;  // DRAM and L2 reads and writes of its members
  double epilogue_cycles = 0;
  int64_t epilogue_offchip_bytes = 0;
  // MACs its members execute (a conv chain's recomputed halos included) and the ops' own.
  int64_t macs = 0, epilogue_macs = 0;
};

struct RunStats {
  std::string tool_version;
  std::string arch_name;
  std::string arch_hash;
  std::string workload;
  std::string engine;  // "analytical" | "systemc"
  // Run options as given (seq, batch, phase, dataflow, ideal_memory, overrides...), in order.
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::string> level_names;  // storage levels, outermost first
  double clock_hz = 1e9;
  int64_t pes = 0;  // rows * cols
  // The rate tiles stream on- and off-chip and the parameter that sets it (arch/bandwidth.h).
  double offchip_bytes_per_cycle = 0;
  std::string offchip_limit;
  std::string offchip_why;
  std::vector<std::string> warnings;  // the accelerator's load warnings
  // The workload's (ops an imported model has no model for, config fields without effect);
  // the CLI prints them on stderr, the JSON carries them.
  std::vector<std::string> workload_warnings;
  // Array ops far from their dataflow's bound, or whose dataflow leaves most of the array idle
  // (sim/bound_warnings.h): named, with the reason.
  std::vector<std::string> mapping_warnings;
  std::vector<OpStats> ops;
  // Chains run as one loop nest (--fusion auto), in graph order, each next to what the
  // epilogue plan of the same ops costs.
  std::vector<GroupRecord> fusion_groups;
  // The design's silicon, from arch::Accelerator::costs (every core): area and leakage power
  // per on-chip component, and the peak MAC rate of every array.
  std::vector<std::pair<std::string, double>> area_mm2;    // component -> mm^2
  std::vector<std::pair<std::string, double>> logic_gates;  // component -> NAND2 equivalents
  struct Sram {
    std::string component;
    double bytes = 0, macros = 0;
  };
  std::vector<Sram> sram;  // on-chip SRAM per component: bytes and compiler macros
  std::vector<std::pair<std::string, double>> leakage_mw;  // component -> mW, always drawn
  // Energy drawn per cycle whatever the ops move (arch::Silicon::clocked): the clock tree and
  // the control logic every cycle of the run; a gated array's clock only in its compute and
  // fill/drain cycles.
  struct Clocked {
    std::string component;
    double pj_per_cycle = 0;
    bool while_computing = false;
  };
  std::vector<Clocked> clocked;
  double peak_macs_per_cycle = 0;

  double totalCycles() const;
  double seconds() const { return totalCycles() / clock_hz; }
  int64_t totalMacs() const;
  // Energy = dynamic (the ops' accesses, MACs, networks, SFU, host) + clocked (clock tree and
  // control per cycle) + static (leakage power x the run's time).
  double energyTotalPj() const;
  double dynamicEnergyPj() const;
  double clockedEnergyPj() const;
  // Its two parts: per cycle of the run (whatever runs), and over the arrays' own cycles.
  double clockedPjPerCycle() const;
  double clockedWhileComputingPj() const;
  double staticEnergyPj() const;
  // Cycles the arrays run: the ops' compute and fill/drain cycles.
  double arrayCycles() const;
  std::vector<std::pair<std::string, double>> staticEnergyByComponent() const;
  double areaMm2() const;
  double leakageMw() const;
  double powerW() const;          // energy / time
  // The accelerator chip's own: without the DRAM's accesses and the host's work (other chips).
  double chipPowerW() const;
  double energyPerMacPj() const;  // energy / MACs (0 without MACs)
  double tops() const;            // 2 x MACs / time, in 1e12 ops/s
  double peakTops() const;        // 2 x peak MACs/cycle x clock
  double topsPerW() const;        // 2 x MACs / energy
  double topsPerMm2() const;      // tops() / area (0 without area)
  double utilization() const;  // cycle-weighted mean of the ops' utilization, <= 1
  int64_t bytesAt(std::string_view level) const;
  int64_t registerFileBytes() const;
  // Sparse operands over the run (OpStats::sparsity): MACs performed (a dense op's all), gated,
  // metadata bytes moved; `any` false when every op is dense.
  struct SparseTotals {
    bool any = false;
    double performed_macs = 0, gated_macs = 0, metadata_bytes = 0;
  };
  SparseTotals sparseTotals() const;
  int64_t nocBytes() const;
  // Energy per component (dram, scratchpad, register_file, array, noc, sfu, host...), in the
  // order components first appear, then the clocked ones ("clock", "control"), then "static"
  // (leakage x time): they sum to energyTotalPj().
  // And per tensor (inputs, weights, outputs).
  std::vector<std::pair<std::string, double>> energyByComponent() const;
  std::array<double, kNumOperands> energyByOperand() const;
  std::array<double, kNumCauses> cyclesByCause() const;
  // Cycles per op class, in OpClass order (all 10 classes, zeros included).
  std::vector<std::pair<models::OpClass, double>> cyclesByClass() const;
};

}  // namespace tessel::sim
