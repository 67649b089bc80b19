// Golden stats from another model: Timeloop's tutorial exercises, run through tessel with the
// designs and maps of tests/dataflows/data/timeloop/, reproduce Timeloop's per-level reads, fills
// and updates and its cycles count for count.
//
// Reference numbers: Accelergy-Project/timeloop-accelergy-exercises,
// workspace/tutorial_exercises/01_accelergy_timeloop_2020_ispass/timeloop/<exercise>/ref-output/
// <variant>/timeloop-model.stats.txt at commit 2ffec693ced8e60a46c1131e9e4a387ac007d410 (the same
// through 2d5510807128e9bd5f1cad0705cdf2ec4612fd4e): per level and tensor "Utilized instances
// (max)", "Scalar reads / fills / updates (per-instance)", and the summary's "Cycles".
//
// tessel sums over instances, so each Timeloop count is multiplied by its instances. Reads are
// compared as `timeloop_reads` (reports/SCHEMA.md): tessel's `reads` of outputs also count the
// partial sums a level sends up to its parent, which Timeloop leaves out.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "tests/cli_runner.h"

namespace {

using Json = nlohmann::json;
using tessel::testing::runTessel;
using tessel::testing::slurp;

struct Counts {
  int64_t reads = 0, fills = 0, updates = 0;
  bool operator==(const Counts& o) const {
    return std::tie(reads, fills, updates) == std::tie(o.reads, o.fills, o.updates);
  }
};

std::ostream& operator<<(std::ostream& os, const Counts& c) {
  return os << "reads " << c.reads << ", fills " << c.fills << ", updates " << c.updates;
}

// One Timeloop level's tensor: the tessel level it maps to and Timeloop's per-instance counts.
struct Row {
  std::string level;  // tessel's
  std::string tensor;
  int64_t instances;
  Counts per_instance;  // Timeloop's
};

struct Case {
  std::string name, exercise, map, workload, dataflow;
  double cycles;
  std::vector<Row> rows;  // every level and tensor Timeloop lists
};

// The exercises' Conv1D with Timeloop's R, P, K as tessel's S, Q, K (the data directory's README).
const char* const kConv1d = "conv:H=1,W=18,C=1,K=1,R=1,S=3";
const char* const kConv1dOc = "conv:H=1,W=18,C=1,K=32,R=1,S=3";
const char* const kConv1dOcIc = "conv:H=1,W=18,C=32,K=32,R=1,S=3";

// MainMemory and Buffer of the two-level exercises: Buffer keeps a tile, MainMemory everything.
std::vector<Row> twoLevel(int64_t macs, int64_t weights, int64_t input_fills, int64_t outputs) {
  return {{"global_buffer", "weight", 1, {macs, weights, 0}},
          {"global_buffer", "input", 1, {macs, input_fills, 0}},
          {"global_buffer", "output", 1, {macs - outputs, 0, macs}},
          {"dram", "weight", 1, {weights, 0, 0}},
          {"dram", "input", 1, {input_fills, 0, 0}},
          {"dram", "output", 1, {0, 0, outputs}}};
}

std::vector<Case> cases() {
  return {
      // One level, Buffer: it is tessel's dram (tessel's global buffer bypassed), so it starts
      // full and nothing fills it, as in Timeloop.
      {"Ex00OneLevel",
       "00-model-conv1d-1level",
       "map.yaml",
       kConv1d,
       "nlr",
       48,
       {{"dram", "weight", 1, {48, 0, 0}},
        {"dram", "input", 1, {48, 0, 0}},
        {"dram", "output", 1, {32, 0, 48}}}},
      {"Ex01TwoLevelOs", "01-model-conv1d-2level", "os.map.yaml", kConv1d, "nlr", 48,
       twoLevel(48, 3, 18, 16)},
      {"Ex01TwoLevelWs", "01-model-conv1d-2level", "ws.map.yaml", kConv1d, "nlr", 48,
       twoLevel(48, 3, 18, 16)},
      {"Ex02NoTiling", "02-model-conv1d+oc-2level", "no-tiling.map.yaml", kConv1dOc, "nlr", 1536,
       twoLevel(1536, 96, 576, 512)},
      // K=2 in the Buffer: each input fill serves two output channels.
      {"Ex02Tiling", "02-model-conv1d+oc-2level", "tiling.map.yaml", kConv1dOc, "nlr", 1536,
       twoLevel(1536, 96, 288, 512)},
      // The GlobalBuffer keeps weights and inputs, the RegisterFile outputs only.
      {"Ex03Bypass",
       "03-model-conv1d+oc-3level",
       "bypass.map.yaml",
       kConv1dOc,
       "rs",
       1536,
       {{"pe", "output", 1, {1024, 0, 1536}},
        {"global_buffer", "weight", 1, {1536, 96, 0}},
        {"global_buffer", "input", 1, {1536, 18, 0}},
        {"dram", "weight", 1, {96, 0, 0}},
        {"dram", "input", 1, {18, 0, 0}},
        {"dram", "output", 1, {0, 0, 512}}}},
      {"Ex03NoBypass",
       "03-model-conv1d+oc-3level",
       "no-bypass.map.yaml",
       kConv1dOc,
       "rs",
       1536,
       {{"pe", "weight", 1, {1536, 96, 0}},
        {"pe", "input", 1, {1536, 288, 0}},
        {"pe", "output", 1, {1024, 0, 1536}},
        {"global_buffer", "weight", 1, {96, 96, 0}},
        {"global_buffer", "input", 1, {288, 18, 0}},
        {"global_buffer", "output", 1, {0, 0, 512}},
        {"dram", "weight", 1, {96, 0, 0}},
        {"dram", "input", 1, {18, 0, 0}},
        {"dram", "output", 1, {0, 0, 512}}}},
      // C across the 16 PEs: each PE's GlobalBuffer (tessel's cluster buffer) accumulates its own
      // partial sums of all 512 outputs, which the network adds on their way to DRAM, so each copy
      // starts every element at zero once and refills its own register file.
      {"Ex04ChannelsAcrossPes",
       "04-model-conv1d+oc-3levelspatial",
       "cp.map.yaml",
       kConv1dOcIc,
       "rs",
       3072,
       {{"pe", "weight", 16, {3072, 192, 0}},
        {"pe", "input", 16, {3072, 1152, 0}},
        {"pe", "output", 16, {2560, 512, 3072}},
        {"cluster_buffer", "weight", 16, {192, 192, 0}},
        {"cluster_buffer", "input", 16, {1152, 36, 0}},
        {"cluster_buffer", "output", 16, {512, 0, 1024}},
        {"dram", "weight", 1, {3072, 0, 0}},
        {"dram", "input", 1, {576, 0, 0}},
        {"dram", "output", 1, {0, 0, 512}}}},
      // K across the 16 PEs: each PE has its own outputs, and the inputs are multicast.
      {"Ex04OutputChannelsAcrossPes",
       "04-model-conv1d+oc-3levelspatial",
       "kp.map.yaml",
       kConv1dOcIc,
       "rs",
       3072,
       {{"pe", "weight", 16, {3072, 192, 0}},
        {"pe", "input", 16, {3072, 1152, 0}},
        {"pe", "output", 16, {3040, 992, 3072}},
        {"cluster_buffer", "weight", 16, {192, 192, 0}},
        {"cluster_buffer", "input", 16, {1152, 576, 0}},
        {"cluster_buffer", "output", 16, {992, 0, 1024}},
        {"dram", "weight", 1, {3072, 0, 0}},
        {"dram", "input", 1, {576, 0, 0}},
        {"dram", "output", 1, {0, 0, 512}}}},
  };
}

class TimeloopReference : public ::testing::TestWithParam<Case> {};

TEST_P(TimeloopReference, CountsAndCyclesMatch) {
  const Case& c = GetParam();
  const std::string dir =
      std::string(TESSEL_SOURCE_DIR) + "/tests/dataflows/data/timeloop/" + c.exercise + "/";
  const std::string json = ::testing::TempDir() + "tessel_timeloop_" + c.name + ".json";
  const auto r =
      runTessel("run --arch '" + dir + "arch.yaml' --workload " + c.workload + " --dataflow " +
                c.dataflow + " --mapping '" + dir + c.map + "' --ideal-memory -q --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  const Json report = Json::parse(slurp(json));
  EXPECT_EQ(report["metadata"]["warnings"].dump(), "[]");
  EXPECT_EQ(report["metadata"]["mapping_warnings"].dump(), "[]");
  const Json& op = report["ops"][0];
  // Timeloop's buffers have no bandwidth limit: one MAC per PE per cycle, every PE busy.
  EXPECT_EQ(op["cycles"].get<double>(), c.cycles);
  EXPECT_EQ(op["utilization"].get<double>(), 1.0);

  std::map<std::pair<std::string, std::string>, Json> got;
  for (const Json& a : op["accesses"]) got[{a["level"], a["tensor"]}] = a;
  for (const Row& row : c.rows) {
    SCOPED_TRACE(row.level + " " + row.tensor);
    const auto it = got.find({row.level, row.tensor});
    ASSERT_NE(it, got.end());
    const Json& a = it->second;
    EXPECT_EQ(a["instances"].get<int64_t>(), row.instances);
    const Counts tessel{a["timeloop_reads"].get<int64_t>(), a["fills"].get<int64_t>(),
                        a["updates"].get<int64_t>()};
    const Counts timeloop{row.per_instance.reads * row.instances,
                          row.per_instance.fills * row.instances,
                          row.per_instance.updates * row.instances};
    EXPECT_EQ(tessel, timeloop);
  }
  // No level keeps or moves a tensor that Timeloop's does not (bypasses agree).
  EXPECT_EQ(got.size(), c.rows.size());
}

INSTANTIATE_TEST_SUITE_P(Exercises, TimeloopReference, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
