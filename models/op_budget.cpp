#include "models/op_budget.h"

#include "models/graph.h"

namespace tessel::models {

int64_t bytesPerOp() {
  return static_cast<int64_t>(sizeof(Op) + 2 * sizeof(Tensor) + 4 * sizeof(int)) + kRunBytesPerOp;
}

}  // namespace tessel::models
