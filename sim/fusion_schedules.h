// Internal to sim/fusion.cpp: the schedules --fusion auto tries for attention and FFN chains,
// unmapped, largest blocks first (big blocks reuse most, so the best comes early and bounds the
// rest). The conv chains' are in sim/fusion_conv.h.
#pragma once

#include <array>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/fused_group.h"
#include "models/chains.h"
#include "sim/analytical/memory_model.h"

namespace tessel::sim {

// Levels K/V (attention) or the weights (FFN) may stay in between row blocks, besides
// re-reading them from home (-1): the L2 when it is not their home and `bytes` fit half of it,
// the local buffer (analytical::groupFits checks that).
std::vector<int> residentLevels(const arch::Accelerator& acc, const analytical::MemoryModel& mem,
                                int home, double bytes);

// Attention: query x key block sizes in powers of two up to the whole dims (a whole key row is
// FLAT's plain softmax, fewer keys FlashAttention's online one), each residency of K and V.
std::vector<dataflows::FusedGroup> attentionSchedules(const models::Graph& g,
                                                      const models::ChainGroup& c,
                                                      const std::array<int, 4>& homes,
                                                      const std::vector<int>& residents);

// FFN: token rows x hidden chunks, each residency of the weights; the running output in the
// accumulator or in `l2` (>= 0: read, added to and written back per chunk) with the input kept
// or streamed per chunk. The gate-up half (c.gateUp()) writes its product out chunk by chunk:
// no running output, its input kept per row block or read again per chunk (from its home, or
// from `l2` where each row block from another home is staged once).
std::vector<dataflows::FusedGroup> ffnSchedules(const models::Graph& g,
                                                const models::ChainGroup& c,
                                                const std::array<int, 4>& homes,
                                                const std::vector<int>& residents, int l2);

// The bytes a resident level must hold: K and V (attention), the weights (FFN).
double attentionKvBytes(const models::Graph& g, const models::ChainGroup& c);
double ffnWeightBytes(const models::Graph& g, const models::ChainGroup& c);

}  // namespace tessel::sim
