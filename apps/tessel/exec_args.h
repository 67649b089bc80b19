// ExecArgs (CLI) -> kernels::ExecutorOptions, shared by `validate` and `precision`.
#pragma once

#include "apps/tessel/commands.h"
#include "kernels/executor/executor.h"

namespace tessel::app {

// --fuse-like FILE loads that accelerator and keeps only the epilogue kinds its hardware fuses
// (dataflows::fuseRulesFor), the same decision `tessel run` times.
// ConfigError for --percentile without --calibration percentile.
kernels::ExecutorOptions executorOptions(const ExecArgs& e);

// Before any work: ConfigError (exit 2) with the estimate when the executor would need more
// memory than the machine has available (kernels::estimateMemoryBytes).
void checkMemory(const models::Graph& graph, const std::string& command);

}  // namespace tessel::app
