// A mapping the user pins for one op (`tessel run --mapping FILE`), in tessel's form:
//
//   op: h0.mlp.fc1              # the op it pins (names as `tessel run --top all` lists them)
//   view: gemm                  # optional: gemm (a convolution as its im2col GEMM) or nest
//   spatial: {rows: {k: 16}, cols: {n: 16}}
//   levels:                     # inner to outer or any order; names as the loop nest prints
//     pe: {factors: {m: 128}, keeps: [weights]}
//     scratchpad+accumulator: {factors: {n: 4, k: 48}, order: [n, k]}
//     global_buffer: {parallel: {k: 4}}  # spatial factors over a level's fan-out, if it has one
//     dram: {order: [m, n, k]}  # factors left out cover what the inner levels leave
//   double_buffered: true
//
// or in Timeloop's map.yaml form, a `mapping:` list of directives (timeloop_map.h):
//
//   op: conv1                   # optional here too
//   mapping:
//     - {target: pe, type: temporal, factors: R=3 S=3 Q=7, permutation: SRQ}
//     - {target: global_buffer, type: spatial, factors: C=4 M=12, permutation: CM, split: 1}
//   targets: {PE: pe}           # optional: Timeloop's level names -> tessel's
//
// tessel's form names dims as the problem does (GEMMs b m n k, convolutions G N K C P Q R S);
// Timeloop's as Timeloop does (R S P Q C M N, M the output channels). Without `op:` the mapping
// pins the workload's only op to map. Every error is located in the file; a mapping that does
// not fit is refused with the level that overflows.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/mapper.h"
#include "dataflows/problem.h"

namespace tessel::dataflows {

struct PinnedMapping;

// Reads the file (ConfigError on unreadable or malformed YAML).
std::shared_ptr<const PinnedMapping> loadPinnedMapping(const std::string& path);
// The op name it gives ("" when it names none).
const std::string& pinnedOp(const PinnedMapping& pin);
// The op it pins among `ops` (those the mapper maps): the one it names, else the only one.
// ConfigError located in the file otherwise (an unknown name with the closest ones).
std::string pinnedOpAmong(const PinnedMapping& pin, const std::vector<std::string>& ops);
// The pinned mapping for `p` on `acc` under `df`, checked for shape and capacity.
MapResult pinnedMapping(const PinnedMapping& pin, const Problem& p, const arch::Accelerator& acc,
                        const Dataflow& df, const MapConstraints& constraints);

}  // namespace tessel::dataflows
