// Hand-derived costs of non-GEMM ops: SFU, host offload, accumulator-path adds.
#include "sim/analytical/vector_model.h"

#include <gtest/gtest.h>

#include "dataflows/plan.h"
#include "models/graph.h"
#include "tests/sim/tiny_arch.h"
#include "util/error.h"

namespace tessel {
namespace {

using models::OpKind;
using sim::Cause;

// A one-op graph: `kind` over an int8 [1, 64, 16] tensor (1024 elements, 1 KiB).
struct OneOp {
  models::Graph g;
  std::vector<dataflows::OpPlan> plans;
  OneOp(OpKind kind, const arch::Accelerator& a, int inputs = 1) {
    std::vector<int> ins;
    for (int i = 0; i < inputs; ++i) {
      ins.push_back(g.addTensor("x" + std::to_string(i), {1, 64, 16}, DType::Int8,
                                models::TensorRole::Input));
    }
    models::Op op;
    op.name = "op";
    op.kind = kind;
    op.inputs = ins;
    op.outputs = {g.addTensor("y", {1, 64, 16}, DType::Int8, models::TensorRole::Activation)};
    g.addOp(op);
    plans = dataflows::plan(g, a, dataflows::loadDataflow("ws"), {});
  }
};

double cause(const sim::analytical::VectorCost& c, Cause k) {
  return c.cycles[static_cast<size_t>(k)];
}

TEST(SimVectorModel, SoftmaxOnTheSfu) {
  // 16-lane SFU, 1 cycle per vector: 3 passes x 1024/16 vectors = 192 cycles. Its DRAM round
  // trip (1 KiB in, 1 KiB out) moves T = 2048/16 = 128 cycles after a 10-cycle latency, in
  // chunks of a quarter of the 16 KiB scratchpad: 2 KiB fit one, so the load, the SFU and the
  // store follow each other: 10 + 128 + max(192, 128 - 128) = 330, a 138-cycle stall.
  auto a = testing::tinyArch();
  a.sfu = arch::Sfu{{"softmax", "gelu"}, 16, true, 1, 0};
  OneOp o(OpKind::Softmax, a);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Sfu);
  const auto c =
      sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  EXPECT_EQ(sim::analytical::streamChunks(c, a), 1);
  EXPECT_DOUBLE_EQ(cause(c, Cause::Sfu), 192.0);
  EXPECT_DOUBLE_EQ(cause(c, Cause::MemoryStall), 138.0);
  EXPECT_DOUBLE_EQ(c.traffic.read[0], 1024.0);
  EXPECT_DOUBLE_EQ(c.traffic.write[0], 1024.0);
  // A 2 KiB scratchpad takes 512 B chunks: 2048 / 512 = 4. The first chunk's transfers (32)
  // wait for the latency, the other 96 cycles hide under the SFU's 192:
  // 10 + 32 + max(192, 96) = 234, a 42-cycle stall.
  a.levels[1].capacity_bytes = 2048;
  const auto chunked =
      sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  EXPECT_EQ(sim::analytical::streamChunks(chunked, a), 4);
  EXPECT_DOUBLE_EQ(cause(chunked, Cause::Sfu), 192.0);
  EXPECT_DOUBLE_EQ(cause(chunked, Cause::MemoryStall), 42.0);
}

TEST(SimVectorModel, AFloatSfuConvertsIntegerTensors) {
  // arithmetic: float on int8 in and out: a dequantize pass before and a quantize pass after
  // the softmax's 3, so 5 passes x 64 vectors = 320 cycles (vs 192 for an integer SFU).
  auto a = testing::tinyArch();
  a.sfu = arch::Sfu{{"softmax"}, 16, /*integer=*/false, 1, 0};
  OneOp o(OpKind::Softmax, a);
  const auto c =
      sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cause(c, Cause::Sfu), 320.0);
  EXPECT_DOUBLE_EQ(c.sfu_elements, 5.0 * 1024);
}

TEST(SimVectorModel, SfuWaitsOnSlowMemory) {
  // DRAM at 4 B/cycle: the round trip's transfers take 2048/4 = 512 cycles after the 10-cycle
  // latency, in one chunk (2 KiB <= 16 KiB / 4): 10 + 512 + max(192, 0) = 714 cycles, so the
  // SFU's 192 leave a 522-cycle stall.
  auto a = testing::tinyArch(4, 4.0);
  a.sfu = arch::Sfu{{"softmax"}, 16, true, 1, 0};
  OneOp o(OpKind::Softmax, a);
  const auto c =
      sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cause(c, Cause::Sfu), 192.0);
  EXPECT_DOUBLE_EQ(cause(c, Cause::MemoryStall), 522.0);
}

TEST(SimVectorModel, GeluOffloadedToTheHost) {
  // No SFU: GELU runs on the 2 GHz host. Host cycles = 1024 x (30 gelu + 2 dequantize +
  // 2 quantize) = 34816 -> 17.408 us = 17408 accelerator cycles (1 GHz); the FP32 copy through
  // host memory (4 x 2048 B at 25.6 GB/s = 0.32 us) is faster. Plus the call overhead (1000)
  // and the link: 2 x 500 latency + 2048 B / 16 B/cycle = 1128. Total 19536.
  const auto a = testing::tinyArch();
  OneOp o(OpKind::Gelu, a);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Host);
  const auto c = sim::analytical::evaluateHost(o.plans[0], o.g, a, false);
  EXPECT_DOUBLE_EQ(cause(c, Cause::Host), 19536.0);
}

TEST(SimVectorModel, HostWithoutACostIsAnError) {
  const auto a = testing::tinyArch();
  OneOp o(OpKind::Softmax, a);  // the tiny host lists no softmax cost
  EXPECT_THROW(sim::analytical::evaluateHost(o.plans[0], o.g, a, false), InfeasibleError);
}

TEST(SimVectorModel, ResidualAddOnTheAccumulatorPath) {
  // Two 1 KiB inputs and one 1 KiB output through DRAM: 3072/16 = 192 transfer cycles after a
  // 10-cycle latency, one chunk (3 KiB <= 16 KiB / 4); the accumulator adds one 4-wide row per
  // cycle: 2048 input elements / 4 = 512 cycles. Load, add and store in sequence:
  // 10 + 192 + 512, a 202-cycle stall.
  auto a = testing::tinyArch();
  a.array.epilogue_ops = {"residual_add"};
  OneOp o(OpKind::Add, a, 2);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Array);
  const auto c = sim::analytical::evaluateArrayVector(o.plans[0], o.g, a,
                                                      sim::analytical::MemoryModel(a, false));
  EXPECT_DOUBLE_EQ(cause(c, Cause::Compute), 512.0);
  EXPECT_DOUBLE_EQ(cause(c, Cause::MemoryStall), 202.0);
  EXPECT_DOUBLE_EQ(c.traffic.read[0], 2048.0);
}

}  // namespace
}  // namespace tessel
