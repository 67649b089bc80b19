#include "sim/systemc/systemc_engine.h"

#include <algorithm>
#include <map>

#include "dataflows/nest/hardware.h"
#include "sim/analytical/memory_model.h"
#include "sim/analytical/nest_stats.h"
#include "sim/analytical/vector_model.h"
#include "sim/engine.h"
#include "sim/systemc/fused_run.h"
#include "sim/systemc/lower/lower.h"
#include "sim/systemc/modules/fabric.h"
#include "sim/systemc/platform.h"
#include "util/error.h"

namespace tessel::sim {
std::unique_ptr<Engine> makeAnalyticalEngine(const arch::Accelerator&, const dataflows::Dataflow&,
                                             const EngineOptions&);
}

namespace tessel::sim::systemc {

namespace {

namespace nest = dataflows::nest;
const char* const kTensorNames[3] = {"inputs", "weights", "outputs"};

BlockModels buildModels(const arch::Accelerator& acc, const nest::Hardware& hw, bool ideal) {
  std::vector<MemoryPath::LevelRate> rates;
  for (int l = 0; l < hw.local(); ++l) {
    rates.push_back({hw.levels[size_t(l)].arch_level[0], hw.levels[size_t(l)].bandwidth[0],
                     hw.levels[size_t(l)].latency});
  }
  BlockModels m(MemoryPath(rates, acc, ideal));
  m.ports.assign(3 * acc.levels.size(), Timeline{});
  m.pooled.assign(acc.levels.size(), 0);
  m.port_bandwidth.assign(acc.levels.size(), 0);
  for (size_t i = 0; i < acc.levels.size(); ++i) {
    m.port_bandwidth[i] = acc.levels[i].bandwidth * std::max(1, acc.levels[i].ports);
    m.pooled[i] = acc.levels[i].partitioned;
  }
  // A level under a fan-out has a port per copy, every copy's array its own NoC: the bytes the
  // commands carry are all copies', moved side by side.
  for (const nest::Level& l : hw.levels) {
    const int a = l.arch_level[0];
    if (a >= 0 && !l.off_chip && l.arch_level[2] == a) m.port_bandwidth[size_t(a)] *= double(l.instances);
  }
  m.noc_bandwidth = hw.noc_bandwidth * static_cast<double>(hw.arrays);
  m.entries = {acc.controller.load_entries, acc.controller.execute_entries,
               acc.controller.store_entries, acc.controller.execute_entries};
  return m;
}

class SystemcEngine final : public Engine {
 public:
  SystemcEngine(const arch::Accelerator& acc, const dataflows::Dataflow& df,
                const EngineOptions& options)
      : acc_(acc),
        options_(options),
        analytical_(makeAnalyticalEngine(acc, df, options)),
        hw_(nest::hardwareOf(acc)),
        mem_(acc, options.ideal_memory),
        models_(buildModels(acc, hw_, options.ideal_memory)),
        fused_(acc, mem_, buildModels(acc, hw_, true), options.ideal_memory) {}

  std::string_view name() const override { return "systemc"; }

  OpStats evaluate(const dataflows::OpPlan& plan) override {
    // The op's identity, mapping and energy: functions of its access counts, which the two
    // engines share. Bytes are re-counted from the commands; cycles are the blocks'.
    OpStats s = analytical_->evaluate(plan);
    if (plan.group) {
      // A fused group's member: the group runs once, as one block pipeline; each member gets
      // its part.
      fused_.member(plan, s, models_, options_.trace ? &trace_ : nullptr, elapsed_);
      launch(s, plan);
      finish(s, plan);
      elapsed_ += s.cycles;
      return s;
    }
    const CommandStream& stream = lower(plan);
    runOnPlatform(stream, models_, run_);
    const OpRun& run = run_;
    fillBytes(s, stream);
    fillCycles(s, plan, stream, run);
    launch(s, plan);
    finish(s, plan);
    if (options_.trace) record(s, plan, stream, run);
    elapsed_ += s.cycles;
    return s;
  }

  std::vector<TraceSlice> trace() const override { return trace_; }

 private:
  const CommandStream& lower(const dataflows::OpPlan& plan) {
    if (plan.op->isGemmLike() && plan.placement != dataflows::Placement::Host) {
      lowerGemm(plan, analytical::nestCost(plan, acc_, options_.ideal_memory), lowered_);
      return lowered_.stream;
    }
    const analytical::VectorCost c =
        analytical::evaluateVector(plan, acc_, mem_, options_.ideal_memory);
    lowered_.stream = lowerVector(plan, acc_, c, mem_.localInputs());
    return lowered_.stream;
  }

  void fillBytes(OpStats& s, const CommandStream& stream) const {
    for (LevelTraffic& t : s.traffic) t.read_bytes = t.write_bytes = {};
    s.register_file_bytes = s.noc_bytes = 0;
    for (const Access& a : stream.accesses) {
      LevelTraffic& t = s.traffic[a.level];
      (a.write ? t.write_bytes : t.read_bytes)[a.tensor] += a.bytes;
    }
    for (const Command& c : stream.commands) {
      s.register_file_bytes += c.register_file_bytes;
      s.noc_bytes += c.noc_bytes;
    }
  }

  std::string describe(const CommandStream& stream, uint32_t c) const {
    const Command& cmd = stream.commands[c];
    switch (cmd.kind) {
      case Kind::Load:
        return std::string("dma: load ") + (cmd.tensor == 2 ? "partial sums" : kTensorNames[cmd.tensor]);
      case Kind::Store:
        return "dma: store outputs";
      case Kind::Compute:
        return "array: previous compute";
      case Kind::Sfu:
        return "sfu: previous chunk";
      case Kind::Host:
        return "host";
    }
    return "?";
  }

  void fillCycles(OpStats& s, const dataflows::OpPlan& plan, const CommandStream& stream,
                  const OpRun& run) const {
    const double total = run.end - run.begin;
    std::map<std::string, double> waits;
    double work = 0, noc = 0, prev = run.begin;
    for (uint32_t c = 0; c < stream.commands.size(); ++c) {
      const Command& cmd = stream.commands[c];
      if (cmd.kind == Kind::Load || cmd.kind == Kind::Store) continue;
      const CommandTiming& t = run.timing[c];
      const double gap = t.start - prev;
      if (gap > kTimeEps) {
        const IssueLogic::Record& r = run.logic.record(c);
        std::string why = "controller";
        if (r.blocked_by >= 0 && r.dispatched > prev + kTimeEps) {
          why = "dispatch: " + std::string(nameOf(Queue(r.blocked_by))) + " queue full";
        } else if (r.last_dep != kNone && r.ready > prev + kTimeEps) {
          why = describe(stream, r.last_dep);
        }
        waits[why] += gap;
      }
      // Back-to-back computes overlap (the next streams while the last results leave): count
      // each cycle once.
      const double from = std::max(t.start, prev);
      if (t.work_end > from) work += t.work_end - from;
      const double held = t.end - std::max(t.work_end, prev);
      if (held > kTimeEps) {
        if (t.limiter == Limiter::Noc) {
          noc += held;
          waits["noc"] += held;
        } else if (t.limiter == Limiter::Port && t.port >= 0) {
          noc += held;
          waits[acc_.levels[size_t(t.port)].name + " ports"] += held;
        } else {
          waits["dma: operands"] += held;
        }
      }
      prev = std::max(prev, t.end);
    }
    if (run.end - prev > kTimeEps) waits[prev == run.begin ? "dma: transfers" : "dma: store outputs"] += run.end - prev;

    s.cycles_by_cause = {};
    auto set = [&](Cause c, double v) { s.cycles_by_cause[static_cast<size_t>(c)] = std::max(0.0, v); };
    const bool gemm = plan.op->isGemmLike() && plan.placement != dataflows::Placement::Host;
    if (plan.placement == dataflows::Placement::Host) {
      set(Cause::Host, total);
    } else if (gemm) {
      const double ideal = std::min(stream.ideal_compute, work);
      set(Cause::Compute, ideal);
      set(Cause::FillDrain, work - ideal);
      set(Cause::Noc, noc);
      set(Cause::MemoryStall, total - work - noc);
    } else {
      const bool sfu = plan.placement != dataflows::Placement::Array;
      set(sfu ? Cause::Sfu : Cause::Compute, std::min(work, total));
      set(Cause::MemoryStall, total - std::min(work, total));
    }
    finish(s, plan);
    s.waits.clear();
    for (const auto& w : waits) {
      if (w.second >= 0.5) s.waits.push_back(w);  // rounding residue is not a wait
    }
    std::stable_sort(s.waits.begin(), s.waits.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
  }

  // The gap before a kernel's first block (controller.launch_latency): the front end's, not a
  // block's, so the same closed form as the analytical engine's.
  void launch(OpStats& s, const dataflows::OpPlan& plan) const {
    if (dataflows::startsKernel(plan)) s.cycles_by_cause[static_cast<size_t>(Cause::Host)] += acc_.controller.launch_cycles;
  }

  // Cycles from the causes; utilization against the real peak, as the analytical engine's.
  void finish(OpStats& s, const dataflows::OpPlan& plan) const {
    s.cycles = 0;
    for (double v : s.cycles_by_cause) s.cycles += v;
    const bool gemm = plan.op->isGemmLike() && plan.placement != dataflows::Placement::Host;
    const double peak = static_cast<double>(acc_.array.rows) * acc_.array.cols * static_cast<double>(acc_.arrays()) *
                        acc_.array.macRate(plan.problem.input_dtype, plan.problem.weight_dtype);
    s.utilization = gemm && s.cycles > 0 && peak > 0
                        ? std::min(1.0, static_cast<double>(s.macs) / (s.cycles * peak))
                        : 0;
  }

  void record(const OpStats& s, const dataflows::OpPlan& plan, const CommandStream& stream,
              const OpRun& run) {
    for (uint32_t c = 0; c < stream.commands.size(); ++c) {
      const Command& cmd = stream.commands[c];
      const CommandTiming& t = run.timing[c];
      TraceSlice x;
      x.op = s.name;
      x.tensor = cmd.tensor >= 0 ? kTensorNames[cmd.tensor] : "";
      // A transfer's bytes are those it moved off chip; a unit's those it touched.
      const bool dma = cmd.kind == Kind::Load || cmd.kind == Kind::Store;
      for (uint32_t i = cmd.access_begin; i < cmd.access_end; ++i) {
        const Access& a = stream.accesses[i];
        if (!dma || models_.memory.offChip(a.level)) x.bytes += a.bytes;
      }
      switch (cmd.kind) {
        case Kind::Load:
          x.track = "dma";
          x.name = std::string("load ") + (cmd.tensor == 2 ? "partial sums" : x.tensor);
          break;
        case Kind::Store:
          x.track = "dma";
          x.name = "store outputs";
          break;
        case Kind::Compute:
          x.track = "array";
          x.name = plan.op->isGemmLike() ? "compute" : plan.unit_op;
          break;
        case Kind::Sfu:
          x.track = "sfu";
          x.name = plan.unit_op;
          break;
        case Kind::Host:
          x.track = "host";
          x.name = plan.unit_op.empty() ? std::string("gemm") : plan.unit_op;
          break;
      }
      // A transfer holds the bus until its last request leaves; a compute holds the array until
      // it has streamed its operands (its results' way out overlaps the next compute).
      const double until = dma                          ? t.work_end
                           : cmd.kind == Kind::Compute ? std::max(t.released, t.start)
                                                       : t.end;
      x.start = elapsed_ + (t.start - run.begin);
      x.duration = std::max(0.0, until - t.start);
      trace_.push_back(std::move(x));
    }
  }

  const arch::Accelerator& acc_;
  EngineOptions options_;
  std::unique_ptr<Engine> analytical_;
  nest::Hardware hw_;
  analytical::MemoryModel mem_;
  BlockModels models_;
  FusedRunner fused_;  // fused groups: their block GEMMs timed apart, then their pipeline
  double elapsed_ = 0;
  GemmLowering lowered_;  // the op being run; its buffers serve op after op
  OpRun run_;
  std::vector<TraceSlice> trace_;
};

std::unique_ptr<Engine> makeSystemcEngine(const arch::Accelerator& acc,
                                          const dataflows::Dataflow& df,
                                          const EngineOptions& options) {
  return std::make_unique<SystemcEngine>(acc, df, options);
}

}  // namespace

void registerEngine() {
  sim::registerEngine("systemc", &makeSystemcEngine);
  registerFabric();  // the interconnect's transactions (sim/fabric.h)
}

}  // namespace tessel::sim::systemc
