// A mapping the user pins for one op (`tessel run --mapping FILE`):
//
//   op: h0.mlp.fc1              # the op it pins (names as `tessel run --top all` lists them)
//   view: gemm                  # optional: gemm (a convolution as its im2col GEMM) or nest
//   spatial: {rows: {k: 16}, cols: {n: 16}}
//   levels:                     # inner to outer or any order; names as the loop nest prints
//     pe: {factors: {m: 128}, keeps: [weights]}
//     scratchpad+accumulator: {factors: {n: 4, k: 48}, order: [n, k]}
//     dram: {order: [m, n, k]}  # factors left out cover what the inner levels leave
//   double_buffered: true
//
// Dims use the problem's names (GEMMs b m n k, convolutions G N K C P Q R S). Every error is
// located in the file; a mapping that does not fit is refused with the level that overflows.
#pragma once

#include <memory>
#include <string>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/mapper.h"
#include "dataflows/problem.h"

namespace tessel::dataflows {

struct PinnedMapping;

// Reads the file (ConfigError on unreadable or malformed YAML, or no `op:`).
std::shared_ptr<const PinnedMapping> loadPinnedMapping(const std::string& path);
// The op name it pins.
const std::string& pinnedOp(const PinnedMapping& pin);
// ConfigError at the `op:` key: no op of that name (with the closest names).
[[noreturn]] void failUnknownOp(const PinnedMapping& pin, const std::vector<std::string>& names);
// The pinned mapping for `p` on `acc` under `df`, checked for shape and capacity.
MapResult pinnedMapping(const PinnedMapping& pin, const Problem& p, const arch::Accelerator& acc,
                        const Dataflow& df, const MapConstraints& constraints);

}  // namespace tessel::dataflows
