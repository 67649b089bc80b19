// Collective matmul (Wang et al., "Overlap Communication with Dependent Computation via
// Decomposition in Large Deep Learning Models", ASPLOS 2023; XLA on TPU, as Pope et al. run
// PaLM): a tensor-parallel all-reduce is a reduce-scatter and an all-gather; the producing GEMM
// (a row-split o_proj or down_proj) is computed in n chunks, each chunk's partial sums sent while
// the next is computed, and the consuming GEMM (the next block's first projection) starts on the
// chunk it has while the next arrives. Of each half, what the GEMM beside it cannot cover stays
// exposed, and at least one chunk's share (1/n of it) always does: the first chunk's compute and
// the last chunk's transfer have nothing to hide behind.
//   exposed = max(H/n, H - T_producer (n-1)/n) + max(H/n, H - T_consumer (n-1)/n),  H = half
// An all-gather only has a consumer, an all-to-all (expert dispatch) no such decomposition.
// Not modeled: the chunked GEMMs' own cost (smaller tiles, the links' DMA sharing the memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/graph.h"
#include "sim/stats.h"

namespace tessel::systems {

enum class Overlap : uint8_t { None, CollectiveMatmul };

struct OverlapWindow {
  double producer_s = 0;  // the GEMM whose output the collective carries
  double consumer_s = 0;  // the first GEMM after it
};

// For each of g.communication, in order, the GEMM time around it in `chip` (one chip's run).
std::vector<OverlapWindow> overlapWindows(const models::Graph& g, const sim::RunStats& chip);

// What of a collective of `seconds` over `ranks` stays exposed under `overlap`.
double exposedSeconds(Overlap overlap, const std::string& op, double seconds, int64_t ranks,
                      const OverlapWindow& w);

}  // namespace tessel::systems
