// The command stream one op lowers to: what the controller issues to the hardware blocks, with
// explicit dependencies, like Gemmini's load / execute / store queues feeding its reservation
// station. Plain C++ (no SystemC): the lowering is tested without a simulation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::sim::systemc {

// The reservation-station queue a command waits in; in-order issue within each queue. A fused
// group's vector-unit commands have their own queue, as a VLIW core issues its vector slots apart
// from its matrix slots: the SFU works on one block while the array computes the next.
enum class Queue : uint8_t { Load, Execute, Store, Vector };
inline constexpr int kNumQueues = 4;
std::string_view nameOf(Queue q);

enum class Kind : uint8_t {
  Load,     // DMA: off-chip level(s) -> local memory (a tile of inputs or weights, or partial sums)
  Store,    // DMA: local memory -> off-chip level (an output tile, or partial sums)
  Compute,  // the array: a local tile's preloads and computes (and its NoC deliveries)
  Sfu,      // the special-function unit: a chunk of an op streamed through its lanes
  Host,     // the host core: link transfers, the op itself, and the call overhead
};
std::string_view nameOf(Kind k);

// Bytes one command reads from or writes to one storage level for one tensor. The entries of an
// op's commands sum exactly to the op's traffic per level and tensor.
struct Access {
  uint8_t level = 0;    // index into Accelerator::levels
  uint8_t tensor = 0;   // Operand: 0 inputs, 1 weights, 2 outputs
  bool write = false;
  int64_t bytes = 0;
};

struct Command {
  Kind kind = Kind::Compute;
  Queue queue = Queue::Execute;
  int8_t tensor = -1;  // Load / Store: the tensor moved; -1 otherwise
  // false: the local levels' and the NoC's bytes are counted, not timed again (a fused group's
  // block GEMM, whose `work` is its own simulated time with those ports in it).
  bool time_local = true;
  int32_t tile = 0;    // local tile (or chunk) it belongs to
  double work = 0;     // Compute: array cycles; Sfu: SFU cycles; Host: host-side cycles
  // Load / Store of a GEMM tile: bytes per DMA request, one request per tile row
  // (dataflows::nest::requestBytes); 0 = requests of dma.max_request with no window of their own.
  double request_bytes = 0;
  int64_t noc_bytes = 0;            // Compute: bytes the NoC carries to the PEs
  int64_t register_file_bytes = 0;  // Compute: bytes read and written in PE register files
  uint32_t access_begin = 0, access_end = 0;  // range in CommandStream::accesses
  uint32_t dep_begin = 0, dep_end = 0;        // range in CommandStream::deps
};

struct CommandStream {
  std::vector<Command> commands;  // program order
  std::vector<Access> accesses;
  std::vector<uint32_t> deps;  // commands that must finish before the owner may start
  // Per-op constants the blocks need beyond each command's own fields.
  double ideal_compute = 0;  // MACs / (PEs x MAC rate): the Compute cause
  int64_t macs = 0;
  // The systolic pipeline (tile_timing.h): a compute that finds the array idle first pays the
  // unhidden part of its first preload; every compute's last results leave `pipeline_tail`
  // cycles after its stream, while the next compute may already stream.
  double run_start = 0;
  double pipeline_tail = 0;

  // Empties the stream, keeping its buffers for the next op.
  void clear() {
    commands.clear();
    accesses.clear();
    deps.clear();
    ideal_compute = run_start = pipeline_tail = 0;
    macs = 0;
  }
  uint32_t add(const Command& c) {
    commands.push_back(c);
    return static_cast<uint32_t>(commands.size() - 1);
  }
  // Appends a dependency of the last command added; ignores "none" (UINT32_MAX) and duplicates.
  void dependOn(uint32_t dep);
  void access(uint8_t level, uint8_t tensor, bool write, int64_t bytes);  // on the last command
  int64_t bytesAt(size_t level, int tensor, bool write) const;  // summed over all commands
};

inline constexpr uint32_t kNone = UINT32_MAX;

}  // namespace tessel::sim::systemc
