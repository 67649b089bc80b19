#include "apps/tessel/exec_args.h"

#include "arch/load.h"
#include "dataflows/plan.h"

namespace tessel::app {

kernels::ExecutorOptions executorOptions(const ExecArgs& e) {
  kernels::ExecutorOptions o;
  o.fuse = e.fuse || !e.fuse_like.empty();
  o.integer_nonlinear = e.integer_nonlinear;
  o.low_precision_accumulate = e.low_precision_accumulate;
  if (!e.fuse_like.empty()) {
    o.fuse_kinds = dataflows::fuseRulesFor(arch::loadFile(e.fuse_like)).epilogue_kinds;
    // An accelerator that fuses nothing still must not fall back to "fuse everything".
    if (o.fuse_kinds.empty()) o.fuse = false;
  }
  return o;
}

}  // namespace tessel::app
