// What a mapping costs: access counts per level and tensor (temporal reuse, spatial multicast and
// reduction, partial sums leaving and re-entering a level, convolution halos, partial tiles),
// the latency they imply (array steps with spatial utilization, systolic skew and stationary
// swaps, per-level bandwidth, double buffering) and energy = accesses x energy per access.
// Closed forms over the loop nest: cost does not grow with the number of iterations.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

using PerTensor = std::array<double, kTensors>;

struct CostOptions {
  std::array<int, kTensors> home{0, 0, 0};  // nest level each tensor lives in (DRAM or L2)
  double mac_rate = 1;                       // MACs per PE per cycle for the problem's dtype
  bool ideal_memory = false;                 // off-chip transfers are free
};

struct Cost {
  bool ok = false;
  std::string reason;  // why not, when !ok (a tile does not fit)
  int64_t macs = 0;
  double steps = 0;         // array steps: MAC slots per PE, partial tiles included
  double compute = 0;       // macs / (PEs x rate): the ideal
  double array = 0;         // the array's busy time: steps / rate + systolic skew and swaps
  // The array time's parts (tile_timing.h), which a command-level engine spreads over tiles:
  double tiles = 0;           // local tiles
  double swaps = 0;           // stationary-tensor swaps (systolic)
  double swap_exposed = 0;    // cycles each swap's preload adds beyond its stream
  double run_start = 0;       // once per back-to-back run: the first preload's unhidden part
  double pipeline_tail = 0;   // once per run: skew + edge register, the last result leaving
  double tile_overhead = 0;   // per local tile (spatial arrays' pipeline latency)
  double local = 0;         // the local SRAMs' port time
  double noc = 0;           // the NoC's transfer time
  double offchip = 0;       // DRAM/L2 transfer time
  PerTensor request_bytes{};  // bytes per DMA request for each tensor's tile rows (requestBytes)
  double cycles = 0;        // the op's latency
  double utilization = 0;   // macs / (cycles x PEs x rate)
  std::vector<PerTensor> reads, writes;  // bytes per Hardware level and tensor, all instances
  // writes split by where they come from (Timeloop's terms): fills from the parent (operands,
  // and partial sums sent back down), updates from the children (partial sums going up).
  std::vector<PerTensor> fills, updates;
  PerTensor noc_bytes{};                 // bytes sent over the array's NoC (a multicast once)
  PerTensor delivered{};                 // bytes the PEs receive (a multicast counts per PE)
  // The same for every fan-out, per Hardware level (the fan-out below it; the array's NoC is
  // not among them): bytes sent into its network, bytes its instances receive.
  std::vector<PerTensor> fanout_sent, fanout_delivered;
  std::vector<double> level_energy;      // pJ per Hardware level
  PerTensor tensor_energy{};             // pJ per tensor, all levels and the NoC
  double noc_energy = 0, mac_energy = 0;
  double energy = 0;                     // pJ, everything
  double lower_bound = 0;                // max(compute, unique off-chip bytes / bandwidth)
  // Sparse operands (sparse.h): MACs performed (a skipped one is not; a gated one is counted in
  // gated_macs and spends no energy), metadata bytes moved at every level, and how the array's
  // steps were taken: an accelerated N:M reduction over ceil(C * keep_n / keep_m) elements,
  // skipping as step_scale steps per dense step (the lockstep group's expected maximum).
  double effective_macs = 0, gated_macs = 0;
  double metadata_bytes = 0, decoded = 0;  // decoded: non-zero values the array decodes
  int keep_n = 1, keep_m = 1;
  double step_scale = 1;

  double dramBytes() const;  // reads + writes at level 0
};

// "" when every level's kept tiles fit its capacity pools (two copies on chip when
// double-buffered), else which level overflows and by how much (and `blame`, when given, names
// that level).
std::string checkCapacity(const Problem& p, const Mapping& m, const Hardware& hw,
                          Blame* blame = nullptr);

Cost evaluate(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o);

// Bytes per DMA request for each tensor of the mapping's local tile. Gemmini's DMA issues one
// request per row of a tile (StreamReader/StreamWriter, DMA.scala: a mvin or mvout command is
// split into rows, each row into aligned requests of at most dma_maxbytes), and the loop
// unroller moves at most max_block_len = dma_maxbytes / (DIM x element bytes) blocks per row
// (LoopMatmul.scala, LoopMatmulLdA/LdB/StC). A row is the tile's run along the tensor's
// contiguous dim (row-major A[m][k], B[k][n], C[m][n]; NHWC inputs and outputs, HWIO weights):
// c for inputs, k (the GEMM's n) for weights and outputs, continuing across the groups of a grouped
// convolution when the tile spans a group's whole run. A run of b bytes takes ceil(b / max)
// requests, b / ceil(b / max) bytes each. With hw.dma_row_requests false: max each.
PerTensor requestBytes(const Problem& p, const Mapping& m, const Hardware& hw);

// The rate at which off-chip level `level` streams requests of `request_bytes`: its bandwidth,
// and Little's law over the DMA's window, dma_inflight x request_bytes / the level's round trip.
double offchipRate(const Hardware& hw, int level, double request_bytes);

// Array steps (MAC slots per PE) of one local tile whose extents are `size`, partial array
// tiles included: the per-tile share of Cost::steps that a command-level engine times.
// `sparse`: the evaluated cost, whose keep_n/keep_m and step_scale shape the steps (sparse.h).
double tileSteps(const Mapping& m, const Hardware& hw, const Factors& size,
                 const Cost* sparse = nullptr);

}  // namespace tessel::dataflows::nest
