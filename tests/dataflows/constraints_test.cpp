// Per-level constraints of a dataflow file: allowed loop orders and bypasses. Parsed with
// located errors, followed by every mapping the search returns, and used when they pay.
#include "dataflows/nest/constraints.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "tests/util/error_of.h"

namespace tessel::dataflows {
namespace {

using nest::Dim;
using tessel::testing::errorOf;
using ::testing::HasSubstr;

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

const char* const kHead =
    "name: ws-constrained\narrays: [spatial]\nnest:\n  rows: [C, R, S]\n  cols: [K]\n"
    "  pe_keeps: [weights]\n  pe_loops: [N, P, Q]\n";

TEST(DataflowConstraints, OrderPatternsKeepTheirDimsOutermostInTheirOrder) {
  const std::vector<std::vector<Dim>> kcp{{Dim::K, Dim::C, Dim::P}};
  EXPECT_TRUE(nest::orderAllowed({Dim::K, Dim::P}, kcp));           // C absent: still in order
  EXPECT_TRUE(nest::orderAllowed({Dim::K, Dim::C, Dim::P, Dim::Q}, kcp));  // Q unlisted, inside
  EXPECT_FALSE(nest::orderAllowed({Dim::C, Dim::K}, kcp));          // out of order
  EXPECT_FALSE(nest::orderAllowed({Dim::Q, Dim::K}, kcp));          // unlisted outside
  EXPECT_TRUE(nest::orderAllowed({Dim::Q, Dim::K}, {}));            // no constraint
}

TEST(DataflowConstraints, MistakesAreLocated) {
  auto error = [](const std::string& name, const std::string& extra) {
    const std::string path = writeTemp(name + ".yaml", std::string(kHead) + extra);
    return errorOf([&] { loadDataflow(path); });
  };
  EXPECT_THAT(error("level", "  orders: {drm: [[K, C]]}\n"),
              HasSubstr(":8:12: at 'nest.orders.drm': unknown level 'drm'; accepted: dram, l2, "
                        "local, pe"));
  EXPECT_THAT(error("dim", "  orders: {dram: [[K, X]]}\n"),
              HasSubstr("expected a loop dim (G, N, K, C, P, Q, R or S), got 'X'"));
  EXPECT_THAT(error("twice", "  orders: {dram: [[K, K]]}\n"), HasSubstr("'K' is listed twice"));
  EXPECT_THAT(error("dram", "  bypass: {dram: [weights]}\n"),
              HasSubstr("only l2 and local may be bypassed"));
  EXPECT_THAT(error("tensor", "  bypass: {local: [wieghts]}\n"), HasSubstr("wieghts"));
}

std::vector<OpPlan> plan(const std::string& dataflow_path, const std::string& workload,
                         const std::string& objective) {
  static const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/eyeriss-like.yaml");
  static std::vector<std::unique_ptr<models::Graph>> graphs;
  models::WorkloadOptions w;
  w.dtype = acc.array.input_dtype;  // int16: the array has no int8 MACs
  graphs.push_back(std::make_unique<models::Graph>(models::build(workload, w)));
  PlanOptions o;
  o.mapper = "search";
  o.mapper_options.objective = objective;
  o.mapper_options.budget = 3000;
  return dataflows::plan(*graphs.back(), acc, loadDataflow(dataflow_path), o);
}

TEST(DataflowConstraints, EveryMappingFollowsTheAllowedOrders) {
  const std::string path =
      writeTemp("orders.yaml", std::string(kHead) + "  orders: {dram: [[C, K, P]], local: [[P, K, C]]}\n");
  const Dataflow df = loadDataflow(path);
  int checked = 0;
  for (const auto& p : plan(path, "gemm:M=300,K=2048,N=1500", "latency")) {
    if (!p.op->isGemmLike()) continue;
    ASSERT_TRUE(p.mapping.has_nest);
    ++checked;
    EXPECT_TRUE(nest::ordersAllowed(p.mapping.nest, df.nest, *p.mapping.hw)) << p.mapping.brief();
  }
  for (const auto& p : plan(path, "conv:H=28,W=28,C=64,K=96,R=3,S=3,stride=1,pad=1", "energy")) {
    if (!p.op->isGemmLike()) continue;
    ASSERT_TRUE(p.mapping.has_nest);
    ++checked;
    EXPECT_TRUE(nest::ordersAllowed(p.mapping.nest, df.nest, *p.mapping.hw)) << p.mapping.brief();
  }
  EXPECT_EQ(checked, 2);
}

// A matrix-vector product uses each weight once: staging it in the global buffer costs a write
// and a read (3 pJ/B each on the Eyeriss-like design) for no reuse. Allowed to bypass, the
// energy search streams the weights past the buffer and saves exactly those accesses.
TEST(DataflowConstraints, AnAllowedBypassIsTakenWhenItPays) {
  const std::string plain = writeTemp("plain.yaml", kHead);
  const std::string bypass =
      writeTemp("bypass.yaml", std::string(kHead) + "  bypass: {local: [weights]}\n");
  auto first = [](const std::vector<OpPlan>& plans) {
    return *std::find_if(plans.begin(), plans.end(), [](const OpPlan& p) { return p.op->isGemmLike(); });
  };
  const auto a = first(plan(plain, "gemm:M=1,K=2048,N=2048", "energy"));
  const auto b = first(plan(bypass, "gemm:M=1,K=2048,N=2048", "energy"));
  const int local = a.mapping.hw->local();
  EXPECT_TRUE(a.mapping.nest.levels[size_t(local)].keeps[1]);
  EXPECT_FALSE(b.mapping.nest.levels[size_t(local)].keeps[1]);
}

}  // namespace
}  // namespace tessel::dataflows
