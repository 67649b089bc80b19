// Graph surgery by copying: Graph has no op-removal API (ids index every table), so a pass
// describes what changes and applyRewrite builds a new, re-validated graph.
#pragma once

#include <map>
#include <set>

#include "models/graph.h"

namespace tessel::models {

// What a pass changes, in the SOURCE graph's op and tensor ids.
struct Rewrite {
  // Op id -> the op emitted at that op's position instead (its inputs/outputs in source tensor
  // ids; its name must not clash with another emitted op). Emitting at the position of the
  // pattern's last op keeps topological order when the new op reads only the pattern's inputs.
  std::map<int, Op> replaced;
  std::set<int> dropped;  // ops not emitted at all
};

// The graph with the rewrite applied: ops in their original order, tensors renumbered. A tensor
// survives when an emitted op reads or writes it, when no source op touched it, or when it is a
// graph Input (the interface never changes); so constants only the dropped ops read disappear.
// Name, warnings and weight_values are carried over. Throws tessel::Error (from Graph's checks)
// when the rewrite breaks topological order or reads a tensor nothing produces any more.
Graph applyRewrite(const Graph& g, const Rewrite& rewrite);

}  // namespace tessel::models
