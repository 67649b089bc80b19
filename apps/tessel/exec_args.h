// ExecArgs (CLI) -> kernels::ExecutorOptions, shared by `validate` and `precision`.
#pragma once

#include <string>

#include "apps/tessel/commands.h"
#include "kernels/executor/executor.h"

namespace tessel::app {

// The fusion mode of a run: --fusion (default auto), or epilogue for the older --fuse.
// ConfigError when --fuse contradicts a written --fusion, or --fuse-like meets --fusion none.
std::string fusionMode(const ExecArgs& e);

// none: every op alone; epilogue: models::fuse groups as GEMM + epilogue chain; auto: that, plus
// attention chains as one FlashAttention kernel. --fuse-like FILE loads that accelerator and
// keeps only the epilogue kinds its hardware fuses (dataflows::fuseRulesFor), the same decision
// `tessel run` times, and fuses attention (auto) only when its SFU runs softmax.
// ConfigError for --percentile without --calibration percentile.
kernels::ExecutorOptions executorOptions(const ExecArgs& e);

// Before any work: ConfigError (exit 2) with the estimate when the executor would need more
// memory than the machine has available (kernels::estimateMemoryBytes).
void checkMemory(const models::Graph& graph, const std::string& command);

}  // namespace tessel::app
