// The end-of-sweep summary over result lines written by hand: Pareto fronts per workload
// variant (checked against O(n^2) dominance) and swept keys that changed no result.
#include "sweep/summary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "tests/sweep/spec_helpers.h"

namespace tessel::sweep {
namespace {

using Json = nlohmann::ordered_json;

Spec parse(const std::string& body) {
  return parseSpec("base: " + testing::gemminiPath() + "\n" + body, "/tmp/spec.yaml");
}

std::string okLine(int64_t index, const Json& params, const Json& metrics, bool violated = false) {
  Json j = {{"index", index}, {"id", "0"},         {"params", params}, {"numeric", Json::object()},
            {"status", "ok"}, {"metrics", metrics}};
  if (violated) j["violated"] = {"cycles <= 1"};
  return j.dump();
}

std::string failedLine(int64_t index, const Json& params) {
  return Json{{"index", index},
              {"params", params},
              {"status", "failed"},
              {"error", "x"},
              {"error_kind", "config"}}
      .dump();
}

// Whether a is at least as good as b everywhere and better somewhere; utilization is maximized.
bool dominates(const Json& a, const Json& b) {
  const double ac = a["cycles"], bc = b["cycles"], au = a["utilization"], bu = b["utilization"];
  return ac <= bc && au >= bu && (ac < bc || au > bu);
}

TEST(SweepSummary, FrontsPerWorkloadVariantMatchTheDefinition) {
  const Spec spec = parse(
      "workloads:\n  - {name: gpt2-small, seq: [64, 128]}\n"
      "grid:\n  array.rows: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n  array.cols: [1, 2, 3, 4, 5, 6, 7, "
      "8, 9, 10]\n"
      "metrics: [cycles, utilization]\npareto: [cycles, utilization]\n");
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> level(0, 6), kind(0, 9);
  std::vector<std::string> lines;
  std::vector<Json> parsed;
  for (int64_t i = 0; i < 200; ++i) {
    const Json params = {{"workload", "gpt2-small"},
                         {"workload.seq", i < 100 ? 64 : 128},
                         {"array.rows", i % 10 + 1},
                         {"array.cols", (i / 10) % 10 + 1}};
    const Json metrics = {{"cycles", 100.0 * level(rng)}, {"utilization", 0.125 * level(rng)}};
    const int k = kind(rng);  // 1 in 10 failed, 1 in 10 broke a constraint
    lines.push_back(k == 0 ? failedLine(i, params) : okLine(i, params, metrics, k == 1));
    parsed.push_back(Json{{"ok", k != 0}, {"candidate", k > 1}, {"metrics", metrics}});
  }
  std::reverse(lines.begin(), lines.end());  // points.jsonl order is any order
  const Summary s = summarize(spec, lines);
  ASSERT_EQ(s.fronts.size(), 2u);  // seq 64, seq 128
  for (size_t v = 0; v < 2; ++v) {
    EXPECT_EQ(s.fronts[v].workload, "gpt2-small");
    EXPECT_EQ(s.fronts[v].options, (Json{{"workload.seq", v == 0 ? 64 : 128}}));
    std::vector<int64_t> expected;
    int64_t candidates = 0;
    for (size_t i = 100 * v; i < 100 * (v + 1); ++i) {
      if (!parsed[i]["candidate"].get<bool>()) continue;
      ++candidates;
      bool dominated = false;
      for (size_t j = 100 * v; j < 100 * (v + 1) && !dominated; ++j) {
        dominated = parsed[j]["candidate"].get<bool>() &&
                    dominates(parsed[j]["metrics"], parsed[i]["metrics"]);
      }
      if (!dominated) expected.push_back(static_cast<int64_t>(i));
    }
    EXPECT_EQ(s.fronts[v].candidates, candidates);
    EXPECT_EQ(s.fronts[v].indices, expected);
  }
  EXPECT_EQ(s.points, 200);
  EXPECT_EQ(s.ok + s.failed, 200);
  EXPECT_GT(s.violated, 0);
}

// A 2 x 3 grid whose metrics depend on b only.
std::vector<std::string> flatInA(const std::string& limit) {
  std::vector<std::string> lines;
  int64_t i = 0;
  for (int a : {8, 16}) {
    for (int b : {1, 2, 3}) {
      const Json params = {{"workload", "gemm"}, {"dram.bandwidth", a}, {"array.rows", b}};
      lines.push_back(okLine(
          i++, params,
          {{"cycles", 1000.0 / b}, {"offchip_limit", limit}, {"offchip_bytes_per_cycle", 10.24}}));
    }
  }
  return lines;
}

const char* kFlatSpec =
    "workloads: [\"gemm:M=64,N=64,K=64\"]\n"
    "grid:\n  dram.bandwidth: [8, 16]\n  array.rows: [1, 2, 3]\n";

TEST(SweepSummary, AKeyThatChangedNothingGetsANoteThatNamesTheOffchipLimit) {
  const Spec spec = parse(kFlatSpec);
  const Summary s = summarize(spec, flatInA("dma window"));
  ASSERT_EQ(s.notes.size(), 1u);  // array.rows changed cycles: no note for it
  EXPECT_EQ(s.notes[0].key, "dram.bandwidth");
  EXPECT_EQ(s.notes[0].groups, 3);  // one pair per array.rows value
  EXPECT_EQ(s.notes[0].offchip_limit, "dma window");
  EXPECT_EQ(s.notes[0].message,
            "dram.bandwidth changed no result (every point equal when only it varies); the "
            "off-chip rate is set by the dma window (10.24 B/cycle)");
  // A limit that is a parameter is named as one.
  EXPECT_NE(summarize(spec, flatInA("dma.bus_width"))
                .notes[0]
                .message.find("set by dma.bus_width (10.24 B/cycle)"),
            std::string::npos);
  const Json j = Json::parse(summaryJson(spec, s));
  EXPECT_EQ(j["schema"], "tessel.sweep-summary/1");
  EXPECT_EQ(j["notes"][0]["key"], "dram.bandwidth");
  EXPECT_EQ(j["notes"][0]["offchip_bytes_per_cycle"], 10.24);
  EXPECT_FALSE(j.contains("pareto"));  // the spec has none
}

TEST(SweepSummary, NoNoteWithoutEvidenceOrWhenAPointFailedAtOneValue) {
  const Spec spec = parse(kFlatSpec);
  std::vector<std::string> lines = flatInA("dma window");
  // dram.bandwidth 16 fails at array.rows 2: it changed that result.
  lines[4] = failedLine(4, {{"workload", "gemm"}, {"dram.bandwidth", 16}, {"array.rows", 2}});
  EXPECT_TRUE(summarize(spec, lines).notes.empty());
  // Only one point: nothing was compared, so nothing is claimed.
  EXPECT_TRUE(summarize(spec, {flatInA("dma window")[0]}).notes.empty());
  // Keys that change together (a list) are never compared alone.
  const Spec listed = parse(
      "workloads: [\"gemm:M=64,N=64,K=64\"]\nlist:\n  - {array.rows: 8, array.cols: 8}\n"
      "  - {array.rows: 16, array.cols: 16}\n");
  const std::vector<std::string> pair = {
      okLine(0, {{"workload", "gemm"}, {"array.rows", 8}, {"array.cols", 8}}, {{"cycles", 5}}),
      okLine(1, {{"workload", "gemm"}, {"array.rows", 16}, {"array.cols", 16}}, {{"cycles", 5}})};
  EXPECT_TRUE(summarize(listed, pair).notes.empty());
}

TEST(SweepSummary, DerivedKeysFollowTheirAxisAndAreNotHeldFixed) {
  const Spec spec = parse(
      "workloads: [\"gemm:M=64,N=64,K=64\"]\ngrid:\n  scratchpad.capacity: [64KiB, 128KiB]\n"
      "derived:\n  accumulator.capacity: scratchpad.capacity / 2\n");
  const std::vector<std::string> lines = {
      okLine(
          0,
          {{"workload", "gemm"}, {"scratchpad.capacity", "64KiB"}, {"accumulator.capacity", 32768}},
          {{"cycles", 5}}),
      okLine(1,
             {{"workload", "gemm"},
              {"scratchpad.capacity", "128KiB"},
              {"accumulator.capacity", 65536}},
             {{"cycles", 5}})};
  const Summary s = summarize(spec, lines);
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_EQ(s.notes[0].key, "scratchpad.capacity");
  // Not an off-chip key: the off-chip limit explains nothing about it.
  EXPECT_EQ(s.notes[0].message,
            "scratchpad.capacity changed no result (every point equal when only it varies)");
}

}  // namespace
}  // namespace tessel::sweep
