// Sparse operands in both engines: the SystemC engine spreads the compressed transfers and runs
// the sparse array steps as the loop-nest model counts them, so byte counts agree on every op and
// cycles within the engines' tolerance (as dense, xval_test.cpp): 2:4 weights on a datapath that
// runs them, unstructured weights a spatial array skips, ReLU-sparse inputs Eyeriss gates.
#include <gtest/gtest.h>

#include <sstream>

#include "reports/xval.h"
#include "sim/run.h"
#include "sim/systemc/systemc_engine.h"
#include "tests/systemc/engine/fixtures.h"
#include "tests/systemc/engine/xval_summary.h"
#include "tests/systemc/in_child.h"

namespace tessel::sim::systemc {
namespace {

constexpr double kOpTolerance = 0.20;  // as xval_test.cpp
constexpr double kRunTolerance = 0.05;

struct Case {
  std::string arch, workload, sparsity;
  std::vector<std::string> overrides;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.arch << " " << c.workload << " --sparsity " << c.sparsity;
}

testing::Planned plannedSparse(const Case& c) {
  testing::Planned p;
  p.acc = arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + c.arch + ".yaml",
                         c.overrides);
  p.dataflow = dataflows::loadDataflow(p.acc.array.dataflows.front());
  models::WorkloadOptions o;
  o.seq = 128;
  o.dtype = p.acc.array.input_dtype;
  o.sparsity = models::parseSparsitySpec(c.sparsity);
  p.graph = std::make_unique<models::Graph>(
      dataflows::withHostConversions(models::build(c.workload, o), p.acc));
  dataflows::PlanOptions po;
  po.mapper = "search";
  po.mapper_options.budget = 4000;
  p.plans = dataflows::plan(*p.graph, p.acc, p.dataflow, po);
  return p;
}

class SparseXval : public ::testing::TestWithParam<Case> {};

TEST_P(SparseXval, BytesIdenticalCyclesWithinTolerance) {
  const Case c = GetParam();
  const auto r = testing::inChild([c] {
    registerEngine();
    const auto p = plannedSparse(c);
    const testing::BothEngines both = testing::runBoth(p);
    const RunStats& a = both.analytical;
    const reports::Xval x = reports::crossCheck(a, both.systemc, kOpTolerance);
    double dense = 0, performed = 0;
    for (const OpStats& op : a.ops) {
      dense += static_cast<double>(op.macs);
      performed += op.sparsity.sparse ? op.sparsity.effective_macs : static_cast<double>(op.macs);
    }
    return testing::xvalHead(x, kRunTolerance) + " " + std::to_string(performed < dense) +
           testing::xvalTail(x, kOpTolerance);
  });
  ASSERT_TRUE(r.ok) << r.output;
  EXPECT_EQ(r.output.substr(0, 8), "0 0 1 1 ") << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Designs, SparseXval,
    ::testing::Values(
        Case{"gemmini-default", "gpt2-small", "weights=2:4",
             {"sparsity.structured=[2:4]", "sparsity.formats.dram.weights=nm_indices",
              "sparsity.formats.scratchpad.weights=nm_indices"}},
        Case{"eyeriss-like", "resnet50", "inputs=0.4", {}},
        Case{"eyeriss-like", "gpt2-small", "weights=0.5",
             {"sparsity.skip=[weights]", "sparsity.formats.dram.weights=bitmask",
              "sparsity.formats.global_buffer.weights=bitmask"}}),
    [](const auto& info) {
      std::string n = info.param.arch + "_" + info.param.workload + "_" + info.param.sparsity;
      for (char& ch : n) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      return n;
    });

}  // namespace
}  // namespace tessel::sim::systemc
