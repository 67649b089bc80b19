// Accesses per nest level and tensor (OpStats::accesses, the JSON's ops[].accesses): pinned
// GEMMs on shipped designs counted by hand, and on searched mappings of several workloads and
// designs, fills + updates = writes and everything adds up to the storage levels' traffic.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arch/load.h"
#include "dataflows/host_conversions.h"
#include "dataflows/pinned_mapping.h"
#include "models/workload.h"
#include "reports/json.h"
#include "sim/analytical/nest_stats.h"
#include "sim/run.h"
#include "tests/sim/accesses_check.h"

namespace tessel {
namespace {

using Json = nlohmann::json;

arch::Accelerator shipped(const std::string& name) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml", {});
}

// The JSON record of the one op of `workload` under the pinned mapping `pin`.
Json pinnedOp(const std::string& arch, const std::string& workload, const std::string& pin) {
  const auto path = std::filesystem::temp_directory_path() / ("tessel_accesses_" + arch + ".yaml");
  std::ofstream(path) << pin;
  const arch::Accelerator acc = shipped(arch);
  models::WorkloadOptions wo;
  wo.dtype = acc.array.input_dtype;
  sim::RunOptions o;
  o.plan.pinned = dataflows::loadPinnedMapping(path.string());
  const sim::RunStats run =
      sim::simulate(models::build(workload, wo), acc, dataflows::loadDataflow("ws"), o);
  const Json j = Json::parse(reports::toJsonString(run));
  EXPECT_EQ(j["ops"].size(), 1u);
  return j["ops"][0];
}

// The row of (level, tensor), "null" when absent.
Json row(const Json& op, const std::string& level, const std::string& tensor) {
  for (const Json& r : op["accesses"]) {
    if (r["level"] == level && r["tensor"] == tensor) return r;
  }
  return Json();
}

// reads, fills, updates in words, then in bytes.
std::string counts(const Json& r) {
  if (r.is_null()) return "absent";
  std::ostringstream s;
  s << r["reads"] << " " << r["fills"] << " " << r["updates"] << " | " << r["read_bytes"] << " "
    << r["fill_bytes"] << " " << r["update_bytes"];
  return s.str();
}

TEST(NestAccesses, EyerissPinnedGemmByHand) {
  // gemm M=16 K=24 N=28 (inputs 16x24 = 384, weights 24x28 = 672, outputs 16x28 = 448), every
  // tensor and the partial sums 16-bit (2 B a word). 10,752 MACs.
  //   dram           for k in [0:2)  for n in [0:2)
  //   global_buffer  (no loops)      parallel rows k:12  cols n:14   (168 PEs)
  //   pe [weights]   for m in [0:16)
  // Weights: the buffer's tile (k12 x n14) changes every DRAM step: 4 x 168 = 672 read from DRAM,
  // 672 filled into the buffer. Each PE keeps one weight, a new one every DRAM step: the buffer
  // reads 4 x 168 = 672 (no two PEs share a weight: nothing to multicast), the PEs are filled
  // 672 and read once per MAC, 10,752.
  // Inputs: the buffer's tile (m16 x k12) follows k, the outer loop, and stays while n moves:
  // 2 x 192 = 384 read from DRAM and filled. The PEs keep none: per DRAM step and m the array
  // takes one input per row (12), multicast along the 14 columns: the buffer reads
  // 4 x 16 x 12 = 768, the NoC delivers 768 x 14 = 10,752.
  // Outputs: per DRAM step and m each column's 12 products add up on the way (reduction): the
  // buffer takes 4 x 16 x 14 = 896 updates. Its tile (m16 x n14) is evicted every DRAM step and
  // each element comes back once (k = 1 after k = 0): 896 updates to DRAM, 448 of them results,
  // 448 partial sums; DRAM reads the 448 partial sums back and fills them into the buffer (448).
  // The buffer reads 448 before the updates that add into a refilled sum (an element's first
  // update starts from zero) and 896 to send every tile up: 1,344.
  const Json op = pinnedOp("eyeriss-like", "gemm:M=16,K=24,N=28", R"(op: gemm
spatial: {rows: {k: 12}, cols: {n: 14}}
levels:
  pe: {factors: {m: 16}, keeps: [weights]}
  global_buffer: {}
  dram: {factors: {k: 2, n: 2}, order: [k, n]}
)");
  EXPECT_EQ(counts(row(op, "dram", "input")), "384 0 0 | 768 0 0");
  EXPECT_EQ(counts(row(op, "dram", "weight")), "672 0 0 | 1344 0 0");
  EXPECT_EQ(counts(row(op, "dram", "output")), "448 0 896 | 896 0 1792");
  EXPECT_EQ(counts(row(op, "global_buffer", "input")), "768 384 0 | 1536 768 0");
  EXPECT_EQ(counts(row(op, "global_buffer", "weight")), "672 672 0 | 1344 1344 0");
  EXPECT_EQ(counts(row(op, "global_buffer", "output")), "1344 448 896 | 2688 896 1792");
  EXPECT_EQ(counts(row(op, "pe", "weight")), "10752 672 0 | 21504 1344 0");
  EXPECT_EQ(counts(row(op, "pe", "input")), "absent");  // bypassed, as Timeloop leaves it out
  EXPECT_EQ(row(op, "pe", "weight")["instances"], 168);
  // The array's NoC: sent once per multicast / reduced sum, delivered to (taken from) every PE.
  ASSERT_EQ(op["network"].size(), 1u);
  const Json& noc = op["network"][0];
  EXPECT_EQ(noc["kind"], "array");
  EXPECT_EQ(noc["fanout"], 168);
  EXPECT_EQ(noc["sent_bytes"].dump(), R"({"input":1536,"output":1792,"weight":1344})");
  EXPECT_EQ(noc["delivered_bytes"].dump(), R"({"input":21504,"output":21504,"weight":1344})");
}

TEST(NestAccesses, GemminiPartialSumsSpillAtTheAccumulatorsWidth) {
  // gemm M=32 K=64 N=32, INT8 inputs, weights and results, INT32 partial sums. 65,536 MACs.
  //   dram                    for k in [0:4)  for n in [0:2)
  //   scratchpad+accumulator  (no loops)      parallel rows k:16  cols n:16
  //   pe [weights]            for m in [0:32)
  // Outputs: per DRAM step and m, each column's sum leaves the array: 8 x 32 x 16 = 4,096
  // updates into the accumulator (16,384 B), 3,072 of which add into a sum already there (its
  // reads). Each DRAM step evicts the tile (m32 x n16): 8 x 512 = 4,096 updates to DRAM, the
  // last of each element (1,024) a 1-byte result, the 3,072 others 4-byte partial sums:
  // 1,024 + 12,288 = 13,312 B. DRAM reads the 3,072 sums back (12,288 B) and fills them into
  // the accumulator; it reads 3,072 + 4,096 (sending every tile up) = 7,168 words, 28,672 B.
  // Inputs: the scratchpad's tile (m32 x k16) follows k only: 4 x 512 = 2,048 B from DRAM;
  // sent into the array once per DRAM step, m and row: 8 x 32 x 16 = 4,096.
  // Weights: a new k16 x n16 tile every DRAM step: 2,048 from DRAM, filled, read into the PEs.
  const Json op = pinnedOp("gemmini-default", "gemm:M=32,K=64,N=32", R"(op: gemm
spatial: {rows: {k: 16}, cols: {n: 16}}
levels:
  pe: {factors: {m: 32}, keeps: [weights]}
  scratchpad+accumulator: {}
  dram: {factors: {k: 4, n: 2}, order: [k, n]}
)");
  EXPECT_EQ(counts(row(op, "dram", "output")), "3072 0 4096 | 12288 0 13312");
  EXPECT_EQ(counts(row(op, "scratchpad+accumulator", "output")),
            "7168 3072 4096 | 28672 12288 16384");
  EXPECT_EQ(counts(row(op, "dram", "input")), "2048 0 0 | 2048 0 0");
  EXPECT_EQ(counts(row(op, "scratchpad+accumulator", "input")), "4096 2048 0 | 4096 2048 0");
  EXPECT_EQ(counts(row(op, "dram", "weight")), "2048 0 0 | 2048 0 0");
  EXPECT_EQ(counts(row(op, "scratchpad+accumulator", "weight")), "2048 2048 0 | 2048 2048 0");
  EXPECT_EQ(counts(row(op, "pe", "weight")), "65536 2048 0 | 65536 2048 0");
}

// A design whose levels fan out (four MXUs under one vector memory): one network per fan-out,
// then the arrays' NoC, one copy per MXU; everything still adds up. The design is new: skipped
// where it is not in the tree.
TEST(NestAccesses, FanOutsAreNetworksOfTheirOwn) {
  const std::string file = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4i-like.yaml";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " absent";
  const arch::Accelerator acc = arch::loadFile(file, {});
  models::WorkloadOptions wo;
  wo.dtype = acc.array.input_dtype;
  const models::Graph g =
      dataflows::withHostConversions(models::build("gemm:M=256,K=512,N=384", wo), acc);
  const dataflows::Dataflow df = dataflows::loadDataflow(acc.array.dataflows.front());
  dataflows::PlanOptions po;
  po.mapper = "search";
  po.mapper_options.budget = 1000;
  const auto plans = dataflows::plan(g, acc, df, po);
  const sim::RunStats run = sim::evaluatePlans(g, acc, df, plans, sim::RunOptions{});
  ASSERT_EQ(run.ops.size(), 1u);
  const sim::OpStats& op = run.ops[0];
  const auto& hw = *plans[0].mapping.hw;
  ASSERT_TRUE(hw.hasFanouts());
  EXPECT_EQ(testing::accessMismatch(op, hw), "");
  ASSERT_GE(op.networks.size(), 2u);
  EXPECT_EQ(op.networks.front().kind, "fanout");
  EXPECT_EQ(op.networks.back().kind, "array");
  EXPECT_EQ(op.networks.back().instances, hw.arrays);
  EXPECT_EQ(op.networks.back().fanout, hw.arrayPes());
  // What a fan-out sends its copies receive at least once; a multicast reaches several.
  for (const sim::NetworkTraffic& n : op.networks) {
    for (size_t t = 0; t < 2; ++t) EXPECT_GE(n.delivered_bytes[t], n.sent_bytes[t]) << n.level;
  }
}

// Searched mappings of several workloads on several designs: the cost model's fills + updates
// are its writes at every level and tensor, and the op's accesses add up to its traffic.
using Case = std::tuple<std::string, std::string>;
class NestAccessesAddUp : public ::testing::TestWithParam<Case> {};

TEST_P(NestAccessesAddUp, FillsPlusUpdatesAreTheWrites) {
  const auto& [arch, workload] = GetParam();
  const arch::Accelerator acc = shipped(arch);
  models::WorkloadOptions wo;
  wo.dtype = acc.array.input_dtype;
  wo.seq = 64;
  if (workload == "gpt2") wo.layers = 1;
  const models::Graph g = dataflows::withHostConversions(models::build(workload, wo), acc);
  const dataflows::Dataflow df = dataflows::loadDataflow(acc.array.dataflows.front());
  dataflows::PlanOptions po;
  po.mapper = "search";
  po.mapper_options.budget = 1000;
  const auto plans = dataflows::plan(g, acc, df, po);
  sim::RunOptions o;
  const sim::RunStats run = sim::evaluatePlans(g, acc, df, plans, o);
  int nests = 0;
  for (size_t i = 0; i < plans.size(); ++i) {
    if (!plans[i].op->isGemmLike() || plans[i].placement == dataflows::Placement::Host) {
      EXPECT_TRUE(run.ops[i].accesses.empty()) << run.ops[i].name;
      continue;
    }
    ++nests;
    const auto c = sim::analytical::nestCost(plans[i], acc, false).cost;
    for (size_t l = 0; l < c.writes.size(); ++l) {
      for (size_t t = 0; t < 3; ++t) {
        EXPECT_EQ(c.fills[l][t] + c.updates[l][t], c.writes[l][t])
            << run.ops[i].name << " level " << l << " tensor " << t;
      }
    }
    EXPECT_EQ(testing::accessMismatch(run.ops[i], *plans[i].mapping.hw), "");
  }
  EXPECT_GT(nests, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, NestAccessesAddUp,
    ::testing::Combine(::testing::Values("eyeriss-like", "gemmini-default", "gemmini-survey-model",
                                         "shidiannao-like", "tpu-v1-like"),
                       ::testing::Values("gemm:M=100,K=72,N=56",
                                         "conv:H=14,W=14,C=32,K=48,R=3,S=3,pad=1", "gpt2")),
    [](const auto& info) {
      std::string n = std::get<0>(info.param) + "_" + std::get<1>(info.param);
      for (char& ch : n) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      return n;
    });

}  // namespace
}  // namespace tessel
