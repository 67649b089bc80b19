// Hand-derived costs of non-GEMM ops: SFU, host offload, accumulator-path adds.
#include "sim/analytical/vector_model.h"

#include <gtest/gtest.h>

#include "dataflows/host_conversions.h"
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
    g = dataflows::withHostConversions(g, a);
    plans = dataflows::plan(g, a, dataflows::loadDataflow("ws"), {});
  }
  const dataflows::OpPlan& of(OpKind kind) const {
    for (const auto& p : plans) {
      if (p.op->kind == kind) return p;
    }
    throw Error("no such op");
  }
};

// relu (array) -> kind (host) -> relu (array) over int8 [1, 64, 16]: the host op between two
// accelerator ops, with its conversions.
struct HostBetween {
  models::Graph g;
  std::vector<dataflows::OpPlan> plans;
  HostBetween(OpKind kind, const arch::Accelerator& a) {
    int t = g.addTensor("x", {1, 64, 16}, DType::Int8, models::TensorRole::Input);
    const OpKind kinds[] = {OpKind::Relu, kind, OpKind::Relu};
    for (int i = 0; i < 3; ++i) {
      models::Op op;
      op.name = "op" + std::to_string(i);
      op.kind = kinds[i];
      op.inputs = {t};
      t = g.addTensor("y" + std::to_string(i), {1, 64, 16}, DType::Int8,
                      models::TensorRole::Activation);
      op.outputs = {t};
      g.addOp(op);
    }
    g = dataflows::withHostConversions(g, a);
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
  // No SFU: relu (array) -> dequantize (host) -> gelu (host) -> quantize (host) -> relu (array),
  // 1024 elements, the host at 2 GHz on a 1 GHz accelerator clock, so host cycles / 2.
  //  dequantize: 1024 x 2 = 2048 host cycles = 1024; it opens the host call (+1000) and reads
  //    the 1 KiB int8 tensor over the link (500 latency + 1024 / 16 = 564); its fp32 result
  //    stays on the host. Host memory (1 KiB + 4 KiB at 25.6 GB/s = 200 ns) is faster. 2588.
  //  gelu: 1024 x 30 = 30720 host cycles = 15360, fp32 -> fp32, nothing crosses the link.
  //  quantize: 1024 x 2 / 2 = 1024, then writes the 1 KiB int8 result over the link: 564. 1588.
  // Total 19536: what the folded model charged, now split into the ops that spend it.
  const auto a = testing::tinyArch();
  HostBetween o(OpKind::Gelu, a);
  ASSERT_EQ(o.plans.size(), 5u);
  const OpKind kinds[] = {OpKind::Relu, OpKind::Dequantize, OpKind::Gelu, OpKind::Quantize,
                          OpKind::Relu};
  const double cycles[] = {0, 2588, 15360, 1588, 0};
  for (size_t i = 0; i < 5; ++i) {
    const auto& p = o.plans[i];
    ASSERT_EQ(p.op->kind, kinds[i]) << i;
    if (i == 0 || i == 4) continue;
    ASSERT_EQ(p.placement, dataflows::Placement::Host) << i;
    EXPECT_EQ(p.op->opClass(), i == 2 ? models::OpClass::GELU : models::OpClass::QuantDequant);
    const auto c = sim::analytical::evaluateHost(p, o.g, a, false);
    EXPECT_DOUBLE_EQ(cause(c, Cause::Host), cycles[i]) << i;
  }
  // The gelu computes fp32 -> fp32; its tensors never reach the accelerator's DRAM.
  EXPECT_EQ(o.g.tensor(o.plans[2].op->inputs[0]).dtype, DType::FP32);
  EXPECT_EQ(o.g.tensor(o.plans[2].op->outputs[0]).dtype, DType::FP32);
  const auto gelu = sim::analytical::evaluateHost(o.plans[2], o.g, a, false);
  EXPECT_DOUBLE_EQ(gelu.traffic.read[0] + gelu.traffic.write[0], 0.0);
  // The rewrite is idempotent: a second pass finds nothing to convert.
  EXPECT_EQ(dataflows::withHostConversions(o.g, a).ops().size(), 5u);
}

TEST(SimVectorModel, AHostResidualAddMixingIntAndFpConvertsOnlyTheIntSide) {
  // relu (array) -> r; gelu (host) on r; add (host) of the gelu's fp32 output and r; relu
  // (array). r is dequantized once and both host ops read that copy; the add's sum is
  // quantized once for the last relu. No residual_add epilogue here, so the add is a host op.
  // It continues the host call (no overhead) and its tensors stay on the host (no link): its
  // 2048 input elements x 1 host cycle / 2 = 1024 cycles (host memory, 12 KiB at 25.6 GB/s =
  // 480 ns, is faster).
  const auto a = testing::tinyArch();
  models::Graph g;
  const int x = g.addTensor("x", {1, 64, 16}, DType::Int8, models::TensorRole::Input);
  auto add = [&](const std::string& name, OpKind kind, std::vector<int> ins) {
    models::Op op;
    op.name = name;
    op.kind = kind;
    op.inputs = std::move(ins);
    op.outputs = {g.addTensor(name, {1, 64, 16}, DType::Int8, models::TensorRole::Activation)};
    g.addOp(op);
    return op.outputs[0];
  };
  const int r = add("r", OpKind::Relu, {x});
  const int sum = add("sum", OpKind::Add, {add("gelu", OpKind::Gelu, {r}), r});
  add("out", OpKind::Relu, {sum});
  const models::Graph c = dataflows::withHostConversions(g, a);
  std::vector<std::string> names;
  for (const auto& op : c.ops()) names.push_back(op.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"r", "r.to_fp32", "gelu", "sum", "sum.to_int8", "out"}));
  const auto plans = dataflows::plan(c, a, dataflows::loadDataflow("ws"), {});
  const auto& p = plans[3];
  ASSERT_EQ(p.placement, dataflows::Placement::Host);
  EXPECT_EQ(p.input_on_host, (std::vector<bool>{true, true}));
  EXPECT_TRUE(p.output_on_host);
  EXPECT_FALSE(p.startsHostCall());
  EXPECT_DOUBLE_EQ(cause(sim::analytical::evaluateHost(p, c, a, false), Cause::Host), 1024.0);
}

TEST(SimVectorModel, PlanRefusesIntegerTensorsOnTheHost) {
  const auto a = testing::tinyArch();
  models::Graph g;
  models::Op op;
  op.name = "gelu";
  op.kind = OpKind::Gelu;
  op.inputs = {g.addTensor("x", {4, 4}, DType::Int8, models::TensorRole::Input)};
  op.outputs = {g.addTensor("y", {4, 4}, DType::Int8, models::TensorRole::Activation)};
  g.addOp(op);
  EXPECT_THROW(dataflows::plan(g, a, dataflows::loadDataflow("ws"), {}), Error);
}

TEST(SimVectorModel, HostWithoutACostIsAnError) {
  const auto a = testing::tinyArch();
  OneOp o(OpKind::Softmax, a);  // the tiny host lists no softmax cost
  EXPECT_THROW(sim::analytical::evaluateHost(o.of(OpKind::Softmax), o.g, a, false),
               InfeasibleError);
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
