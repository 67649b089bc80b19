// Host FP ops on an integer accelerator: their dequantize and quantize are ops of their own
// (class QuantDequant), charged where they run. Numbers derived by hand from
// configs/arch/gemmini-default.yaml's host: 2 GHz (host cycles / 2 = accelerator cycles at
// 1 GHz), quantize and dequantize 2 cycles per element, softmax 40, layernorm 30, gelu 30;
// link 16 B/cycle with 500 cycles of latency per direction that moves bytes; 1000 cycles of
// offload overhead for the op that opens a host call.
#include <gtest/gtest.h>

#include "arch/load.h"
#include "models/workload.h"
#include "sim/run.h"

namespace tessel {
namespace {

using models::OpClass;
using models::OpKind;

sim::RunStats oneLayerGpt2(const std::string& arch) {
  const auto acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + arch + ".yaml");
  models::WorkloadOptions w;
  w.seq = 128;
  w.layers = 1;
  sim::RunOptions o;
  o.plan.mapper = "gemmini-auto";
  return sim::simulate(models::build("gpt2-small", w), acc, dataflows::loadDataflow("ws"), o);
}

TEST(SimHostConversions, EachHostOpHasItsConversionsOnGemminiDefault) {
  const sim::RunStats run = oneLayerGpt2("gemmini-default");
  // Each row: the host op, the tensor it reads (dequantized) and the one it writes (quantized),
  // and the three ops' cycles.
  //  ln (128 x 768 = 98,304 elements): dequantize 98,304 x 2 / 2 = 98,304, + 1000 (it opens the
  //    call) + 500 + 98,304 B / 16 = 6,144 -> 105,948. The layernorm 98,304 x 30 / 2 =
  //    1,474,560, + its fp32 gamma and beta (2 x 768 x 4 B) over the link, 500 + 384 ->
  //    1,475,444. Quantize 98,304 + 500 + 6,144 -> 104,948.
  //  softmax (12 heads x 128 x 128 = 196,608): dequantize 196,608 + 1000 + 500 + 12,288 =
  //    210,396; softmax 196,608 x 40 / 2 = 3,932,160; quantize 196,608 + 500 + 12,288 = 209,396.
  //  gelu (128 x 3072 = 393,216): dequantize 393,216 + 1000 + 500 + 24,576 = 419,292;
  //    gelu 393,216 x 30 / 2 = 5,898,240; quantize 393,216 + 500 + 24,576 = 418,292.
  // Host memory never binds (25.6 GB/s moves the 8 B an fp32 op reads and writes per element
  // in 0.31 ns; the cheapest op spends 1 ns per element).
  struct Row {
    std::string op;
    double dequantize, cycles, quantize;
  };
  const Row rows[] = {
      {"h0.ln_1", 105948, 1475444, 104948}, {"h0.attn.softmax", 210396, 3932160, 209396},
      {"h0.ln_2", 105948, 1475444, 104948}, {"h0.mlp.gelu", 419292, 5898240, 418292},
      {"ln_f", 105948, 1475444, 104948},
  };
  double conversions = 0;
  for (const Row& r : rows) {
    // The graph order puts the dequantize right before the op and, as its one reader is the
    // next op, the quantize right after.
    size_t i = 0;
    while (i < run.ops.size() && run.ops[i].name != r.op) ++i;
    ASSERT_TRUE(i > 0 && i + 1 < run.ops.size()) << r.op;
    const sim::OpStats& dq = run.ops[i - 1];
    const sim::OpStats& op = run.ops[i];
    const sim::OpStats& q = run.ops[i + 1];
    EXPECT_EQ(dq.kind, OpKind::Dequantize) << r.op;
    EXPECT_EQ(q.kind, OpKind::Quantize) << r.op;
    EXPECT_EQ(dq.op_class, OpClass::QuantDequant);
    EXPECT_EQ(q.op_class, OpClass::QuantDequant);
    for (const auto* s : {&dq, &op, &q}) EXPECT_EQ(s->placement, sim::Placement::Host) << s->name;
    EXPECT_DOUBLE_EQ(dq.cycles, r.dequantize) << r.op;
    EXPECT_DOUBLE_EQ(op.cycles, r.cycles) << r.op;
    EXPECT_DOUBLE_EQ(q.cycles, r.quantize) << r.op;
    conversions += dq.cycles + q.cycles;
  }
  // Only these ten conversions exist, and the run's total is the sum of its ops.
  double by_class = 0, total = 0;
  for (const auto& [cls, cycles] : run.cyclesByClass()) {
    if (cls == OpClass::QuantDequant) by_class = cycles;
    total += cycles;
  }
  EXPECT_DOUBLE_EQ(by_class, conversions);
  EXPECT_DOUBLE_EQ(total, run.totalCycles());
  double sum = 0;
  for (const auto& op : run.ops) sum += op.cycles;
  EXPECT_DOUBLE_EQ(sum, run.totalCycles());
}

TEST(SimHostConversions, NoConversionsWhereTheSfuRunsTheOps) {
  // The survey's design runs softmax, layernorm, gelu and add on its integer SFU.
  const sim::RunStats run = oneLayerGpt2("gemmini-survey-model");
  for (const auto& op : run.ops) {
    EXPECT_NE(op.op_class, OpClass::QuantDequant) << op.name;
    EXPECT_NE(op.placement, sim::Placement::Host) << op.name;
  }
}

}  // namespace
}  // namespace tessel
