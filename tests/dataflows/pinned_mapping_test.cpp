// Pinned mappings: the one op named takes the file's mapping, every other op is searched, and
// every mistake in the file is a located error.
#include "dataflows/pinned_mapping.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arch/load.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "util/error.h"

namespace tessel {
namespace {

std::string writeTemp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("tessel_pin_" + name + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

std::vector<dataflows::OpPlan> planWith(const std::string& pin_text, const std::string& name) {
  static const arch::Accelerator acc =
      arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  static const models::Graph g = models::build("gemm:M=512,K=768,N=768", models::WorkloadOptions{});
  dataflows::PlanOptions o;
  o.mapper = "search";
  o.pinned = dataflows::loadPinnedMapping(writeTemp(name, pin_text));
  return dataflows::plan(g, acc, dataflows::loadDataflow("ws"), o);
}

const char* kGood = R"(op: gemm
spatial: {rows: {k: 16}, cols: {n: 16}}
levels:
  pe: {factors: {m: 128}}
  scratchpad+accumulator: {factors: {n: 4, k: 24}, order: [n, k]}
  dram: {order: [m, n, k]}
)";

TEST(PinnedMapping, TheNamedOpTakesItAndDramCoversTheRest) {
  const auto plans = planWith(kGood, "good");
  const auto& m = plans.at(0).mapping;
  EXPECT_EQ(m.mapper, "pinned");
  ASSERT_TRUE(m.has_nest);
  // DRAM: m 512 / 128 = 4, n 768 / (4 x 16) = 12, k 768 / (24 x 16) = 2, in the file's order.
  const auto& dram = m.nest.levels[0];
  EXPECT_EQ(dram.factor[static_cast<size_t>(dataflows::nest::Dim::P)], 4);
  EXPECT_EQ(dram.factor[static_cast<size_t>(dataflows::nest::Dim::K)], 12);
  EXPECT_EQ(dram.factor[static_cast<size_t>(dataflows::nest::Dim::C)], 2);
  EXPECT_EQ(std::vector<dataflows::nest::Dim>(dram.order.begin(), dram.order.end()),
            (std::vector<dataflows::nest::Dim>{dataflows::nest::Dim::P, dataflows::nest::Dim::K,
                                               dataflows::nest::Dim::C}));
}

void expectError(const std::string& text, const std::string& name, const std::string& where,
                 const std::string& what) {
  try {
    planWith(text, name);
    FAIL() << "accepted: " << text;
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(where), std::string::npos) << where << " in " << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(PinnedMapping, MistakesAreLocated) {
  std::string t = kGood;
  expectError(std::string(t).replace(t.find("op: gemm"), 8, "op: gem"), "op", ":1:5", "did you mean 'gemm'");
  expectError(std::string(t).replace(t.find("n: 4,"), 5, "x: 4,"), "dim", ":5:38", "'x' is not a dim");
  expectError(std::string(t).replace(t.find("k: 24"), 5, "k: 48"), "room", ":3:1",
              "scratchpad+accumulator needs");
  expectError(std::string(t).replace(t.find("pe:"), 3, "pf:"), "level", ":4:3", "no level 'pf'");
  expectError(std::string(t).replace(t.find("m: 128"), 6, "m: 0"), "zero", ":4:21", "at least 1");
  expectError(std::string(t).replace(t.find("{k: 16}"), 7, "{k: 32}"), "array", ":3:1",
              "exceeds the 16x16 array");
  // Weight-stationary unrolls the reduction over the rows, never m.
  expectError(std::string(t).replace(t.find("rows: {k: 16}"), 13, "rows: {m: 16}"), "dataflow",
              ":3:1", "dataflow 'ws' does not allow this mapping: it unrolls m across array rows");
}

}  // namespace
}  // namespace tessel
