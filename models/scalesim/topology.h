// SCALE-Sim topology CSVs (v2 and v3) -> a models::Graph: `--workload path/to/topology.csv`.
//
// Two formats, told apart by the header (SCALE-Sim itself is told by a command-line flag):
//   conv  "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels,
//          Num Filter, Strides," then one layer per line. IFMAP dims already include padding
//          (pad 0); outputs are (IFMAP - filter) / stride + 1, floored. An optional 9th field is
//          a stride width (v2: an integer; tessel has one stride, so it must equal Strides) or an
//          N:M sparsity ratio (v3; N <= M; tessel times the dense layer and says so in a warning).
//          A layer whose name contains "DP" (case-sensitive, SCALE-Sim's test) is depthwise:
//          SCALE-Sim runs it as Channels one-channel convs of Num Filter filters each, i.e. a
//          grouped conv with groups = Channels and Channels x Num Filter outputs (same MACs).
//   GEMM  "Layer, M, N, K," then one layer per line, optional 5th field an N:M sparsity ratio.
//          SCALE-Sim multiplies an M x K ifmap by a K x N filter (it runs the conv of an M x K
//          image with N filters of 1 x K): one MatMul with gemm {m = M, n = N, k = K}.
// Each layer becomes one op named as in the file (a repeated name gets "#2", "#3"... and a
// warning), reading its own graph input "<name>.ifmap" (SCALE-Sim times every layer apart).
// Tensors get options.dtype; --batch multiplies a conv's N and a GEMM's M.
#pragma once

#include <string>

#include "models/graph.h"
#include "models/workload.h"

namespace tessel::models::scalesim {

// Throws ConfigError at file:line:column and a path such as "layer[3].Filter Height" (layers
// count from 0, as SCALE-Sim's LayerID) for a missing or unreadable file, an unknown header, a
// wrong field count, a non-integer, zero or negative value, a filter larger than its IFMAP, a
// stride width unlike Strides, a malformed sparsity ratio, counts that would overflow, or a file
// without layers.
Graph importTopology(const std::string& path, const WorkloadOptions& options);

// The same from text; `source` names it in errors (tests).
Graph parseTopology(const std::string& text, const std::string& source,
                    const WorkloadOptions& options);

}  // namespace tessel::models::scalesim
