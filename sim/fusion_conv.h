// Internal to sim/fusion.cpp: the conv-chain part of --fusion auto. A conv chain may be fused
// whole or in parts: every run of consecutive convs is a candidate with its own decision, and
// the runs that fuse are the disjoint set that saves the most under the objective.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/conv_chain.h"
#include "dataflows/dataflow.h"
#include "dataflows/fused_group.h"
#include "dataflows/mapper.h"
#include "models/chains.h"
#include "sim/analytical/memory_model.h"

namespace tessel::sim {

// Every run of 2 or more consecutive convs of `c` (longest first), each with the per-element
// ops between its convs.
std::vector<models::ChainGroup> convSegments(const models::ChainGroup& c);

// The schedules of a conv chain worth mapping, unmapped, the most promising first (by their
// bound: blocks at the array's peak): per tile width, halo mode and weight residency, the two
// tallest bands that fit the local memories (a taller band never moves more bytes or recomputes
// more). `out`: the dtype the last conv's plan writes; `residents`: where the weights may stay
// between tiles (-1: re-read from DRAM).
struct ConvSearch {
  const models::Graph& g;
  const arch::Accelerator& acc;
  const dataflows::Mapper& mapper;
  const dataflows::Dataflow& df;
  const analytical::MemoryModel& mem;
  std::string objective;
};
std::vector<dataflows::FusedGroup> convSchedules(const ConvSearch& s, const models::ChainGroup& c,
                                                 const std::array<int, 4>& homes, DType out,
                                                 const std::vector<int>& residents);
// One schedule of the chain: `rows` x `cols` outputs of the last conv per tile, halos kept or
// recomputed, the weights' resident level; its block GEMMs (each conv at the size of its largest
// tile, run as many times as its computed positions fill such blocks) not yet mapped.
dataflows::FusedGroup convSchedule(const ConvSearch& s, const models::ChainGroup& c,
                                   const dataflows::ConvChainDims& d, int64_t rows, int64_t cols,
                                   bool keep, int resident, const std::array<int, 4>& homes);
// The weights of the chain's convs, in bytes (what a resident level must hold).
double convWeightBytes(const models::ChainGroup& c, const models::Graph& g);

// A run of convs [first, last] (indices into the whole chain's convs) and what fusing it saves.
struct SegmentGain {
  size_t first = 0, last = 0;
  double gain = 0;
};
// The disjoint runs with the largest total gain (weighted interval scheduling), as indices.
std::vector<size_t> pickSegments(const std::vector<SegmentGain>& runs, size_t convs);

}  // namespace tessel::sim
