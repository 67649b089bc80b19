// The L2 as a tiling level: the search blocks the loops above the local memories so the L2 keeps
// a block of a tensor too large to keep whole, and that block comes from DRAM once.
#include <gtest/gtest.h>

#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/nest/candidates.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/search.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using namespace testing;
using dataflows::Operand;
using dataflows::nest::kAllDims;
using dataflows::nest::Objective;
using dataflows::nest::Problem;

arch::Accelerator surveyModel() {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-survey-model.yaml", {});
}

// gemmini-survey-model: a 2 MiB L2 (half of it, 1 MiB, for a mapping's tiles), 256 KiB of
// scratchpad. A 1024 x 2048 x 1024 INT8 GEMM has 2 MiB of input (1024 x 2048) and 2 MiB of
// weights (2048 x 1024): neither fits the L2 whole, and the scratchpad holds a slice of one. Its
// compulsory traffic is each read once, 2,097,152 B; the output (1 MiB) stays in the L2 whole.
// Without L2 loops the least-energy mapping read the input 3 times (6,291,456 B); blocking the
// rows so the L2 keeps a row block of the input while the columns turn reads both once.
TEST(NestL2Blocks, AnEnergySearchReadsEachOperandOnce) {
  const arch::Accelerator acc = surveyModel();
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const models::Graph g = models::build("gemm:M=1024,K=2048,N=1024", models::WorkloadOptions{});
  dataflows::PlanOptions o;
  o.mapper = "search";
  o.mapper_options.objective = "energy";
  const auto plans = dataflows::plan(g, acc, dataflows::loadDataflow("ws"), o);
  ASSERT_EQ(plans.size(), 1u);
  const dataflows::Mapping& m = plans[0].mapping;
  ASSERT_TRUE(m.has_nest);
  dataflows::nest::CostOptions co;
  co.mac_rate = acc.array.macRate(m.loops.input_dtype);
  co.home[2] = plans[0].output_home == 0 ? hw.dram : hw.l2;
  const auto c = dataflows::nest::evaluate(m.loops, m.nest, hw, co);
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.reads[0][0], 2097152) << m.nest.brief(m.loops, hw);
  EXPECT_EQ(c.reads[0][1], 2097152) << m.nest.brief(m.loops, hw);
  int64_t l2_loops = 1;
  for (Dim d : kAllDims) l2_loops *= m.nest.levels[static_cast<size_t>(hw.l2)].factor[at(d)];
  EXPECT_GT(l2_loops, 1) << m.nest.brief(m.loops, hw);
}

// Every blocked candidate keeps within half the L2 (the planner's resident activations take
// the rest) and leaves at DRAM the loops of one dim only. From the row-streaming mapping
// (DRAM: 8 row blocks x 4 column blocks x 8 reduction blocks of 128 x 256 x 256), the L2 keeping
// 512 rows of the input (512 x 2048 B = 1 MiB) reads the input once: 2,097,152 B; the weights come
// once per row block left at DRAM, 2 x 2,097,152 B, when the L2 turns the rows innermost.
TEST(NestL2Blocks, BlocksFitHalfTheL2AndReadTheirTensorOnce) {
  const arch::Accelerator acc = surveyModel();
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const Problem p = dataflows::nest::gemmProblem(1, 1024, 1024, 2048);
  const auto ws = dataflows::loadDataflow("ws");
  dataflows::nest::SearchOptions so;
  so.cost.mac_rate = acc.array.macRate(p.input_dtype);
  so.objective = Objective::Energy;
  Mapping m = dataflows::nest::search(p, hw, ws.nest, so).mapping;
  // Rebuild the loops above the local memories: P (rows) outermost, then K (columns), C inner.
  const int local = hw.local(), l2 = hw.l2;
  ASSERT_GT(l2, 0);
  for (int l = 0; l < local; ++l) m.levels[size_t(l)].factor = kOnes;
  for (Dim d : {Dim::P, Dim::K, Dim::C}) {
    m.levels[0].factor[at(d)] = p.of(d) / m.tile(1, d, hw.array());
  }
  m.levels[0].order = {Dim::P, Dim::K, Dim::C};
  m.levels[size_t(l2)].order.clear();
  for (size_t t = 0; t < 3; ++t) m.levels[size_t(l2)].keeps[t] = false;
  const double half = hw.levels[size_t(l2)].pool_bytes[0] / 2;
  bool found = false;
  double least_weights = 0;
  for (const Mapping& x : dataflows::nest::l2Blocks(m, p, hw, ws.nest)) {
    ASSERT_TRUE(dataflows::nest::checkCapacity(p, x, hw).empty());
    int dram_dims = 0;
    for (Dim d : kAllDims) dram_dims += x.levels[0].factor[at(d)] > 1;
    EXPECT_EQ(dram_dims, 1) << x.brief(p, hw);
    Factors tile;
    for (Dim d : kAllDims) tile[at(d)] = x.tile(l2, d, hw.array());
    double kept = 0;
    for (size_t t = 0; t < 3; ++t) {
      if (x.levels[size_t(l2)].keeps[t]) kept += p.footprint(static_cast<Operand>(t), tile);
    }
    EXPECT_LE(kept, half) << x.brief(p, hw);  // INT8 everywhere: elements are bytes
    const bool input_rows = x.levels[0].factor[at(Dim::P)] == 2 &&
                            x.levels[size_t(l2)].keeps[0] && !x.levels[size_t(l2)].keeps[1] &&
                            !x.levels[size_t(l2)].keeps[2];
    if (!input_rows) continue;
    dataflows::nest::CostOptions co;
    co.mac_rate = so.cost.mac_rate;
    const auto c = dataflows::nest::evaluate(p, x, hw, co);
    ASSERT_TRUE(c.ok) << c.reason;
    EXPECT_EQ(c.reads[0][0], 2097152) << x.brief(p, hw);  // in every order
    if (!found || c.reads[0][1] < least_weights) least_weights = c.reads[0][1];
    found = true;
  }
  // With the L2's row loop innermost the weights' local tile serves the whole row block.
  EXPECT_EQ(least_weights, 2 * 2097152);
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace tessel
