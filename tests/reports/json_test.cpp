// JSON: parses, matches reports/SCHEMA.md field for field, adds up, and is deterministic.
#include "reports/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "sample_run.h"
#include "schema_doc.h"

namespace tessel::reports {
namespace {

// Ordered, so tests can check the documented key order.
using Json = nlohmann::ordered_json;

Json sampleJson() { return Json::parse(toJsonString(sample::sampleRun())); }

TEST(ReportsJson, EveryDocumentedFieldIsPresentAndNothingElse) {
  const std::vector<std::string> documented = schemaPaths("## JSON fields");
  ASSERT_GT(documented.size(), 50u);
  std::set<std::string> actual;
  jsonPaths(sampleJson(), "", actual);
  for (const std::string& pattern : documented) {
    bool found = false;
    for (const std::string& path : actual) found = found || matchesPattern(pattern, path, '.');
    EXPECT_TRUE(found) << "documented but not written: " << pattern;
  }
  for (const std::string& path : actual) {
    bool found = false;
    for (const std::string& pattern : documented) {
      found = found || matchesPattern(pattern, path, '.');
    }
    EXPECT_TRUE(found) << "written but not documented: " << path;
  }
}

TEST(ReportsJson, MetadataAndTotals) {
  const Json j = sampleJson();
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["metadata"]["tool"], "tessel");
  EXPECT_EQ(j["metadata"]["arch"]["hash"], "0123456789abcdef");
  EXPECT_EQ(j["metadata"]["pes"], 16);
  EXPECT_EQ(j["metadata"]["options"].dump(), R"({"seq":"8","batch":"1","phase":"prefill"})");
  const Json& t = j["totals"];
  EXPECT_EQ(t["cycles"], 2000.0);
  EXPECT_EQ(t["seconds"], 2e-6);  // 2000 cycles / 1e9 Hz
  EXPECT_EQ(t["energy_pj"], 3050.5);
  EXPECT_EQ(t["macs"], 19200);
  EXPECT_EQ(t["utilization"], 0.6);  // 19200 / (2000 * 16)
  EXPECT_EQ(t["dram_bytes"], 6932);
  EXPECT_EQ(t["bytes_by_level"].dump(), R"({"DRAM":6932,"Scratchpad":15360})");
  EXPECT_EQ(t["logic_gates"], 400000.0);  // the one component's gates, summed
  EXPECT_EQ(t["logic_gates_by_component"].dump(), R"({"array":400000.0})");
  EXPECT_EQ(t["sram_bytes"], 262144.0);
  EXPECT_EQ(t["sram_by_component"].dump(), R"({"Scratchpad":{"bytes":262144.0,"macros":4.0}})");
}

TEST(ReportsJson, IntegersAreIntegersAndQuantitiesAreFloats) {
  const Json j = sampleJson();
  EXPECT_TRUE(j["totals"]["macs"].is_number_integer());
  EXPECT_TRUE(j["totals"]["dram_bytes"].is_number_integer());
  EXPECT_TRUE(j["ops"][0]["traffic"][0]["read"]["weight"].is_number_integer());
  EXPECT_TRUE(j["totals"]["cycles"].is_number_float());
  EXPECT_TRUE(j["ops"][1]["cycles"].is_number_float());
}

TEST(ReportsJson, BreakdownsAddUpToTheTotal) {
  const Json j = sampleJson();
  const double total = j["totals"]["cycles"];
  for (const char* key : {"by_class", "by_cause"}) {
    double cycles = 0, fraction = 0;
    for (const Json& row : j["breakdown"][key]) {
      cycles += row["cycles"].get<double>();
      fraction += row["fraction"].get<double>();
    }
    EXPECT_DOUBLE_EQ(cycles, total) << key;
    EXPECT_NEAR(fraction, 1.0, 1e-5) << key;
  }
  EXPECT_EQ(j["breakdown"]["by_class"].size(), 15u);  // every OpClass
  EXPECT_EQ(j["breakdown"]["by_cause"].size(), 6u);
  EXPECT_EQ(j["breakdown"]["by_class"][0]["fraction"], 0.75);   // MatMul 1500 / 2000
  EXPECT_EQ(j["breakdown"]["by_cause"][3]["fraction"], 0.025);  // noc 50 / 2000
  // The sample's qkv runs 2:4 weights compressed: 9,600 of the MatMul class's 19,200 MACs; the
  // classes' effective MACs sum to the totals'.
  const Json& matmul = j["breakdown"]["by_class"][0]["sparsity"];
  EXPECT_EQ(matmul["macs"], 19200.0);
  EXPECT_EQ(matmul["effective_macs"], 9600.0);
  EXPECT_EQ(matmul["gated_macs"], 0.0);
  double effective = 0;
  for (const Json& row : j["breakdown"]["by_class"]) effective += row["sparsity"]["effective_macs"].get<double>();
  EXPECT_EQ(effective, j["totals"]["sparsity"]["effective_macs"].get<double>());
}

TEST(ReportsJson, OpRecord) {
  const Json op = sampleJson()["ops"][0];
  EXPECT_EQ(op["id"], 0);
  EXPECT_EQ(op["placement"], "array");
  EXPECT_EQ(op["fused_into"], -1);
  EXPECT_EQ(op["cycles_by_cause"].dump(),
            R"({"compute":1000.0,"fill_drain":200.0,"memory_stall":300.0,"noc":0.0,)"
            R"("sfu":0.0,"host":0.0})");
  EXPECT_EQ(op["traffic"][1]["level"], "Scratchpad");
  EXPECT_EQ(op["traffic"][1]["write"]["weight"], 4096);
  EXPECT_EQ(op["energy_pj"]["mac"], 1000.5);
  EXPECT_EQ(op["utilization"], 0.8);
  EXPECT_EQ(op["mapping"]["tile_k"], "12");
  EXPECT_EQ(op["loop_nest"], "for k in 0..12\n  for i in 0..4");
  EXPECT_EQ(sampleJson()["ops"][2]["fused_into"], 0);
  // Waits keep the engine's order (largest first), not the alphabet's; ops without any leave
  // the key out.
  EXPECT_EQ(op["waits"].dump(), R"({"noc":250.0,"dma: load weights":50.0})");
  EXPECT_FALSE(sampleJson()["ops"][1].contains("waits"));
}

TEST(ReportsJson, AccessesListTheTensorsEachLevelHoldsOrMoved) {
  const Json op = sampleJson()["ops"][0];
  // dram holds all three; the scratchpad inputs and weights (no output row: not held, no
  // bytes); the PEs weights only: 3 + 2 + 1 rows, outermost level first.
  ASSERT_EQ(op["accesses"].size(), 6u);
  EXPECT_EQ(op["accesses"][0].dump(),
            R"({"level":"dram","instances":1,"tensor":"input","reads":1024,"fills":0,)"
            R"("updates":0,"read_bytes":1024,"fill_bytes":0,"update_bytes":0,)"
            R"("timeloop_reads":1024})");
  EXPECT_EQ(op["accesses"][2]["tensor"], "output");
  EXPECT_EQ(op["accesses"][2]["updates"], 512);
  EXPECT_EQ(op["accesses"][4]["fills"], 4096);  // scratchpad weights
  EXPECT_EQ(op["accesses"][5]["level"], "pe");
  EXPECT_EQ(op["accesses"][5]["instances"], 16);
  EXPECT_EQ(op["network"].dump(),
            R"([{"level":"scratchpad","kind":"array","fanout":16,"instances":1,)"
            R"("sent_bytes":{"input":2048,"weight":8192,"output":0},)"
            R"("delivered_bytes":{"input":8192,"weight":8192,"output":0}}])");
  // Ops without a loop nest: empty arrays, never absent.
  EXPECT_EQ(sampleJson()["ops"][1]["accesses"].dump(), "[]");
  EXPECT_EQ(sampleJson()["ops"][1]["network"].dump(), "[]");
}

TEST(ReportsJson, ByteIdenticalAcrossWritesAndBuilds) {
  const std::string a = toJsonString(sample::sampleRun());
  const std::string b = toJsonString(sample::sampleRun());
  EXPECT_EQ(a, b);
  std::ostringstream os;
  writeJson(sample::sampleRun(), os);
  EXPECT_EQ(os.str(), a);
  EXPECT_EQ(a.back(), '\n');
}

TEST(ReportsJson, CompactFormIsOneLineWithTheSameContent) {
  const std::string compact = toJsonString(sample::sampleRun(), -1);
  EXPECT_EQ(compact.find('\n'), compact.size() - 1);
  EXPECT_EQ(Json::parse(compact), sampleJson());
}

TEST(ReportsJson, RoundsAndSurvivesBadValues) {
  sim::RunStats run = sample::sampleRun();
  run.ops[0].utilization = 1.0 / 3.0;
  run.ops[0].energy_pj[0].second = std::nan("");
  run.ops[1].name = "bad\xff utf8";
  const Json j = Json::parse(toJsonString(run));
  EXPECT_EQ(j["ops"][0]["utilization"], 0.333333);
  EXPECT_TRUE(j["ops"][0]["energy_pj"]["mac"].is_null());
  EXPECT_EQ(j["ops"][1]["name"], "bad\xef\xbf\xbd utf8");  // U+FFFD
}

TEST(ReportsJson, EmptyRun) {
  const Json j = Json::parse(toJsonString(sim::RunStats{}));
  EXPECT_EQ(j["totals"]["cycles"], 0.0);
  EXPECT_EQ(j["totals"]["utilization"], 0.0);
  EXPECT_TRUE(j["ops"].is_array());
  EXPECT_TRUE(j["ops"].empty());
  for (const Json& row : j["breakdown"]["by_class"]) EXPECT_EQ(row["fraction"], 0.0);
}

}  // namespace
}  // namespace tessel::reports
