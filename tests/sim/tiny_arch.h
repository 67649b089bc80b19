// A small accelerator built in code, so engine tests do not depend on the YAML loader:
// DRAM (16 B/cycle, 10 cycles) -> scratchpad 16 KiB + accumulator 2 KiB -> 4x4 systolic array,
// INT8 in / INT32 accumulate, at 1 GHz; DMA 16 B bus, 64 B requests, 16 in flight (its window,
// 16*64/10 = 102 B/cycle, never binds here).
#pragma once

#include "arch/accelerator.h"

namespace tessel::testing {

inline arch::Accelerator tinyArch(int dim = 4, double dram_bw = 16) {
  arch::Accelerator a;
  a.name = "tiny";
  a.clock_hz = 1e9;
  arch::StorageLevel dram;
  dram.name = "dram";
  dram.kind = arch::LevelKind::DRAM;
  dram.bandwidth = dram_bw;
  dram.latency = 10;
  dram.holds = {true, true, true};
  arch::StorageLevel sp;
  sp.name = "scratchpad";
  sp.kind = arch::LevelKind::Scratchpad;
  sp.capacity_bytes = 16 * 1024;
  sp.holds = {true, true, false};
  arch::StorageLevel acc;
  acc.name = "accumulator";
  acc.kind = arch::LevelKind::Accumulator;
  acc.capacity_bytes = 2 * 1024;
  acc.holds = {false, false, true};
  acc.dtype = DType::Int32;
  a.levels = {dram, sp, acc};
  a.array.rows = dim;
  a.array.cols = dim;
  a.array.dataflows = {"ws", "os", "is"};
  a.array.macs_per_cycle = {{DType::Int8, 1.0}};
  a.array.epilogue_ops = {"relu"};
  a.host.clock_hz = 2e9;
  a.host.mem_bandwidth_bytes_per_s = 25.6e9;
  a.host.link_bandwidth = 16;
  a.host.link_latency = 500;
  a.host.offload_overhead = 1000;
  a.host.cycles_per_element = {{"quantize", 2}, {"dequantize", 2}, {"gelu", 30}, {"add", 1}};
  return a;
}

}  // namespace tessel::testing
