// The deployment ops around a model (serve/deploy.h): each option changes exactly the ops it
// should, the layout rule decides where a lowering runs, and the engines charge them. Designs:
// gemmini-soc (Rocket host at 1 GHz: quantize 7, uint8_shift 0.5 cycles per element) with the
// layout rule set by -p overrides, so each test states the rule it uses.
#include "serve/deploy.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "arch/load.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "sim/run.h"
#include "util/error.h"

namespace tessel {
namespace {

using models::OpKind;
using serve::DeployOptions;
using serve::InputDType;
using serve::InputLayout;
using serve::OutputDType;

arch::Accelerator soc(int64_t align, int64_t device_align) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-soc.yaml",
                        {"layout.channel_align=" + std::to_string(align),
                         "layout.device_lowering_align=" + std::to_string(device_align)});
}

models::Graph resnet(int64_t image = 224) {
  models::WorkloadOptions w;
  w.image = image;
  return models::build("resnet50", w);
}

models::Graph gpt2Decode() {
  models::WorkloadOptions w;
  w.phase = "decode";
  w.seq = 128;
  w.layers = 1;
  return models::build("gpt2-small", w);
}

// The ops the deployment added: (name, kind, on_accelerator) in graph order.
struct Added {
  std::string name;
  OpKind kind;
  bool on_accelerator;
};
std::vector<Added> added(const models::Graph& model, const models::Graph& deployed) {
  std::vector<Added> out;
  for (const models::Op& op : deployed.ops()) {
    if (model.findOp(op.name) < 0) out.push_back({op.name, op.kind, op.layout.on_accelerator});
  }
  return out;
}

// The model's own ops come through unchanged, in order, with their MACs.
void expectModelKept(const models::Graph& model, const models::Graph& deployed) {
  std::vector<std::string> kept;
  for (const models::Op& op : deployed.ops()) {
    const int id = model.findOp(op.name);
    if (id < 0) continue;
    kept.push_back(op.name);
    EXPECT_EQ(op.kind, model.op(id).kind) << op.name;
    EXPECT_EQ(op.macs, model.op(id).macs) << op.name;
  }
  ASSERT_EQ(kept.size(), model.ops().size());
  for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept[i], model.op(static_cast<int>(i)).name);
}

TEST(ServeDeploy, Float32NchwImageQuantizesOnTheHostAndLowersOnTheAcceleratorWhenWidthAligns) {
  // W = 224 = 7 x 32: the accelerator transposes and pads; the logits (1000 = 62 x 16 + 8) come
  // out padded to 1008 and 1000 % 32 != 0, so the host slices them, then dequantizes.
  const models::Graph model = resnet();
  const models::Graph g = serve::withDeploymentOps(model, soc(16, 32), {});
  expectModelKept(model, g);
  const auto a = added(model, g);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].kind, OpKind::Quantize);
  EXPECT_EQ(a[1].kind, OpKind::Transpose);
  EXPECT_TRUE(a[1].on_accelerator);
  EXPECT_EQ(a[2].kind, OpKind::Slice);
  EXPECT_FALSE(a[2].on_accelerator);
  EXPECT_EQ(a[3].kind, OpKind::Dequantize);
  const models::Op& q = g.op(g.findOp(a[0].name));
  EXPECT_EQ(g.tensor(q.inputs[0]).dtype, DType::FP32);
  EXPECT_EQ(g.tensor(q.inputs[0]).shape, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_FALSE(q.from_uint8);
  const models::Op& t = g.op(g.findOp(a[1].name));
  EXPECT_EQ(g.tensor(t.outputs[0]).shape, (std::vector<int64_t>{1, 224, 224, 16}));
  // The transpose writes the tensor conv1 reads.
  EXPECT_EQ(t.outputs[0], g.op(g.findOp("conv1")).inputs[0]);
  const models::Op& s = g.op(g.findOp(a[2].name));
  EXPECT_EQ(g.tensor(s.inputs[0]).shape, (std::vector<int64_t>{1, 1008}));
  EXPECT_EQ(g.tensor(s.outputs[0]).shape, (std::vector<int64_t>{1, 1000}));
  const models::Op& dq = g.op(g.findOp(a[3].name));
  EXPECT_EQ(g.tensor(dq.outputs[0]).dtype, DType::FP32);
}

TEST(ServeDeploy, InputDtypeChangesOnlyTheQuantize) {
  const models::Graph model = resnet();
  const arch::Accelerator acc = soc(16, 32);
  DeployOptions u8;
  u8.input_dtype = InputDType::UInt8;
  DeployOptions i8;
  i8.input_dtype = InputDType::Int8;
  const auto f = added(model, serve::withDeploymentOps(model, acc, {}));
  const models::Graph gu = serve::withDeploymentOps(model, acc, u8);
  const auto u = added(model, gu);
  const auto i = added(model, serve::withDeploymentOps(model, acc, i8));
  // uint8: the same four ops; the quantize is a zero-point shift of 1-byte data.
  ASSERT_EQ(u.size(), f.size());
  for (size_t k = 0; k < u.size(); ++k) EXPECT_EQ(u[k].kind, f[k].kind);
  const models::Op& shift = gu.op(gu.findOp(u[0].name));
  EXPECT_TRUE(shift.from_uint8);
  EXPECT_EQ(dataflows::unitOpName(shift), "uint8_shift");
  EXPECT_EQ(gu.tensor(shift.inputs[0]).dtype, DType::Int8);
  // int8: no quantize at all; the rest unchanged.
  ASSERT_EQ(i.size(), f.size() - 1);
  for (size_t k = 0; k < i.size(); ++k) EXPECT_EQ(i[k].kind, f[k + 1].kind);
}

TEST(ServeDeploy, LayoutAndAlignmentDecideTransposePadAndWhereTheyRun) {
  const models::Graph model = resnet();
  DeployOptions nhwc;
  nhwc.layout = InputLayout::Nhwc;
  // NHWC: no transpose; C = 3 pads to 16 and 3 % 32 != 0, so on the host.
  auto a = added(model, serve::withDeploymentOps(model, soc(16, 32), nhwc));
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[1].kind, OpKind::Pad);
  EXPECT_FALSE(a[1].on_accelerator);
  // An image 200 wide: 200 % 32 = 8, so the host transposes.
  const models::Graph small = resnet(200);
  a = added(small, serve::withDeploymentOps(small, soc(16, 32), {}));
  EXPECT_EQ(a[1].kind, OpKind::Transpose);
  EXPECT_FALSE(a[1].on_accelerator);
  // No device lowering at all (align 0): the host transposes even at 224.
  a = added(model, serve::withDeploymentOps(model, soc(16, 0), {}));
  EXPECT_FALSE(a[1].on_accelerator);
  // Alignment 1 with int8 NHWC input and int8 output: nothing to add.
  DeployOptions bare;
  bare.layout = InputLayout::Nhwc;
  bare.input_dtype = InputDType::Int8;
  bare.output_dtype = OutputDType::Int8;
  const models::Graph g = serve::withDeploymentOps(model, soc(1, 32), bare);
  EXPECT_TRUE(added(model, g).empty());
  EXPECT_EQ(g.ops().size(), model.ops().size());
}

TEST(ServeDeploy, Gpt2DecodeTakesTokenIdsAndOnlyItsLogitsAreUnlowered) {
  // Token ids are indices (no quantize, no layout); the KV caches stay on the accelerator. The
  // logits: 50257 = 3141 x 16 + 1 -> padded 50272 and sliced on the host, then dequantized.
  const models::Graph model = gpt2Decode();
  const models::Graph g = serve::withDeploymentOps(model, soc(16, 32), {});
  expectModelKept(model, g);
  const auto a = added(model, g);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].kind, OpKind::Slice);
  EXPECT_EQ(a[1].kind, OpKind::Dequantize);
  EXPECT_EQ(g.tensor(g.op(g.findOp(a[0].name)).inputs[0]).shape.back(), 50272);
  DeployOptions i8out;
  i8out.output_dtype = OutputDType::Int8;
  EXPECT_EQ(added(model, serve::withDeploymentOps(model, soc(16, 32), i8out)).size(), 1u);
  DeployOptions u8;
  u8.input_dtype = InputDType::UInt8;
  u8.input_dtype_given = true;
  EXPECT_THROW(serve::withDeploymentOps(model, soc(16, 32), u8), ConfigError);
  DeployOptions lay;
  lay.layout_given = true;
  EXPECT_THROW(serve::withDeploymentOps(model, soc(16, 32), lay), ConfigError);
}

TEST(ServeDeploy, AFloatModelNeedsNoConversionAndRefusesInt8Data) {
  // An FP32 model reads the float32 request as it is and writes what the caller reads: only
  // the lowering remains (K = 70 pads to 80), and int8 data or output cannot apply.
  models::WorkloadOptions w;
  w.dtype = DType::FP32;
  const models::Graph model = models::build("gemm:M=8,K=70,N=64", w);
  const models::Graph g = serve::withDeploymentOps(model, soc(16, 0), {});
  const auto a = added(model, g);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].kind, OpKind::Pad);
  DeployOptions i8out;
  i8out.output_dtype = OutputDType::Int8;
  EXPECT_THROW(serve::withDeploymentOps(model, soc(16, 0), i8out), ConfigError);
  DeployOptions u8;
  u8.input_dtype = InputDType::UInt8;
  EXPECT_THROW(serve::withDeploymentOps(model, soc(16, 0), u8), ConfigError);
}

TEST(ServeDeploy, OptionsParseOrNameTheChoices) {
  EXPECT_EQ(serve::parseInputDType("uint8"), InputDType::UInt8);
  EXPECT_EQ(serve::parseOutputDType("int8"), OutputDType::Int8);
  EXPECT_EQ(serve::parseInputLayout("nhwc"), InputLayout::Nhwc);
  try {
    serve::parseInputDType("float16");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("float32, uint8, int8"), std::string::npos) << e.what();
  }
  EXPECT_THROW(serve::parseInputLayout("NCHW "), ConfigError);
}

const sim::OpStats& statsOf(const sim::RunStats& run, const std::string& name) {
  for (const auto& op : run.ops) {
    if (op.name == name) return op;
  }
  throw std::runtime_error("no op " + name);
}

TEST(ServeDeploy, TheEnginesChargeTheQuantizeByItsSourceDtype) {
  // gemmini-soc's Rocket core at 1 GHz (= the accelerator clock): from float32, 150,528 x 7 =
  // 1,053,696 cycles of issue against 150,528 x 5 B / 16 B per cycle = 47,040 of memory; from
  // uint8, 150,528 x 0.5 = 75,264 against 150,528 x 2 B / 16 = 18,816. Both compute-bound, and
  // the request stays in host memory either way while the int8 result crosses the same link:
  // the difference is 150,528 x 6.5 = 978,432 cycles.
  const arch::Accelerator acc = soc(16, 32);
  ASSERT_DOUBLE_EQ(acc.host.costPerElement("quantize"), 7);
  ASSERT_DOUBLE_EQ(acc.host.costPerElement("uint8_shift"), 0.5);
  const models::Graph model = resnet();
  DeployOptions u8;
  u8.input_dtype = InputDType::UInt8;
  sim::RunOptions o;
  o.plan.mapper = "gemmini-auto";
  const auto df = dataflows::loadDataflow("ws");
  const sim::RunStats f = sim::simulate(serve::withDeploymentOps(model, acc, {}), acc, df, o);
  const sim::RunStats u = sim::simulate(serve::withDeploymentOps(model, acc, u8), acc, df, o);
  const sim::OpStats& qf = statsOf(f, "image.quantize");
  const sim::OpStats& qu = statsOf(u, "image.quantize");
  EXPECT_EQ(qf.placement, sim::Placement::Host);
  EXPECT_NEAR(qf.cycles - qu.cycles, 978432, 1);
  // The transpose runs on the accelerator: 224 x 224 x 16 padded elements leave through the
  // array path; identical in both runs, and the model's ops are unchanged.
  EXPECT_EQ(statsOf(f, "image.to_nhwc").placement, sim::Placement::Array);
  EXPECT_DOUBLE_EQ(statsOf(f, "image.to_nhwc").cycles, statsOf(u, "image.to_nhwc").cycles);
  EXPECT_DOUBLE_EQ(statsOf(f, "layer1.0.conv1").cycles, statsOf(u, "layer1.0.conv1").cycles);
}

TEST(ServeDeploy, TheRequestsConversionsStayOnTheHostWhateverUnitsTheAcceleratorHas) {
  // npu-3core's SFU runs quantize and dequantize, and its array requantizes in the epilogue;
  // the deployment's own conversions are the application's host code all the same, and the
  // response's dequantize (64 columns: aligned, no slice) is not fused into the GEMM.
  const auto acc = arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/npu-3core.yaml");
  ASSERT_TRUE(acc.sfu && acc.sfu->supports("dequantize"));
  const models::Graph model = models::build("gemm:M=16,K=64,N=64", models::WorkloadOptions{});
  sim::RunOptions o;
  o.plan.mapper = "gemmini-auto";
  const sim::RunStats run = sim::simulate(serve::withDeploymentOps(model, acc, {}), acc,
                                          dataflows::loadDataflow("ws"), o);
  int host = 0;
  for (const auto& op : run.ops) {
    if (op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) {
      EXPECT_EQ(op.placement, sim::Placement::Host) << op.name;
      ++host;
    }
  }
  EXPECT_EQ(host, 2);
}

TEST(ServeDeploy, StagesSplitAtTheFirstAndLastAcceleratorOp) {
  using serve::Stage;
  const auto s = serve::stagesOf({false, false, true, false, true, false});
  EXPECT_EQ(s, (std::vector<Stage>{Stage::Pre, Stage::Pre, Stage::Job, Stage::Job, Stage::Job,
                                   Stage::Post}));
  EXPECT_EQ(serve::stagesOf({false, false}), (std::vector<Stage>{Stage::Job, Stage::Job}));
}

}  // namespace
}  // namespace tessel
