// The accelerator as the loop-nest model sees it: a chain of storage levels from the tensors'
// off-chip homes down to the PEs, with the spatial fan-out (the NoC) between the innermost
// shared level and the PEs' register files. Built once per accelerator from arch::Accelerator;
// both array families read the same fields:
//   Gemmini-like: dram -> (l2) -> scratchpad [inputs, weights] + accumulator [outputs]
//                 -> systolic links -> PE registers (one element of the stationary tensor)
//   Eyeriss-like: dram -> (l2) -> global buffer -> multicast NoC -> PE scratch pads
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
  double mac_pj = 0;
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

  int pe() const { return static_cast<int>(levels.size()) - 1; }
  int local() const { return pe() - 1; }
  int64_t pes() const { return static_cast<int64_t>(rows) * cols; }
};

// The nest view of `acc`. The PE level of a systolic array holds one element of a tensor (its
// pipeline register); a spatial array's holds what array.register_file gives.
Hardware hardwareOf(const arch::Accelerator& acc);

}  // namespace tessel::dataflows::nest
