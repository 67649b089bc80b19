#include "sim/scalesim/scalesim_engine.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "sim/scalesim/fold_timing.h"
#include "sim/scalesim/knobs.h"

namespace tessel::sim {

std::unique_ptr<Engine> makeAnalyticalEngine(const arch::Accelerator&, const dataflows::Dataflow&,
                                             const EngineOptions&);

namespace scalesim {
namespace {

// Shortest text that reads back as the same double.
std::string exact(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

class ScaleSimEngine final : public Engine {
 public:
  ScaleSimEngine(const arch::Accelerator& acc, const dataflows::Dataflow& df,
                 const EngineOptions& options)
      : rows_(acc.array.rows),
        cols_(acc.array.cols),
        flow_(flowOf(df.name)),
        knobs_(parseKnobs(options.params)),
        tessel_(makeAnalyticalEngine(acc, df, options)) {}

  std::string_view name() const override { return "scalesim"; }

  OpStats evaluate(const dataflows::OpPlan& plan) override {
    OpStats s = tessel_->evaluate(plan);  // bytes, energy, accesses: the same plan's
    const bool array_op =
        plan.op->isGemmLike() && plan.placement == dataflows::Placement::Array;
    if (array_op) {
      timeArrayOp(s, plan);
    } else if (knobs_.other_ops_zero) {
      s.cycles = 0;
      s.cycles_by_cause = {};
      s.utilization = 0;
    }
    return s;
  }

 private:
  void timeArrayOp(OpStats& s, const dataflows::OpPlan& plan) const {
    const dataflows::Problem& p = plan.problem;
    const FoldTiming f = foldTiming(flow_, p.m, p.n, p.k, rows_, cols_, knobs_);
    // A batch (heads, images) is that many SCALE-Sim layers back to back.
    const double batch = static_cast<double>(p.batch);
    const double stall =
        knobs_.memory_stalls ? s.cycles_by_cause[static_cast<int>(Cause::MemoryStall)] +
                                   s.cycles_by_cause[static_cast<int>(Cause::Noc)]
                             : 0.0;
    const double busy = batch * static_cast<double>(f.total_cycles);
    const double pes = static_cast<double>(rows_ * cols_);
    s.cycles_by_cause = {};
    const double compute = std::min(busy, static_cast<double>(s.macs) / pes);
    s.cycles_by_cause[static_cast<int>(Cause::Compute)] = compute;
    s.cycles_by_cause[static_cast<int>(Cause::FillDrain)] = busy - compute;
    s.cycles_by_cause[static_cast<int>(Cause::MemoryStall)] = stall;
    s.cycles = busy + stall;
    // SCALE-Sim's Overall Util: one MAC per PE per cycle.
    s.utilization = s.cycles > 0 ? static_cast<double>(s.macs) / (s.cycles * pes) : 0;
    const int64_t b = p.batch;
    s.mapping.emplace_back(kKnobsKey, describe(knobs_));
    s.mapping.emplace_back(kFoldsKey,
                           std::to_string(f.row_folds) + " x " + std::to_string(f.col_folds));
    s.mapping.emplace_back(kStallKey, exact(stall));
    s.mapping.emplace_back(kMappingEffKey, exact(f.mapping_efficiency));
    s.mapping.emplace_back(kComputeUtilKey, exact(f.compute_utilization));
    s.mapping.emplace_back(kIfmapReadsKey, std::to_string(b * f.ifmap_sram_reads));
    s.mapping.emplace_back(kFilterReadsKey, std::to_string(b * f.filter_sram_reads));
    s.mapping.emplace_back(kOfmapWritesKey, std::to_string(b * f.ofmap_sram_writes));
  }

  int64_t rows_, cols_;
  Flow flow_;
  Knobs knobs_;
  std::unique_ptr<Engine> tessel_;
};

}  // namespace
}  // namespace scalesim

std::unique_ptr<Engine> makeScaleSimEngine(const arch::Accelerator& acc,
                                           const dataflows::Dataflow& dataflow,
                                           const EngineOptions& options) {
  return std::make_unique<scalesim::ScaleSimEngine>(acc, dataflow, options);
}

}  // namespace tessel::sim
