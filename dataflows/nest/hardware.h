// The accelerator as the loop-nest model sees it: a chain of storage levels from the tensors'
// off-chip homes down to the MACs, each level with a fan-out below it (instances of everything
// further in) and the array's own fan-out (rows x cols, the NoC) between the last shared level
// and the PEs. A tree of identical subtrees is a chain with fan-outs: Timeloop's view too.
// Built once per accelerator from arch::Accelerator:
//   Gemmini-like: dram -> (l2) -> scratchpad [inputs, weights] + accumulator [outputs]
//                 -> systolic links -> PE registers (one element of the stationary tensor)
//   Eyeriss-like: dram -> (l2) -> global buffer -> multicast NoC -> PE scratch pads
//   Simba-like:   dram -> global buffer -(16 PEs)-> PE buffers -(8 x 8)-> weight registers
//   TPU-like:     dram -> unified buffer -(4 MXUs)-> 128 x 128 systolic arrays
#pragma once

#include <array>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

struct Level {
  std::string name;                         // "dram", "l2", "scratchpad", "global_buffer", "pe"
  std::array<int, kTensors> arch_level{};   // index into Accelerator::levels per tensor; -1 = PE
  std::array<bool, kTensors> can_hold{};    // tensors this level may keep
  // Capacity pools: each tensor draws on pool pool_of[t]; tensors with the same pool share it.
  std::array<int, kTensors> pool_of{};
  std::array<double, kTensors> pool_bytes{};  // per pool; < 0 = unbounded
  bool off_chip = false;                       // DRAM or L2: tiles stream over the DMA
  bool per_pe = false;                         // the PE level: one copy per PE
  // Bytes per cycle each tensor's port moves (0 = unlimited) and per-byte energies.
  std::array<double, kTensors> bandwidth{};
  std::array<double, kTensors> read_pj{};
  std::array<double, kTensors> write_pj{};
  double latency = 0;  // off-chip: a DMA request's round trip when this level serves it (cycles)
  // The fan-out below this level: copies of everything further in per copy of this level. The
  // array's rows x cols are not here (Hardware::rows, cols, below Hardware::array()).
  int fanout = 1;
  bool fanout_multicast = false;  // one read feeds every instance needing the value
  bool fanout_reduction = false;  // the instances' partial sums add up in the network
  double fanout_bandwidth = 0;    // bytes/cycle into one instance; 0 = unlimited
  bool fanout_split_reduction = true;  // instances may share a reduction dim
  double fanout_pj = 0;           // per byte per instance reached
  int64_t instances = 1;          // copies of this level in the design (fan-outs above it)
  // How this level keeps inputs (0) and weights (1) when they are sparse (arch::SparseSupport).
  std::array<arch::SparseFormat, 2> format{arch::SparseFormat::None, arch::SparseFormat::None};
  // Per operand: the operand whose zeros skip (no port slot, no energy) or gate (energy only)
  // this level's reads of it; -1 none (arch::SparseSupport::skip_reads, gate_reads).
  std::array<int8_t, 2> skip_reads{-1, -1}, gate_reads{-1, -1};
};

struct Hardware {
  std::vector<Level> levels;  // outermost first; levels[local()] is the last shared level
  int rows = 1, cols = 1;
  bool systolic = true;
  bool multicast = true;  // one buffer read may feed every PE that needs the value
  bool reduction = true;  // partial sums of different PEs add up in the network
  double noc_bandwidth = 0;  // bytes/cycle, 0 = unlimited
  double noc_pj = 0;         // per byte per hop (per transfer on a bus)
  // A bus broadcasts inputs and weights: one transfer per distinct value, however many PEs take
  // it. Neighbour links (systolic) and a mesh's multicast tree cross one link per PE reached;
  // partial sums always add up over neighbour links, a hop per contributing PE.
  bool noc_bus = false;
  double mac_pj = 0;  // at the array's input dtype
  std::vector<std::pair<DType, double>> mac_pj_by_dtype;  // each dtype the array runs
  double macPj(DType t) const;
  double offchip_bandwidth = 0;  // bytes/cycle between the off-chip levels and the local ones
  double offchip_latency = 0;    // cycles
  // The DMA's request window (Gemmini DMA.scala: max_in_flight_mem_reqs requests of at most
  // dma_maxbytes, one per tile row): see offchipRate in cost.h.
  double dma_inflight = 0;       // requests outstanding at once (0 = no window)
  double dma_request = 64;       // bytes per request at most
  bool dma_row_requests = true;  // a request per tile row (else every request is dma_request)
  double fill_drain = 0;         // systolic skew per local tile
  bool weight_double_buffered = true;
  DType accum_dtype = DType::Int32;
  int dram = 0;  // index of the DRAM level
  int l2 = -1;   // index of the L2, -1 if none
  // -1 (a chain built by hand): the first level not off chip, the last one not per PE.
  int local_level = -1;  // the first on-chip level: where the DMA delivers tiles
  int array_level = -1;  // the last shared level, right above the array's fan-out
  int64_t arrays = 1;    // copies of the array (the product of the levels' fan-outs)
  arch::SparseSupport sparse;  // what the datapath does with zeros (formats: Level::format)

  int local() const { return local_level >= 0 ? local_level : firstWhere(false); }
  int array() const { return array_level >= 0 ? array_level : firstWhere(true) - 1; }
  int pe() const { return array() + 1; }  // the first per-PE level
  int64_t arrayPes() const { return static_cast<int64_t>(rows) * cols; }
  int64_t pes() const { return arrayPes() * arrays; }  // every PE of every array
  bool hasFanouts() const { return arrays > 1; }

 private:
  int firstWhere(bool per_pe) const {
    for (size_t i = 0; i < levels.size(); ++i) {
      if (per_pe ? levels[i].per_pe : !levels[i].off_chip) return static_cast<int>(i);
    }
    return static_cast<int>(levels.size());
  }
};

// The nest view of `acc`. The PE level of a systolic array holds one element of a tensor (its
// pipeline register); a spatial array's holds what array.register_file gives.
Hardware hardwareOf(const arch::Accelerator& acc);

}  // namespace tessel::dataflows::nest
