// The Gemmini tiled_matmul_auto heuristic, checked against hand-run steps of the algorithm.
#include "dataflows/mapper.h"

#include <gtest/gtest.h>

#include "tests/sim/tiny_arch.h"
#include "util/error.h"

namespace tessel {
namespace {

using dataflows::MapConstraints;
using dataflows::Problem;

// Gemmini defaultConfig local memories: 16x16, 256 KiB scratchpad, 64 KiB accumulator.
arch::Accelerator gemminiLike() {
  auto a = testing::tinyArch(16);
  a.levels[1].capacity_bytes = 256 * 1024;
  a.levels[2].capacity_bytes = 64 * 1024;
  return a;
}

Problem gemm(int64_t m, int64_t k, int64_t n) {
  Problem p;
  p.m = m;
  p.k = k;
  p.n = n;
  return p;
}

TEST(DataflowsGemminiAuto, GptQkvOnDefaultConfig) {
  // Usable halves: scratchpad 128 KiB, accumulator 32 KiB = 32 blocks of 16x16 int32 (1 KiB).
  // Start m = n = floor(sqrt(32)) = 5 blocks, k = 1. Round 1: n -> 6 (5*6 = 30 blocks fit),
  // m -> 6 would need 36 (no), k -> 2. Then n and m stay; k grows while the int8 inputs
  // (5k + 6k) * 256 B <= 128 KiB, i.e. k <= 46 (< 48 = 768/16). Tile 80 x 96 x 736.
  const auto a = gemminiLike();
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(512, 768, 2304), a, dataflows::loadDataflow("ws"), {});
  ASSERT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.mapping.tile_m, 80);
  EXPECT_EQ(r.mapping.tile_n, 96);
  EXPECT_EQ(r.mapping.tile_k, 736);
  EXPECT_EQ(r.mapping.brief(), "ws m=80 n=96 k=736");
}

TEST(DataflowsGemminiAuto, SmallProblemsClampToTheirSize) {
  // 20 x 20 x 20 is 2 blocks each way; the tile covers it all, clipped to 20.
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(20, 20, 20), gemminiLike(), dataflows::loadDataflow("os"), {});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.mapping.tile_m, 20);
  EXPECT_EQ(r.mapping.tile_n, 20);
  EXPECT_EQ(r.mapping.tile_k, 20);
}

TEST(DataflowsGemminiAuto, WholeRowsForRowWiseEpilogues) {
  // A softmax epilogue on a 512 x 512 score needs n = 512 = 32 blocks: 1 x 32 blocks of int32
  // = 32 KiB fits the usable accumulator exactly; m stays 1 block (Gemmini sets tile_I = 1).
  const auto a = gemminiLike();
  const auto mapper = dataflows::makeMapper("gemmini-auto");
  const auto r =
      mapper->map(gemm(512, 64, 512), a, dataflows::loadDataflow("ws"), MapConstraints{true});
  ASSERT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.mapping.tile_n, 512);
  EXPECT_EQ(r.mapping.tile_m, 16);
  // 1024 columns need 64 KiB of the 32 KiB half: infeasible, with a reason.
  const auto wide =
      mapper->map(gemm(512, 64, 1024), a, dataflows::loadDataflow("ws"), MapConstraints{true});
  EXPECT_FALSE(wide.ok);
  EXPECT_NE(wide.reason.find("1024"), std::string::npos);
}

TEST(DataflowsGemminiAuto, TooSmallMemoriesAreInfeasible) {
  auto a = gemminiLike();
  a.levels[2].capacity_bytes = 1024;  // half = 512 B < one 1 KiB block
  const auto r = dataflows::makeMapper("gemmini-auto")
                     ->map(gemm(64, 64, 64), a, dataflows::loadDataflow("ws"), {});
  EXPECT_FALSE(r.ok);
}

TEST(DataflowsRegistry, EveryMapperAndDataflowIsRegistered) {
  for (const auto& name : dataflows::mapperNames())
    EXPECT_EQ(dataflows::makeMapper(name)->name(), name);
  EXPECT_THROW(dataflows::makeMapper("nope"), ConfigError);
  for (const char* df : {"ws", "os", "is"}) EXPECT_EQ(dataflows::loadDataflow(df).name, df);
}

TEST(DataflowsYaml, ParsesAndRejectsBadFiles) {
  const auto df = dataflows::parseDataflow(
      "name: x\nstationary: weights\nspatial: {rows: k, cols: n}\nstream: m\narrays: [systolic]\n",
      "x.yaml");
  EXPECT_EQ(df.row_dim, dataflows::Dim::K);
  try {
    dataflows::parseDataflow(
        "name: x\nstationary: weigths\nspatial: {rows: k, cols: n}\nstream: m\narrays: "
        "[systolic]\n",
        "bad.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:2:13"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean 'weights'"), std::string::npos) << e.what();
  }
  // The stationary operand must not depend on the streamed dim.
  EXPECT_THROW(dataflows::parseDataflow("name: x\nstationary: inputs\nspatial: {rows: k, cols: n}\n"
                                        "stream: m\narrays: [systolic]\n",
                                        "y.yaml"),
               ConfigError);
  EXPECT_THROW(dataflows::loadDataflow("wss"), ConfigError);
  // Row-stationary is a name the accelerator schema accepts but no YAML describes yet: the
  // error says so instead of suggesting a look-alike.
  try {
    dataflows::loadDataflow("rs");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("no description"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessel
