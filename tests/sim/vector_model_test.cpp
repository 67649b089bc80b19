// Hand-derived costs of non-GEMM ops: SFU, host offload, accumulator-path adds; the chunks they
// stream in.
#include "sim/analytical/vector_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arch/load.h"
#include "dataflows/host_conversions.h"
#include "dataflows/plan.h"
#include "models/graph.h"
#include "sim/analytical/stream_chunks.h"
#include "tests/sim/tiny_arch.h"
#include "util/error.h"

namespace tessel {
namespace {

using models::OpKind;
using sim::Cause;

// A one-op graph: `kind` over int8 tensors of `shape` (by default [1, 64, 16]: 1024 elements,
// 1 KiB), with the conversions the host needs.
struct OneOp {
  models::Graph g;
  std::vector<dataflows::OpPlan> plans;
  OneOp(OpKind kind, const arch::Accelerator& a, int inputs = 1,
        const std::vector<int64_t>& shape = {1, 64, 16}) {
    std::vector<int> ins;
    for (int i = 0; i < inputs; ++i) {
      ins.push_back(
          g.addTensor("x" + std::to_string(i), shape, DType::Int8, models::TensorRole::Input));
    }
    models::Op op;
    op.name = "op";
    op.kind = kind;
    op.inputs = ins;
    op.outputs = {g.addTensor("y", shape, DType::Int8, models::TensorRole::Activation)};
    g.addOp(op);
    g = dataflows::withHostConversions(g, a);
    plans = dataflows::plan(g, a, dataflows::loadDataflow(a.array.dataflows.front()), {});
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
  // trip (1 KiB in, 1 KiB out) moves T = 2048/16 = 128 cycles after a 10-cycle latency, in the
  // fastest chunks (AnSfuOpStreamsInTheFastestChunksItsScratchpadAllows derives them): the SFU
  // stays busy while a chunk's unit time covers the other half's load and round trip,
  // 192/n >= 64/n + 10, so n = 12, and the first load and the last store stay exposed:
  // 10 + 128/12 + 192, a 10 + 32/3 = 62/3-cycle stall.
  auto a = testing::tinyArch();
  a.sfu = arch::Sfu{{"softmax", "gelu"}, 16, true, 1, 0};
  OneOp o(OpKind::Softmax, a);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Sfu);
  const auto c =
      sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  EXPECT_EQ(c.chunks, 12);
  EXPECT_DOUBLE_EQ(cause(c, Cause::Sfu), 192.0);
  EXPECT_NEAR(cause(c, Cause::MemoryStall), 62.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(c.traffic.read[0], 1024.0);
  EXPECT_DOUBLE_EQ(c.traffic.write[0], 1024.0);
}

TEST(SimVectorModel, AnSfuOpStreamsInTheFastestChunksItsScratchpadAllows) {
  // The softmax above with a 16-cycle round trip (λ): U = 192 SFU cycles; its 1 KiB in and 1 KiB
  // out share DRAM at 16 B/cycle, L = S = 64, T = 128. In n chunks (l = s = 64/n, u = 192/n):
  //  - the unit bound, 16 + l + 192 + s = 208 + 128/n, falls with n;
  //  - the halves bound rises: a half is refilled only once the SFU has emptied it, so each half
  //    cycles through load, round trip and SFU, and the SFU keeps busy only while
  //    u >= l + λ, n <= (192 - 64)/16 = 8; the bound is 16 + 2l + 2u + (n - 2)/2 (u + l + λ);
  //  - DRAM, 128 plus its idle start and end, stays below (184 at n = 8).
  // n = 8 (256 B chunks): 208 + 16 = 224 by the unit, 16 + 16 + 48 + 3 x 48 = 224 by the halves;
  // n = 7: 208 + 128/7 = 226.3; n = 9: 16 + 14.2 + 42.7 + 3.5 x 44.4 = 228.4. So 8 chunks and a
  // 32-cycle stall at 16 KiB, and at 1 KiB (a quarter, 256 B, holds a chunk's 128 B in and out).
  // 512 B allows 128 B chunks, n >= 16: 16 + 8 + 24 + 7 x (12 + 4 + 16) = 272, an 80-cycle stall.
  // (With quarter-scratchpad chunks, 16 KiB streamed one: 16 + 128 + 192 = 336, slower than 1 KiB.)
  auto a = testing::tinyArch();
  a.levels[0].latency = 16;
  a.sfu = arch::Sfu{{"softmax"}, 16, true, 1, 0};
  OneOp o(OpKind::Softmax, a);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Sfu);
  const auto at = [&](int64_t capacity) {
    a.levels[1].capacity_bytes = capacity;
    return sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  };
  const auto large = at(16 * 1024), small = at(1024), smallest = at(512);
  EXPECT_EQ(large.chunks, 8);
  EXPECT_NEAR(cause(large, Cause::MemoryStall), 32.0, 1e-9);
  EXPECT_EQ(small.chunks, 8);
  EXPECT_NEAR(cause(small, Cause::MemoryStall), 32.0, 1e-9);
  EXPECT_EQ(smallest.chunks, 16);
  EXPECT_NEAR(cause(smallest, Cause::MemoryStall), 80.0, 1e-9);
  EXPECT_DOUBLE_EQ(cause(large, Cause::Sfu), 192.0);
}

TEST(SimVectorModel, MoreScratchpadIsNeverSlower) {
  // Shipped designs, vector ops of BERT/GPT-2/ResNet sizes (conversions and host placements
  // included), scratchpad and accumulator grown together through seven sizes.
  struct Shape {
    OpKind kind;
    int inputs;
    std::vector<int64_t> shape;
  };
  const Shape shapes[] = {{OpKind::Softmax, 1, {12, 128, 128}},
                          {OpKind::LayerNorm, 1, {1, 512, 768}},
                          {OpKind::Gelu, 1, {1, 128, 3072}},
                          {OpKind::Add, 2, {1, 512, 768}},
                          {OpKind::Relu, 1, {1, 56, 56, 64}}};
  for (const std::string design : {"npu-3core", "gemmini-default"}) {
    for (const Shape& sh : shapes) {
      double previous = 0;
      for (const int kib : {32, 64, 128, 256, 384, 1024, 4096}) {
        const auto a = arch::loadFile(
            std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + design + ".yaml",
            {"scratchpad.capacity=" + std::to_string(kib) + "KiB",
             "accumulator.capacity=" + std::to_string(std::max(16, kib / 2)) + "KiB"});
        const OneOp o(sh.kind, a, sh.inputs, sh.shape);
        const sim::analytical::MemoryModel mem(a, false);
        double cycles = 0;
        for (const auto& p : o.plans) {
          for (double v : sim::analytical::evaluateVector(p, a, mem, false).cycles) cycles += v;
        }
        const std::string where = design + " " + std::string(models::nameOf(sh.kind)) + " at " +
                                  std::to_string(kib) + " KiB";
        ASSERT_GT(cycles, 0) << where;
        if (previous > 0) {
          EXPECT_LE(cycles, previous * (1 + 1e-12)) << where;
        }
        previous = cycles;
      }
    }
  }
}

TEST(SimStreamChunks, TheBisectionFindsTheFastestOfEveryCount) {
  // streamCycles falls and then rises in n (each bound is convex in 1/n from three chunks on):
  // the bisection must land where an exhaustive scan of every count does, ties to fewer.
  using sim::analytical::Stream;
  int cases = 0;
  for (const double trip : {0.0, 10.0, 150.0}) {
    for (const double loads : {0.0, 3000.0, 40000.0}) {
      for (const double stores : {0.0, 2000.0, 40000.0}) {
        for (const double unit : {0.0, 5000.0, 80000.0}) {
          for (const bool shared : {true, false}) {
            if (loads + stores <= 0) continue;
            Stream s;
            s.latency = s.load_latency = loads > 0 ? trip : 0;
            s.loads = loads;
            s.stores = stores;
            s.unit = unit;
            if (shared) {
              s.levels[0] = {loads + stores, loads, stores};
              s.store_path = stores > 0 ? loads + stores : 0;
            } else {
              s.levels[0] = {loads, loads, 0};
              s.levels[1] = {stores, 0, stores};
              s.store_path = stores;
            }
            for (const int64_t lo : {1, 2, 3, 40}) {
              int64_t best = lo;
              for (int64_t n = lo + 1; n <= 1024; ++n) {
                const double c = sim::analytical::streamCycles(s, n);
                const double b = sim::analytical::streamCycles(s, best);
                if (c < b - 1e-12 * b) best = n;
              }
              const int64_t found = sim::analytical::fastestChunks(s, lo, 1024);
              EXPECT_NEAR(sim::analytical::streamCycles(s, found),
                          sim::analytical::streamCycles(s, best),
                          1e-9 * sim::analytical::streamCycles(s, best))
                  << "trip " << trip << " L " << loads << " S " << stores << " U " << unit
                  << (shared ? " shared" : " apart") << " lo " << lo << ": " << found << " vs "
                  << best;
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 300);
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
  // DRAM at 4 B/cycle: the round trip's transfers take T = 2048/4 = 512 cycles after the 10-cycle
  // latency, more than the SFU's 192. One chunk is load, SFU, store in sequence:
  // 10 + 256 + 192 + 256 = 714. From two chunks on DRAM streams back to back: after the two
  // loads (128 each) the first SFU chunk (96) is done, and the stores fill the rest: 512, the
  // fewest chunks that reach it. The SFU's 192 leave a 320-cycle stall.
  auto a = testing::tinyArch(4, 4.0);
  a.sfu = arch::Sfu{{"softmax"}, 16, true, 1, 0};
  OneOp o(OpKind::Softmax, a);
  const auto c =
      sim::analytical::evaluateSfu(o.plans[0], o.g, a, sim::analytical::MemoryModel(a, false));
  EXPECT_EQ(c.chunks, 2);
  EXPECT_DOUBLE_EQ(cause(c, Cause::Sfu), 192.0);
  EXPECT_DOUBLE_EQ(cause(c, Cause::MemoryStall), 320.0);
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
  // Two 1 KiB inputs and one 1 KiB output through DRAM: L = 2048/16 = 128 and S = 64 transfer
  // cycles after a 10-cycle latency; the accumulator adds one 4-wide row per cycle: 2048 input
  // elements / 4 = U = 512 cycles. The adds stay busy while a chunk's 512/n cover the other
  // half's load and round trip, 128/n + 10: n <= 38.4, so 38 chunks, and only the first load and
  // the last store show: 10 + 192/38, a 15.05-cycle stall (one chunk: 10 + 192 + 512).
  auto a = testing::tinyArch();
  a.array.epilogue_ops = {"residual_add"};
  OneOp o(OpKind::Add, a, 2);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Array);
  const auto c = sim::analytical::evaluateArrayVector(o.plans[0], o.g, a,
                                                      sim::analytical::MemoryModel(a, false));
  EXPECT_EQ(c.chunks, 38);
  EXPECT_DOUBLE_EQ(cause(c, Cause::Compute), 512.0);
  EXPECT_NEAR(cause(c, Cause::MemoryStall), 10 + 192.0 / 38, 1e-9);
  EXPECT_DOUBLE_EQ(c.traffic.read[0], 2048.0);
}

TEST(SimVectorModel, TheEpilogueChargesEachElementItsOpsUnit) {
  // relu on the accumulator path over 1,024 elements at 0.25 pJ each: 256 pJ. The same relu
  // fused after a GEMM is charged on the GEMM's output (8 x 16 = 128 elements): 32 pJ. With an
  // SFU that runs relu, the SFU's energy applies instead and the epilogue's is 0.
  auto a = testing::tinyArch();
  a.array.epilogue_pj = {{"relu", 0.25}};
  OneOp o(OpKind::Relu, a);
  ASSERT_EQ(o.plans[0].placement, dataflows::Placement::Array);
  const sim::analytical::MemoryModel mem(a, false);
  EXPECT_DOUBLE_EQ(sim::analytical::evaluateArrayVector(o.plans[0], o.g, a, mem).epilogue_pj,
                   256.0);
  dataflows::OpPlan fused = o.plans[0];
  fused.placement = dataflows::Placement::Fused;
  fused.elements = 128;
  EXPECT_DOUBLE_EQ(sim::analytical::evaluateFused(fused, o.g, a, mem).epilogue_pj, 32.0);
  EXPECT_DOUBLE_EQ(sim::analytical::epiloguePj(*o.plans[0].op, a, 128), 32.0);
  a.sfu = arch::Sfu{};
  a.sfu->ops = {"relu"};
  EXPECT_DOUBLE_EQ(sim::analytical::epiloguePj(*o.plans[0].op, a, 128), 0.0);
}

}  // namespace
}  // namespace tessel
