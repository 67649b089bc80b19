// The SystemC platform: one sc_module per hardware block (controller, DMA, local memories, NoC,
// array, SFU, host), elaborated once per process, that executes an op's command stream. The
// blocks are thin: each asks its plain timing model (timing/) when a command ends and signals
// completion at that simulated time; the controller issues commands as their queues and
// dependencies allow. This header is SystemC-free.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/systemc/lower/command.h"
#include "sim/systemc/timing/issue_logic.h"
#include "sim/systemc/timing/memory_path.h"
#include "sim/systemc/timing/timeline.h"

namespace tessel::sim::systemc {

// The timing state of one accelerator: what the blocks consult. An engine owns one and keeps it
// across ops, so an op's transfers queue behind the previous op's.
struct BlockModels {
  explicit BlockModels(MemoryPath path) : memory(std::move(path)) {}
  MemoryPath memory;                       // DMA + DRAM (+ L2)
  // Per Accelerator level, three timelines: a level split per tensor (StorageLevel::
  // partitioned) is a buffer per tensor, each with its own port; any other uses the first.
  std::vector<Timeline> ports;
  std::vector<double> port_bandwidth;      // bytes/cycle per level (0 = unlimited)
  Timeline noc, array, sfu, host;
  double noc_bandwidth = 0;                // bytes/cycle (0 = unlimited)
  bool array_primed = false;  // the op's first compute has paid the pipeline's first preload
  std::array<int, kNumQueues> entries{8, 16, 4, 16};  // reservation-station entries per queue
  std::vector<char> pooled;                           // per level: split per tensor
};

// Why a command ended later than its own work: what it waited on after it started.
enum class Limiter : uint8_t { None, Noc, Port };

struct CommandTiming {
  double start = 0;     // its block began it
  double work_end = 0;  // its own work done (the array's steps, the SFU's passes...)
  double released = 0;  // the array consumed its operands: their buffer half may refill
  double end = 0;       // finished: operands delivered, bytes written
  Limiter limiter = Limiter::None;
  int16_t port = -1;    // the level whose port ended last, when limiter == Port
};

struct OpRun {
  double begin = 0, end = 0;  // cycles, on the platform's clock
  std::vector<CommandTiming> timing;
  IssueLogic logic;
};

// Runs `stream` to completion on the process's blocks, timed by `models`, into `run` (its
// buffers reused). Not reentrant; one platform per process, shared by the engines in turn.
void runOnPlatform(const CommandStream& stream, BlockModels& models, OpRun& run);

}  // namespace tessel::sim::systemc
