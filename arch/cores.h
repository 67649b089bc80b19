// The devices a multi-core accelerator presents: all its cores fused into one wider device, or
// one core among several that share the DRAM. Both return an ordinary Accelerator, so mappers
// and engines time them unchanged.
#pragma once

#include "arch/accelerator.h"

namespace tessel::arch {

// The device a workload sees when all cores run it as one ("fused"): each core computes a slice
// of the output columns, so the array is count x wider (rows x cols*count), every on-chip level
// (scratchpad, accumulator, global buffer; register files stay per PE) has count x capacity,
// banks (or row width, below) and bandwidth, the SFU count x lanes, the DMA count x requests in
// flight; the DRAM, the L2 and the host are shared and unchanged. cores.count becomes 1.
// count == 1 returns acc.
//
// So that the result is the device the loader would build from a YAML file with those numbers:
//  - scratchpad and accumulator rows are one array row wide (cols x dtype), so their rows
//    widen count x (the cores' rows side by side) and the bank count stays; a global buffer,
//    whose rows do not follow the array, gets count x the banks. Capacity, and bandwidth
//    (banks x row width), grow count x either way, and every capacity stays whole rows.
//  - a derived pipeline latency (rows + cols - 2) is pinned to one core's: the cores fill and
//    drain side by side, not as one array count x as wide.
//  - the DMA bus is count x wide as well as count x deep: each core has its own DMA engine.
//  - the NoC (when bounded) carries count x the bytes: each core has its own.
//  - the controller's queues, per-byte and per-MAC energies, and cores.fused_sync_cycles (for
//    whoever charges it per op) are unchanged.
Accelerator fusedDevice(const Accelerator& acc);

// One core's view while `busy` cores (itself included, 1..count) run at once: the DRAM's (and
// the L2's) bandwidth split evenly. busy == 1 returns acc unchanged (but with cores.count kept).
// Throws ConfigError (at cores.count) for busy outside 1..count.
Accelerator coreSharing(const Accelerator& acc, int busy);

}  // namespace tessel::arch
