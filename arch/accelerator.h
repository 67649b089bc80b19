// The immutable accelerator spec. arch::load builds it from YAML; every value here is already
// in canonical units: bytes, cycles of the accelerator clock, bytes per cycle, picojoules.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/sparse_support.h"
#include "util/dtype.h"

namespace tessel::arch {

// ClusterBuffer: a buffer under a fan-out, one per instance (Simba's PE buffers, a TPU MXU's
// accumulators), between the shared local memory and the array.
enum class LevelKind : uint8_t { DRAM, L2, Scratchpad, Accumulator, GlobalBuffer, ClusterBuffer };
// The YAML key of each kind: "dram", "l2", "scratchpad", "accumulator", "global_buffer",
// "cluster_buffer".
std::string_view nameOf(LevelKind k);

// Which tensors of a GEMM a storage level may hold.
struct Holds {
  bool inputs = false;
  bool weights = false;
  bool outputs = false;
};

// A fan-out below a storage level: `instances` copies of everything under it (the cluster
// buffers and the array, or the array alone), fed over one network. instances = 1: none.
struct Fanout {
  int instances = 1;
  int mesh_x = 0;  // instances per row of the mesh (0 = all in one row); reports only
  bool multicast = false;  // one read of the level can feed every instance that needs it
  bool reduction = false;  // partial sums of the instances add up in the network
  double bandwidth = 0;    // bytes/cycle the network carries into ONE instance; 0 = unlimited
  double energy_pj_per_byte = 0;  // per byte per instance reached (a hop each)
  // Instances may share a reduction (each summing part of every output); false: each computes
  // whole outputs, as a GPU's SMs each own output tiles, which then run in waves.
  bool split_reduction = true;
};

struct StorageLevel {
  std::string name;  // YAML key: "dram", "l2", "scratchpad", ...
  LevelKind kind = LevelKind::DRAM;
  uint64_t capacity_bytes = 0;  // 0 = unbounded (DRAM)
  int banks = 1;
  int row_bytes = 0;  // scratchpad/accumulator row width; 0 if not row-organized
  int ports = 1;      // read/write ports (2 = dual-ported accumulator)
  Holds holds;
  double bandwidth = 0;  // bytes/cycle of this level's port toward inner levels
  double latency = 0;    // cycles from request to first byte
  double read_energy_pj_per_byte = 0;
  double write_energy_pj_per_byte = 0;
  DType dtype = DType::Int8;  // element type stored (accumulator: accumulation type)
  Fanout fanout;              // what lies below this level, copied `instances` times
  // A cluster buffer may split its capacity per tensor (inputs, weights, outputs); then
  // capacity_bytes is their sum.
  bool partitioned = false;
  std::array<uint64_t, 3> tensor_capacity{};
  // The most one tile of every tensor together may take and still fit: the capacity, or, split
  // per tensor, the smallest pool (a tile within it fits whichever pool each tensor has).
  uint64_t sharedBytes() const;
  // Energy per byte per tensor (inputs, weights, outputs), read and write apart, as an
  // Accelergy table gives them; each defaults to the level's read/write energy.
  std::array<double, 3> tensor_read_pj{-1, -1, -1};
  std::array<double, 3> tensor_write_pj{-1, -1, -1};
  double readPj(int tensor) const;
  double writePj(int tensor) const;
  // Energy per byte of reading a partial sum to send it up to the parent level; < 0 = the
  // outputs' read energy. 0 reproduces Timeloop, which charges only the parent's update.
  double drain_pj_per_byte = -1;
  // Silicon of ONE instance (derived from the technology, or given): on-chip levels only.
  double area_mm2 = 0;
  double leakage_mw = 0;
  double logic_um2 = 0;  // its standard cells, unplaced (Silicon::logic_gates)
  std::string dram_type;  // DRAM only: "ddr4", "lpddr4", "hbm2"... (tech::dramTypes())
  // DRAM only: the chip's side of the interface (PHY and its pads), derived from the type's
  // signals per channel and the channels the bandwidth needs; an I/O component.
  double phy_area_mm2 = 0;
  int phy_channels = 0;
  // DRAM only: the fraction of `bandwidth` a streaming kernel sustains (refresh, bank
  // conflicts, read-write turnarounds); the off-chip rate is bandwidth x efficiency.
  double efficiency = 1;
};

// The DMA engine that moves tiles between off-chip levels and the local memories.
struct Dma {
  double bus_bytes_per_cycle = 16;  // width of the DMA data bus
  int max_request_bytes = 64;       // bytes per memory request
  int max_inflight = 16;            // outstanding requests (Little's law bounds throughput)
  // One request per tile row (at most max_request bytes each), as Gemmini's StreamReader and
  // StreamWriter issue them (DMA.scala): a narrow row makes a short request. false: every
  // request carries max_request bytes whatever the tile's shape.
  bool row_requests = true;
  // Silicon (arch/chip_parts.cpp), per core: `engines` engines (a reader and a writer), each
  // its address generation and request tracking (`gates`) and a buffer of max_inflight x
  // max_request bytes for the data in flight.
  int engines = 2;
  double gates = 15000;
  double area_mm2 = 0;  // all engines of one core; derived, or given
  double leakage_mw = 0;
  double logic_um2 = 0;  // its standard cells, unplaced (Silicon::logic_gates)
};

// The command path from the host to the blocks: commands wait in a reservation station with a
// number of entries per queue (Gemmini: reservation_station_entries_ld/ex/st = 8/16/4 in
// Configs.scala). Dispatch stalls while the next command's queue is full; each queue issues in
// order. The SystemC engine executes it; the analytical engine assumes enough entries.
struct Controller {
  int load_entries = 8;
  int execute_entries = 16;
  int store_entries = 4;
  // Silicon (arch/chip_parts.cpp): the sequencer's logic in NAND2-equivalent gates, its
  // command queues (every entry command_bits of flip-flops), an instruction memory.
  double gates = 20000;
  int command_bits = 128;
  uint64_t instruction_memory_bytes = 0;
  double activity = 0.1;     // fraction of its gates switching per cycle
  double area_mm2 = 0;       // derived, or given
  double leakage_mw = 0;
  double logic_um2 = 0;  // its standard cells, unplaced (Silicon::logic_gates)
  double energy_pj_per_cycle = 0;
  // Cycles from one kernel's end to the next one's start (a GPU's kernel launch), charged once
  // per op or fused group the device runs; 0 for a controller that streams its commands.
  double launch_cycles = 0;
};

enum class ArrayKind : uint8_t { Systolic, Spatial };
std::string_view nameOf(ArrayKind k);  // "systolic" | "spatial"

struct ComputeArray {
  int rows = 16;
  int cols = 16;
  ArrayKind kind = ArrayKind::Systolic;
  DType input_dtype = DType::Int8;
  DType weight_dtype = DType::Int8;
  DType accum_dtype = DType::Int32;
  std::vector<std::string> dataflows;  // names of configs/dataflows/*.yaml, e.g. "ws", "os"
  // MACs per PE per cycle for each dtype the array can run (int8 = 1 means one MAC/cycle).
  std::vector<std::pair<DType, double>> macs_per_cycle;
  // MACs per PE per cycle of activations in one dtype against weights in another (YAML key
  // "bf16*int4"): weight-only quantization, the weights widened in the datapath.
  struct MixedRate {
    DType input = DType::BF16;
    DType weight = DType::Int4;
    double rate = 0;
  };
  std::vector<MixedRate> mixed_macs_per_cycle;
  bool weight_double_buffered = true;  // WS: next weights preload while current compute
  // Per-PE register file, in bytes: one pool all tensors share (pe_register_file_bytes), or,
  // when rf_partitioned, one scratch pad per tensor (Eyeriss: filter, ifmap and psum pads).
  // 0 everywhere = no register file: every operand comes over the NoC (no local reuse).
  int pe_register_file_bytes = 0;  // total (the sum of the partitions when partitioned)
  bool rf_partitioned = false;
  int rf_input_bytes = 0;
  int rf_weight_bytes = 0;
  int rf_output_bytes = 0;
  // Scratch pads built as SRAM macros rather than flip-flops (Eyeriss's filter pad), by
  // tensor name; area and leakage follow (tech::sram), the energy per access stays the RF's.
  std::vector<std::string> rf_sram;
  double rf_energy_pj_per_byte = 0;    // per byte read or written in a PE register file
  // A split register file's pads, each at its own size and kind (flip-flops, or the SRAM macro
  // of register_file_sram): energy per byte read and written; < 0 = rf_energy_pj_per_byte (a
  // shared file, or register_file_energy given).
  std::array<double, 3> rf_pad_read_pj{-1, -1, -1};
  std::array<double, 3> rf_pad_write_pj{-1, -1, -1};
  // A second storage level inside each PE, below the register file: registers per tensor
  // (bytes; 0 = none for that tensor), e.g. one operand word next to the multiplier.
  int reg_input_bytes = 0;
  int reg_weight_bytes = 0;
  int reg_output_bytes = 0;
  double reg_energy_pj_per_byte = 0;
  // Energy per byte of reading a partial sum in a PE to send it up; < 0 = the read energy.
  double rf_drain_pj_per_byte = -1;
  bool hasRegisters() const { return reg_input_bytes + reg_weight_bytes + reg_output_bytes > 0; }
  // Ops the accumulator write/store path applies on the fly (relu, residual_add, requantize,
  // maxpool...). These never leave the array's memories.
  std::vector<std::string> epilogue_ops;
  // Silicon of ONE array's epilogue (arch/chip_parts.h, deriveEpilogue), and the energy per
  // element of each of its ops (all epilogue_energy_pj when the YAML gives it).
  double epilogue_energy_pj = 0;
  std::vector<std::pair<std::string, double>> epilogue_pj;
  double epilogue_area_mm2 = 0;
  double epilogue_leakage_mw = 0;
  double epilogue_logic_um2 = 0;                   // its cells, unplaced
  double epiloguePj(const std::string& op) const;  // 0 for an op the epilogue does not apply
  double mac_energy_pj = 0;  // at input_dtype
  // Energy of one MAC in each dtype of macs_per_cycle (derived from the technology; all equal to
  // mac_energy_pj when the YAML gives it).
  std::vector<std::pair<DType, double>> mac_energy_by_dtype;
  double macEnergy(DType t) const;  // mac_energy_pj for a dtype not listed
  // Silicon of ONE array (derived from the technology, or given): MACs and pipeline
  // registers (area_mm2), register files and registers (register_file_area_mm2), leakage.
  double mac_area_um2 = 0;  // one MAC unit: the largest of the dtypes it runs
  double area_mm2 = 0;
  double register_file_area_mm2 = 0;
  double edge_area_mm2 = 0;  // a systolic array's skew registers, within area_mm2 (not a PE's)
  double leakage_mw = 0;
  double register_file_leakage_mw = 0;
  double logic_um2 = 0;                // one array's PE cells, unplaced
  double register_file_logic_um2 = 0;  // its flip-flop register files and registers, unplaced
  double pipeline_latency = -1;  // fill/drain cycles per tile; <0 = rows + cols - 2 (skew)

  double macRate(DType t) const;  // MACs/PE/cycle for t, 0 if unsupported
  // Activations of `input` against weights of `weight`: the listed pair's rate; else, for
  // weights narrower than the input (weight-only quantization), the input's rate (assumed: the
  // weights widen in the datapath at no cost; list the pair to state one); else the rate of the
  // wider of the two; 0 if the array runs neither.
  double macRate(DType input, DType weight) const;
  bool supportsDataflow(const std::string& name) const;
};

struct Noc {
  std::string kind = "systolic";  // "systolic" | "bus" | "mesh"
  double bandwidth = 0;           // bytes/cycle from the buffer to the array, 0 = unlimited
  bool multicast = false;
  bool reduction = false;
  double energy_pj_per_byte = 0;
  // A mesh's routers (arch/chip_parts.cpp), all of one core; systolic links and buses are
  // wires over the cells, with no area of their own.
  int routers = 0;
  double area_mm2 = 0;
  double leakage_mw = 0;
  double logic_um2 = 0;  // its standard cells, unplaced (Silicon::logic_gates)
};

// Special-function unit for nonlinear and vector ops.
struct Sfu {
  std::vector<std::string> ops;  // "softmax", "layernorm", "gelu", "add", "relu", ...
  int lanes = 16;
  bool integer = true;           // integer (I-BERT) or floating-point arithmetic
  double cycles_per_vector = 1;  // per pass over `lanes` elements
  double energy_pj_per_element = 0;
  double area_mm2 = 0;  // derived from the technology, or given
  double leakage_mw = 0;
  double logic_um2 = 0;  // its standard cells, unplaced (Silicon::logic_gates)
  bool supports(const std::string& op) const;
};

// The host CPU that runs what the accelerator cannot.
struct Host {
  double clock_hz = 2e9;
  double flops = 0;                      // sustained FLOP/s (for host-run GEMMs)
  double mem_bandwidth_bytes_per_s = 0;  // host memory bandwidth
  double link_bandwidth = 0;  // bytes/cycle (accelerator clock) between host and accelerator memory
  double link_latency = 0;    // cycles
  double offload_overhead = 0;  // accelerator cycles per host call (sync, launch)
  // Host cycles per element for quantize, dequantize and each op name ("softmax", ...).
  std::vector<std::pair<std::string, double>> cycles_per_element;
  double costPerElement(const std::string& op) const;  // host cycles; -1 if not listed
  double energy_pj_per_flop = 0;                       // core energy per floating-point operation
  double energy_pj_per_byte = 0;                       // host memory traffic
  int link_lanes = 0;           // serial lanes of the host link (PCIe); 0 = an on-chip port
  double link_lane_area_mm2 = 0.5;  // one lane's SerDes and PCS on the accelerator die
  // An LLM service's host work between two iterations (accelerator cycles): a fixed part
  // (scheduling, preparing the inputs) and one per sequence in the batch (sampling,
  // detokenizing), run while the device waits.
  double step_overhead = 0;
  double sequence_overhead = 0;
};

// k identical cores sharing the DRAM (and the L2 when there is one); every other section
// describes ONE core.
struct Cores {
  int count = 1;
  double fused_sync_cycles = 0;  // cycles a fused device spends per op keeping its cores in step
};

// How the accelerator wants a graph input laid out, and when it lowers one itself.
struct Layout {
  int64_t channel_align = 1;  // the innermost (channel) axis is padded to a multiple of this
  // The accelerator transposes and pads an input itself when the input's innermost axis is a
  // multiple of this; otherwise the host does. 0 = never.
  int64_t device_lowering_align = 0;
};

// The process the design is built in (docs/technology.md). Energies, areas and leakage the
// YAML leaves out are derived from its table.
// What the die adds around its blocks (arch/chip_parts.cpp, docs/technology.md).
struct Floorplan {
  double logic_utilization = 0.7;        // standard-cell area / placed block area
  uint64_t sram_macro_bytes = 64 * 1024;  // the largest SRAM macro
  int sram_macro_width = 256;             // the widest macro word, bits
  double macro_halo_um = 0;               // keep-out around each SRAM macro (derived: the technology's)
  bool clock_gating = true;               // an idle array's clock is gated
  double clock_energy_pj = 0;             // per flip-flop bit per cycle: its pin and tree share
};

struct Technology {
  std::string node = "45nm";  // a shipped table (tech::shippedNodes())
  std::string table;          // or a user's table file ("" = the shipped node)
  double voltage = 0;         // V; 0 = the node's nominal
};

// On-chip area and leakage of the chip, per component (each on-chip level, register_file,
// array, sfu): every instance under the fan-outs and every core (the L2 once). Filled by
// arch::load; the devices of arch/cores.h keep the whole chip's.
struct Silicon {
  std::vector<std::pair<std::string, double>> area_mm2;
  std::vector<std::pair<std::string, double>> leakage_mw;
  // Energy drawn every cycle, whatever the ops do: the clock tree and the control logic. The
  // arrays' clock only while they compute when clock gating is on.
  struct Clocked {
    std::string component;  // "clock" | "control"
    double pj_per_cycle = 0;
    bool while_computing = false;
  };
  std::vector<Clocked> clocked;
  double pe_pitch_mm = 0;  // side of one PE (MAC + its registers), for wire lengths
  // The standard cells of each logic component in NAND2-equivalent gates (a chip's "gate
  // count"): cell area over the node's NAND2, before placement; SRAM macros are not gates. A
  // component whose area the design gives counts as placed standard cells.
  std::vector<std::pair<std::string, double>> logic_gates;
  // The on-chip SRAM per component, as chip papers list it: bytes and the compiler macros they
  // are built of (tech::sramMacros), every core and instance.
  struct Sram {
    std::string component;
    double bytes = 0;
    double macros = 0;
  };
  std::vector<Sram> sram;
  double totalArea() const;
  double totalLogicGates() const;
  double totalLeakage() const;
};

// The category publications break a chip's area and power into, of an area or energy
// component ("array", "register_file", "sfu", "noc", "control", "dma", "clock", "io", "host", a
// storage level's name, `level` when it is one): "compute", "on-chip memory", "noc", "control",
// "clock", "I/O", off the die "dram" (`offchip_level`) and "host"; "other" for a name none of
// these.
std::string_view categoryOf(std::string_view component, std::string_view offchip_level, bool level);
// What a chip has that the model does not count yet (named in reports, never shown as 0).
inline constexpr std::string_view kNotModeled =
    "PLLs, test and debug logic (scan, BIST), the pad ring's power pads, the I/O's standby power";

struct Accelerator {
  std::string name;
  std::string source;  // file it came from
  std::string description;
  double clock_hz = 1e9;
  std::vector<StorageLevel> levels;  // from DRAM inwards
  Dma dma;
  Controller controller;
  ComputeArray array;
  Noc noc;
  std::optional<Sfu> sfu;
  Host host;
  Cores cores;
  Layout layout;
  Technology technology;
  Floorplan floorplan;
  SparseSupport sparse;  // what the design does with zeros; dense by default
  Silicon silicon;  // derived at load
  // Valid but questionable choices ("the scratchpad cannot hold one full array tile"), each
  // "FILE:LINE:COL: at PATH: message". Not hardware: left out of hash().
  std::vector<std::string> warnings;

  const StorageLevel* level(LevelKind kind) const;  // first level of that kind, or nullptr
  // Instances of the array: the product of every level's fan-out.
  int64_t arrays() const;
  // Copies of storage level i in one core: the product of the fan-outs above it (the
  // accumulator beside the scratchpad is not under the scratchpad's).
  int64_t instancesOf(size_t level) const;
  // Peak MACs per cycle of every array of one core at the array's input dtype.
  double peakMacsPerCycle() const;
  // Stable hash of the canonical spec (hex), for reports and sweep caches.
  std::string hash() const;
  // The text hash() digests: every hardware parameter, one "key=value" per line. name,
  // description and source are labels, not hardware, and are left out.
  std::string canonical() const;
};

}  // namespace tessel::arch
