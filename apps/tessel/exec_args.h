// ExecArgs (CLI) -> kernels::ExecutorOptions, shared by `validate` and `precision`.
#pragma once

#include "apps/tessel/commands.h"
#include "kernels/executor.h"

namespace tessel::app {

// --fuse-like FILE loads that accelerator and keeps only the epilogue kinds its hardware fuses
// (dataflows::fuseRulesFor), the same decision `tessel run` times.
kernels::ExecutorOptions executorOptions(const ExecArgs& e);

}  // namespace tessel::app
