// Internal to the executor: the kernel calls ("steps") a graph runs as, and tensor lifetimes.
#pragma once

#include <vector>

#include "kernels/executor/executor.h"
#include "models/fuse.h"

namespace tessel::kernels {

struct Step {
  std::vector<int> ops;    // anchor first, then the epilogue members it runs, in order
  int position = -1;       // the step's last op: every tensor the step reads exists before it
  bool attention = false;  // an attention chain as one FlashAttention kernel (score ... context)
};

struct ExecPlan {
  std::vector<Step> steps;                 // in execution order
  std::vector<std::vector<int>> step_ops;  // steps[i].ops, for Executor::steps()
  std::vector<int> last_use;               // by tensor id: last step reading it (-1: none)
  std::vector<int> step_of;                // by op id
};

// The epilogue kinds the kernels can chain after a GEMM (every elementwise and row-wise kind).
models::FuseRules executorFuseRules();

// Whether `member` can run inside `anchor`'s epilogue chain given what flows into it: the
// chain's values must arrive in the member's domain (I-BERT ops need an INT32 widening no chain
// stage provides), and attention epilogues run per head, so only per-element ops (and softmax
// over a score's whole rows) fit there.
bool canChain(const models::Graph& g, const models::Op& anchor, const models::Op& member,
              int chain_tensor, const ExecutorOptions& o);

ExecPlan planExecution(const models::Graph& g, const ExecutorOptions& o);

}  // namespace tessel::kernels
