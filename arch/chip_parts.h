// Internal to arch/: the silicon a chip has besides its arrays and storage levels, each from
// the design's own geometry and the technology (arch/chip_parts.cpp, docs/technology.md):
// the controller, the DMA engines, a mesh's routers, the DRAM PHY, the host link's lanes, an
// accumulator's adders, and the clock tree's energy per cycle.
#pragma once

#include <array>
#include <cstdint>

#include "util/dtype.h"

namespace tessel::tech {
struct Technology;
struct SramShape;
}  // namespace tessel::tech

namespace tessel::arch {

struct Building;
struct Accelerator;
struct StorageLevel;
struct ComputeArray;

// The SRAM macros of `bytes` at this level (its row or port width, its banks and ports, the
// floorplan's macro limits).
tech::SramShape sramShapeOf(const Accelerator& acc, const StorageLevel& l, uint64_t bytes);
// A memory of `bytes` read `word_bits` at a time, cut into the floorplan's macros.
tech::SramShape sramShape(const Accelerator& acc, uint64_t bytes, int word_bits);
// One pad of a split register file (Eyeriss's filter, ifmap and psum pads): its tensor, bytes,
// the dtype of its words, and whether it is built as an SRAM macro (array.register_file_sram).
struct RegisterFilePad {
  const char* tensor;
  uint64_t bytes;
  DType dtype;
  bool sram;
};
// Inputs, weights, outputs; all empty unless the register file is split.
std::array<RegisterFilePad, 3> registerFilePads(const ComputeArray& a);
// The macro of an SRAM pad: read one input value at a time.
tech::SramShape padSramShape(const Accelerator& acc, const RegisterFilePad& pad);
// Each DMA engine's buffer for the bytes it has in flight, read a bus width at a time.
tech::SramShape dmaBufferShape(const Accelerator& acc);
// Bytes of pipeline flip-flops in one PE: what its dataflows keep in it double-buffered (WS:
// the weight and the one preloading behind it; a systolic array's OS: the sum accumulating and
// the one draining) and what passes through (the input, and WS's partial sum or OS's weight);
// shared between the dataflows an array runs, the wider kept (Gemmini's PE.scala).
uint64_t pipelineBytes(const ComputeArray& a);
// Bytes of flip-flops at a systolic array's edges that line its operands up with the wavefront:
// the inputs' skew (row i delayed i cycles), OS's weights' skew, and the results' deskew unless
// the accumulator has a bank per column (Gemmini's MeshWithDelays shifts A, B, D and C; TPU v1's
// systolic data setup skews its inputs). 0 for a spatial array.
uint64_t skewBytes(const Accelerator& acc);
// Clock loads of one PE (flip-flop bits, or gates) that see the clock every cycle the array
// runs: its pipeline and second-level registers, and its flip-flop register file — with clock
// gating one gate per word (a word's flip-flops clock on its writes), without every bit.
double clockedBitsPerPe(const ComputeArray& a, bool clock_gating);
// Flip-flop bits of the controller's command queues, and of one mesh router's buffers.
double queueBits(const Accelerator& acc);
double routerBufferBits(const Accelerator& acc);
// Their clock loads: with clock gating a gate per entry (an entry's flip-flops clock on its
// writes, as a register file's words), without every bit.
double queueClockLoads(const Accelerator& acc);
double routerClockLoads(const Accelerator& acc);

void deriveFloorplan(Building& b, const tech::Technology& t);
void deriveController(Building& b, const tech::Technology& t);
void deriveDma(Building& b, const tech::Technology& t);
// Needs the array's placed area (the routers' flits follow its operands).
void deriveNocRouters(Building& b, const tech::Technology& t);
void deriveDramPhy(Building& b);
// The array's epilogue (its activation pipeline): array.cols lanes on the accumulator's read
// path, each with a unit per op of array.epilogue_ops; its area, leakage and energy per element
// of each op.
void deriveEpilogue(Building& b, const tech::Technology& t);
// Area and leakage of an accumulating level's adders, one per element of its row.
void addAccumulatorAdders(Building& b, const tech::Technology& t, StorageLevel& l);

}  // namespace tessel::arch
