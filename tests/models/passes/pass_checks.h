// Assertions the pattern-recognition tests share.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "models/graph.h"
#include "tests/models/graph_checks.h"

namespace tessel::models::testing {

// (name, kind) of every op, in order: what "left untouched" compares.
inline std::vector<std::pair<std::string, OpKind>> opList(const Graph& g) {
  std::vector<std::pair<std::string, OpKind>> ops;
  for (const Op& op : g.ops()) ops.emplace_back(op.name, op.kind);
  return ops;
}

// Every input of a well-formed rewritten graph is produced earlier (Graph's own checks ran in
// addOp); also no dead constants and MACs equal to the source's.
inline void expectSound(const Graph& before, const Graph& after) {
  expectWellFormed(after);
  EXPECT_EQ(after.totalMacs(), before.totalMacs());
}

}  // namespace tessel::models::testing
