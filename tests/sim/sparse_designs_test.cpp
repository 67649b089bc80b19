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

}  // namespace
}  // namespace tessel
