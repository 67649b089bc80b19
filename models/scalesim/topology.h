// SCALE-Sim topology CSVs (v2 and v3) -> a models::Graph: `--workload path/to/topology.csv`.
//
// Two formats, told apart by the header (SCALE-Sim itself is told by a command-line flag):
//   conv  "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels,
//          Num Filter, Strides," then one layer per line. IFMAP dims already include the
//          model's padding; outputs are SCALE-Sim's ceil((IFMAP - filter + stride) / stride) per
//          axis, which tessel realizes as the small symmetric pad ceilPad gives (0 when the
//          stride divides IFMAP - filter). An optional 9th field is a stride width (v2: an
//          integer; tessel has one stride, so it must equal Strides) or an N:M sparsity ratio
//          (v3; N <= M <= 64: the layer's weights are N:M along the reduction, timed as the design's
//          `sparsity:` support says); an empty 9th is
//          absent, and fields past the 9th are ignored (one warning per file), as SCALE-Sim does.
//          A layer whose name contains "DP" (case-sensitive, SCALE-Sim's test) is depthwise:
//          SCALE-Sim runs it as Channels one-channel convs of Num Filter filters each, i.e. a
//          grouped conv with groups = Channels and Channels x Num Filter outputs (same MACs).
//   GEMM  "Layer, M, N, K," then one layer per line, optional 5th field an N:M sparsity ratio.
//          SCALE-Sim multiplies an M x K ifmap by a K x N filter (it runs the conv of an M x K
//          image with N filters of 1 x K): one MatMul with gemm {m = M, n = N, k = K}.
// Like SCALE-Sim, the first non-empty line is the header, whatever its spacing (non-breaking
// spaces and a BOM too); a tab-separated header makes a tab-separated file. Rows with no
// non-empty field (",,,,,,,,") are skipped; a row with only a name ("AlphaGoZero,", a section
// title) is skipped with a warning; a field starting with '#' ends its row (a comment: "#dw").
// Each layer becomes one op named as in the file (a repeated name gets "#2", "#3"..., skipping
// any the file uses itself, and a warning), reading its own graph input "<name>.ifmap"
// (SCALE-Sim times every layer apart).
// Tensors get options.dtype; --batch multiplies a conv's N and a GEMM's M.
#pragma once

#include <cstdint>
#include <string>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models::scalesim {

// The symmetric pad that makes floor((in - filter + 2 pad) / stride) + 1 equal SCALE-Sim's
// ceil((in - filter + stride) / stride): 0 when stride divides in - filter, else
// ceil((stride - (in - filter) mod stride) / 2). Requires filter <= in and stride >= 1.
int64_t ceilPad(int64_t in, int64_t filter, int64_t stride);

// Throws ConfigError at file:line:column and a path such as "layer[3].Filter Height" (layers
// count from 0, as SCALE-Sim's LayerID) for a missing or unreadable file, an unknown header, a
// too few fields, a non-integer, zero or negative value, a filter larger than its IFMAP, a
// stride width unlike Strides, a malformed sparsity ratio, counts that would overflow, or a file
// without layers.
Graph importTopology(const std::string& path, const WorkloadOptions& options);

// The same from text; `source` names it in errors (tests).
Graph parseTopology(const std::string& text, const std::string& source,
                    const WorkloadOptions& options);

}  // namespace tessel::models::scalesim
