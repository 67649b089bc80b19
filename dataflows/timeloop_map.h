// Loop-nest mappings in Timeloop's map.yaml terms, read and written:
//
//   mapping:                     # directives, any order; one per target and type
//     - target: dram             # a level name (nest::Hardware), or a key of `targets:`
//       type: temporal           # loops over the tiles of the level below
//       factors: R=1 S=1 P=1 Q=1 C=2 M=4 N=1   # dims left out: 1 (the outermost: the rest)
//       permutation: QPCMRSN     # innermost first; dims with factor 1 may be left out
//     - target: global_buffer
//       type: spatial            # over the fan-out below the target (here the array)
//       factors: R=3 C=4 P=7
//       permutation: RCP         # the first `split` dims across rows (X), the rest across
//       split: 2                 # columns (Y); no split: all across rows
//     - target: pe
//       type: datatype           # or bypass: which tensors the level keeps
//       keep: [Weights, Inputs]
//       bypass: [Outputs]
//   targets: {DRAM: dram, GlobalBuffer: global_buffer, PEWeightRegs: pe}   # optional
//   double_buffered: false       # optional, tessel's: on-chip tiles are not double-buffered
//   reload: {weights: once}      # optional, tessel's: Mapping::Reload (nest, every_tile, once)
//
// Dims use Timeloop's convolution names R S P Q C M N (and G for groups): M is tessel's K (output
// channels), C the input channels, N the batch. A GEMM is the convolution Timeloop writes for it:
// P = m, M = n, C = k, G = b. Tensors are Weights, Inputs, Outputs. A spatial entry on the level
// right above the array (Hardware::array()) unrolls over its rows and columns; on another level,
// over that level's fan-out (Level::fanout). When the array's level has a fan-out of its own,
// its entry says `fanout: true` (Timeloop would need a dummy level between the two fan-outs).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/nest/problem.h"
#include "util/yaml.h"

namespace tessel::dataflows {

struct OpPlan;

using Keeps = std::array<bool, nest::kTensors>;  // by Operand: inputs, weights, outputs

// Timeloop's name of a dim: "R", "S", "P", "Q", "C", "M", "N", "G".
std::string_view timeloopDimName(nest::Dim d);

// The mapping under `top`'s keys mapping, targets, double_buffered and reload (the caller reads
// any others and calls top.finish()). `keeps[l]`: what level l keeps where no datatype entry
// says (empty: what it can hold). ConfigError, located at the offending value, on an unknown
// target, type, dim or tensor, a factor below 1 or above the dim's extent, a dim twice, a
// spatial entry on a level with no fan-out or beyond the fan-out or the array, or two entries
// of one type for a level. The result's shape is the caller's to check (nest::checkShape).
// `entries` (when given) receives each level's temporal and spatial entry, so that a check made
// after reading (shape, dataflow, capacity) points at the entry to blame.
struct TimeloopEntries {
  std::vector<std::optional<yaml::Node>> temporal, spatial;  // by level; nullopt: none written
};
nest::Mapping readTimeloopMapping(yaml::MapReader& top, const nest::Problem& p,
                                  const nest::Hardware& hw, const std::vector<Keeps>& keeps = {},
                                  TimeloopEntries* entries = nullptr);

// `m` as map.yaml text (the keys above, `mapping:` first, no `targets:`): per level outermost
// first its temporal entry (every dim, the permutation innermost first), its spatial entries and
// a datatype entry naming every tensor. Reading it back gives `m` again. tessel::Error when a dim
// is unrolled across both the array's rows and its columns (Timeloop has one loop per dim).
std::string writeTimeloopMapping(const nest::Mapping& m, const nest::Problem& p,
                                 const nest::Hardware& hw);

// `tessel run --emit-mapping`: one YAML document per op of `plans` with a loop-nest mapping
// (only the pinned op's when one was pinned), `op:` first, then `view: gemm` when a convolution
// was mapped as its im2col GEMM, then writeTimeloopMapping.
std::string timeloopDocuments(const std::vector<OpPlan>& plans);

}  // namespace tessel::dataflows
