// The SystemC engine end to end: each simulation in a forked child (SystemC elaborates once
// per process), results handed back as text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/trace.h"
#include "sim/analytical/vector_model.h"
#include "sim/run.h"
#include "sim/systemc/lower/lower.h"
#include "sim/systemc/systemc_engine.h"
#include "tests/sim/tiny_arch.h"
#include "tests/systemc/engine/fixtures.h"
#include "tests/systemc/in_child.h"

namespace tessel::sim::systemc {
namespace {

using testing::inChild;
using testing::planned;

RunStats runSystemc(const testing::Planned& p, RunOptions o = {}) {
  registerEngine();
  o.engine = "systemc";
  return evaluatePlans(*p.graph, p.acc, p.dataflow, p.plans, o);
}

TEST(SystemcEngine, FourTilesOfAGemmByHand) {
  // gemm M=256 K=4 N=4, tiny 4x4 WS design (DRAM 16 B/cycle, 10 cycles), Gemmini's tiling:
  // 4 tiles of 64 rows. Program: Li0 Lw C0 | Li1 S0 C1 | Li2 S1 C2 | Li3 S2 C3 | S3.
  //   Li0 bus [0,16] back 26; Lw [16,17] back 27; Li1 [17,33] back 43 (no dependency).
  //   C0 at 27: first preload 4 + 64 rows -> streams until 95, results out at 95 + 7 = 102.
  //   C1 at 95 (array free, Li1 in): until 159, out 166.  Li2 waits for C0's stream: [95,111].
  //   S0 after C0's results: [102,118] (a store completes when its rows left the SRAM).
  //   C2 at 159 (needs Li2 121, S0 118): until 223, out 230.  Li3 after C1: [159,175] back 185.
  //   S1 at 166 queues behind Li3 on the bus: [175,191].  C3 needs S1: array free at 223 ->
  //   until 287, out 294.  S2 [230,246].  S3 [294,310]: the op takes 310 cycles.
  // Causes: the array's union of busy time is 75 + 3 x 64 = 267 (= the cost model's array time:
  // 256 steps + first preload 4 + tail 7); compute 256 MACs-worth, fill/drain 11; the rest,
  // 27 waiting for the first operands and 16 for the last store, is memory stall.
  const auto r = inChild([] {
    // Requests of 64 B: this derivation is about the queues (SystemcMemoryPath tests the row
    // requests; a 4 B row would stream at 16 x 4 / 10 = 6.4 B/cycle).
    auto a = testing::tinyArch();
    a.dma.row_requests = false;
    const auto p = planned(a, "gemm:M=256,K=4,N=4", "ws", "gemmini-auto");
    const RunStats run = runSystemc(p);
    const OpStats& s = run.ops.at(0);
    std::ostringstream o;
    o << s.cycles << " " << s.cycles_by_cause[0] << " " << s.cycles_by_cause[1] << " "
      << s.cycles_by_cause[2];
    for (const auto& [why, c] : s.waits) o << " | " << why << "=" << c;
    return o.str();
  });
  ASSERT_TRUE(r.ok) << r.output;
  EXPECT_EQ(r.output, "310 256 11 43 | dma: load weights=27 | dma: store outputs=16");
}

TEST(SystemcEngine, AStreamedOpRunsTheModelsChunksAndMoreScratchpadNeverSlowsIt) {
  // BERT-base's LayerNorm (int8 [1, 512, 768]) on npu-3core's float SFU: its chunks are the
  // model's choice (the fastest the scratchpad allows); the lowering streams that many SFU
  // commands, the blocks time them within 1% of the closed form, and a larger scratchpad is never
  // slower.
  const auto r = inChild([] {
    registerEngine();
    std::ostringstream out, details;
    double previous = 0;
    for (const char* kib : {"128", "384", "1024"}) {
      testing::Planned p;
      p.acc = arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/npu-3core.yaml",
                             {std::string("scratchpad.capacity=") + kib + "KiB"});
      p.dataflow = dataflows::loadDataflow("ws");
      models::Graph g;
      models::Op op;
      op.name = "ln";
      op.kind = models::OpKind::LayerNorm;
      op.inputs = {g.addTensor("x", {1, 512, 768}, DType::Int8, models::TensorRole::Input)};
      op.outputs = {g.addTensor("y", {1, 512, 768}, DType::Int8, models::TensorRole::Activation)};
      g.addOp(op);
      p.graph = std::make_unique<models::Graph>(dataflows::withHostConversions(g, p.acc));
      p.plans = dataflows::plan(*p.graph, p.acc, p.dataflow, {});
      const dataflows::OpPlan& ln = p.plans.at(0);
      const analytical::MemoryModel mem(p.acc, false);
      const analytical::VectorCost cost = analytical::evaluateVector(ln, p.acc, mem, false);
      const CommandStream stream = lowerVector(ln, p.acc, cost, mem.localInputs());
      const auto units = std::count_if(stream.commands.begin(), stream.commands.end(),
                                       [](const Command& c) { return c.kind == Kind::Sfu; });
      RunOptions o;
      o.engine = "analytical";
      const double a = evaluatePlans(*p.graph, p.acc, p.dataflow, p.plans, o).totalCycles();
      const double s = runSystemc(p).totalCycles();
      out << (ln.placement == dataflows::Placement::Sfu && units == cost.chunks)
          << (std::abs(s / a - 1) < 0.01) << (previous == 0 || s <= previous * (1 + 1e-9)) << " ";
      details << " | " << kib << " KiB: " << cost.chunks << " chunks, " << a << " vs " << s;
      previous = s;
    }
    return out.str() + details.str();
  });
  ASSERT_TRUE(r.ok) << r.output;
  EXPECT_EQ(r.output.substr(0, 12), "111 111 111 ") << r.output;
}

TEST(SystemcEngine, TwoEnginesInOneProcessAgree) {
  // The blocks are elaborated once per process; a second engine rebinds its own timing models
  // and must time the same plans the same.
  const auto r = inChild([] {
    const auto p = planned(testing::shipped("gemmini-default"), "gpt2-small", "", "search", 64);
    const double a = runSystemc(p).totalCycles();
    const double b = runSystemc(p).totalCycles();
    // Times are kept in cycles since each engine's own start: equal up to rounding.
    return std::to_string(std::abs(a - b) <= 1e-9 * a) + " " + std::to_string(a) + " " +
           std::to_string(b);
  });
  ASSERT_TRUE(r.ok) << r.output;
  EXPECT_EQ(r.output.substr(0, 2), "1 ");
}

TEST(SystemcEngine, TheTraceMatchesTheStats) {
  const auto r = inChild([] {
    auto p = planned(testing::shipped("gemmini-default"), "gpt2-small", "", "search", 64);
    std::vector<TraceSlice> slices;
    RunOptions o;
    o.engine_options.trace = true;
    o.trace = &slices;
    const RunStats run = runSystemc(p, o);
    std::ostringstream out;
    // Transfers and host calls: their bytes are the DRAM traffic (one off-chip level here; the
    // host reads and writes shared memory over its link).
    int64_t moved = 0;
    for (const TraceSlice& s : slices) moved += s.track == "dma" || s.track == "host" ? s.bytes : 0;
    out << (moved == run.bytesAt("dram")) << " ";
    // Each op's slices lie inside its window, ops back to back in graph order.
    double start = 0;
    bool inside = true;
    std::map<std::string, std::pair<double, double>> window;
    for (const OpStats& op : run.ops) {
      window[op.name] = {start, start + op.cycles};
      start += op.cycles;
    }
    for (const TraceSlice& s : slices) {
      const auto [lo, hi] = window.at(s.op);
      inside = inside && s.start >= lo - 1e-6 && s.start + s.duration <= hi + 1e-6;
    }
    out << inside << " ";
    // One block runs one command at a time: the array's and the DMA bus's slices never overlap.
    bool serial = true;
    std::map<std::string, double> busy_until;
    std::vector<TraceSlice> by_start = slices;
    std::stable_sort(by_start.begin(), by_start.end(),
                     [](const TraceSlice& a, const TraceSlice& b) { return a.start < b.start; });
    for (const TraceSlice& s : by_start) {
      serial = serial && s.start >= busy_until[s.track] - 1e-6;
      busy_until[s.track] = std::max(busy_until[s.track], s.start + s.duration);
    }
    out << serial << " ";
    // The Chrome trace-event JSON: one complete event per slice, tracks named.
    const auto doc = nlohmann::json::parse(reports::chromeTraceString(slices, run.clock_hz, run));
    size_t complete = 0;
    std::vector<std::string> tracks;
    for (const auto& e : doc["traceEvents"]) {
      if (e["ph"] == "X") ++complete;
      if (e["name"] == "thread_name") tracks.push_back(e["args"]["name"]);
    }
    out << (complete == slices.size()) << " " << tracks.size() << " " << tracks[1] << " "
        << tracks[2];
    return out.str();
  });
  ASSERT_TRUE(r.ok) << r.output;
  EXPECT_EQ(r.output, "1 1 1 1 4 dma array");
}

}  // namespace
}  // namespace tessel::sim::systemc
