// A design's sparsity features never touch dense numbers: on every shipped design, a dense GEMM
// and a dense convolution cost exactly the same with every mechanism switched on (2:4 datapath,
// skipping and gating both operands, bitmask formats in DRAM, DRAM reads skipped and gated on
// the other operand's zeros) as the design ships.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "sim/run.h"
#include "tests/shipped_designs.h"

namespace tessel {
namespace {

using tessel::testing::shippedDesigns;

TEST(SparseDesigns, DenseDataCostsTheSameWithEverySparseFeatureOn) {
  const std::vector<std::string> on = {
      "sparsity.structured=[2:4]",
      "sparsity.skip=[inputs,weights]",
      "sparsity.gate=[inputs,weights]",
      "sparsity.formats.dram.inputs=bitmask",
      "sparsity.formats.dram.weights=bitmask",
      "sparsity.skip_reads.dram.weights=inputs",
      "sparsity.gate_reads.dram.inputs=weights",
  };
  for (const std::string& design : shippedDesigns()) {
    SCOPED_TRACE(design);
    const arch::Accelerator shipped = arch::loadFile(design);
    const arch::Accelerator featured = arch::loadFile(design, on);
    EXPECT_NE(shipped.hash(), featured.hash());
    for (const char* workload : {"gemm:M=64,K=256,N=128", "conv:H=14,W=14,C=32,K=64,R=3,S=3,pad=1"}) {
      SCOPED_TRACE(workload);
      const models::Graph g = models::build(workload, models::WorkloadOptions{});
      sim::RunOptions o;
      o.plan.mapper = "search";
      o.plan.mapper_options.budget = 2000;
      const auto df = dataflows::loadDataflow(shipped.array.dataflows.front());
      const sim::RunStats a = sim::simulate(g, shipped, df, o);
      const sim::RunStats b = sim::simulate(g, featured, df, o);
      EXPECT_EQ(a.totalCycles(), b.totalCycles());
      EXPECT_EQ(a.energyTotalPj(), b.energyTotalPj());
      EXPECT_EQ(a.bytesAt("dram"), b.bytesAt("dram"));
      EXPECT_FALSE(b.sparseTotals().any);
    }
  }
}

// `--sparsity inputs=D` is the density of the activations a layer reads. A single layer stands
// for one inside a network, so its input takes it; a model's own input (the first conv's
// image) stays dense. eyeriss-like gates a zero input's MAC: gated MACs = (1 - D) x MACs.
TEST(SparseDesigns, ASingleLayersInputTakesTheDensityAModelsImageDoesNot) {
  const arch::Accelerator eyeriss = arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/eyeriss-like.yaml");
  models::WorkloadOptions w;
  w.dtype = eyeriss.array.input_dtype;  // int16: the ops run on the array, as the CLI builds them
  w.sparsity = models::parseSparsitySpec("inputs=0.25");
  sim::RunOptions o;
  o.plan.mapper = "search";
  o.plan.mapper_options.budget = 2000;
  const auto rs = dataflows::loadDataflow("rs");
  // 14 x 14 x 64 outputs x 32 x 3 x 3 = 3,612,672 MACs, three quarters of them gated.
  const sim::RunStats one = sim::simulate(models::build("conv:H=14,W=14,C=32,K=64,R=3,S=3,pad=1", w), eyeriss, rs, o);
  EXPECT_EQ(one.totalMacs(), 3612672);
  EXPECT_NEAR(one.sparseTotals().gated_macs, 0.75 * 3612672, 1.0);
  // ResNet-50: its stem convolution reads the image, dense; every other convolution and the
  // classifier read an activation at 0.25. The stem's 7 x 7 x 3 x 64 x 112 x 112 = 118,013,952
  // MACs are not gated.
  const models::Graph resnet = models::build("resnet50", w);
  const sim::RunStats net = sim::simulate(resnet, eyeriss, rs, o);
  double macs = 0;
  for (const auto& op : net.ops) {
    if (op.kind == models::OpKind::Conv2d || op.kind == models::OpKind::MatMul) macs += static_cast<double>(op.macs);
  }
  EXPECT_NEAR(net.sparseTotals().gated_macs, 0.75 * (macs - 118013952), 1e3);
}

}  // namespace
}  // namespace tessel
