// A fused group (dataflows/fused_group.h) on the SystemC platform. Each distinct block GEMM is
// lowered like any GEMM (lower/gemm.cpp, its own mapping) and simulated once on its own with
// ideal off-chip memory: the time the array (and its local ports and NoC) takes per run of the
// block. The group then runs as its block pipeline (lower/fused.h) on the engine's blocks, and
// each member gets what the analytical engine gives it: the bytes its commands moved, its
// block GEMMs' time (compute, fill/drain, NoC) for a GEMM, and the time the array stood idle
// waiting on the vector unit (the softmax's or activation's SFU cause) or on the DMA (the last
// GEMM's memory stall). This header is SystemC-free.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/plan.h"
#include "sim/analytical/memory_model.h"
#include "sim/stats.h"
#include "sim/systemc/lower/fused.h"
#include "sim/systemc/lower/lower.h"
#include "sim/systemc/platform.h"

namespace tessel::sim::systemc {

class FusedRunner {
 public:
  // `ideal`: the blocks' models with ideal off-chip memory, for the block GEMMs on their own.
  FusedRunner(const arch::Accelerator& acc, const analytical::MemoryModel& mem, BlockModels ideal,
              bool ideal_memory)
      : acc_(acc), mem_(mem), ideal_(std::move(ideal)), ideal_memory_(ideal_memory) {}

  // Sets the member's bytes, cycles by cause and waits in `s` (the analytical engine's stats of
  // it, for its identity and energy). The group runs on `models` when its first member comes;
  // `trace`, when given, receives its commands, the group starting `start` cycles in.
  void member(const dataflows::OpPlan& plan, OpStats& s, BlockModels& models,
              std::vector<TraceSlice>* trace, double start);

 private:
  // The array time of one run of a block GEMM, by cause (compute, fill/drain, NoC).
  struct BlockTime {
    BlockRun run;
    std::array<double, kNumCauses> causes{};
  };
  const BlockTime& blockTime(const dataflows::FusedGroup::Block& b, const models::Graph& g);
  struct Part {
    std::vector<LevelTraffic> traffic;
    int64_t rf = 0, noc = 0;
    std::array<double, kNumCauses> causes{};
    std::map<std::string, double> waits;
  };
  struct Group {
    std::shared_ptr<const dataflows::FusedGroup> keep;  // the key's address stays its own
    std::vector<Part> parts;                            // by member (chain.ops order)
    size_t left = 0;                                    // members not yet handed out
  };
  Group run(const dataflows::OpPlan& plan, BlockModels& models, std::vector<TraceSlice>* trace,
            double start);
  bool twoUnitsFit(const dataflows::FusedGroup& grp, const models::Graph& g) const;
  void splitCycles(const dataflows::FusedGroup& grp, const models::Graph& g, Group& out) const;
  void record(const dataflows::FusedGroup& grp, const models::Graph& g,
              std::vector<TraceSlice>& trace, double start) const;

  const arch::Accelerator& acc_;
  const analytical::MemoryModel& mem_;
  BlockModels ideal_;
  bool ideal_memory_;
  std::map<std::string, BlockTime> blocks_;  // by block problem and mapping
  std::map<const dataflows::FusedGroup*, Group> groups_;
  GemmLowering gemm_;      // a block GEMM being timed
  FusedLowering lowered_;  // the group being run
  OpRun run_;
};

}  // namespace tessel::sim::systemc
