#include <gtest/gtest.h>

#include "sweep/points.h"
#include "sweep/spec.h"
#include "tests/sweep/spec_helpers.h"

namespace tessel::sweep {
namespace {

using testing::gemminiPath;

Spec parse(const std::string& body) {
  return parseSpec("base: " + gemminiPath() + "\n" + body, "/tmp/spec.yaml");
}

// The error a spec gets, as "line:column: message" checks need it.
std::string errorOf(const std::string& body) {
  try {
    parse(body);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SweepSpec, GridIsTheProductInSpecOrderLastKeyFastest) {
  const Spec spec = parse(
      "workloads: [gpt2-small]\n"
      "grid:\n  scratchpad.capacity: [64KiB, 128KiB, 256KiB]\n  accumulator.capacity: [32KiB, 64KiB]\n");
  const PointSet set = generatePoints(spec);
  ASSERT_EQ(set.points.size(), 6u);  // 3 x 2
  EXPECT_EQ(set.points[0].value("scratchpad.capacity"), "64KiB");
  EXPECT_EQ(set.points[0].value("accumulator.capacity"), "32KiB");
  EXPECT_EQ(set.points[1].value("accumulator.capacity"), "64KiB");
  EXPECT_EQ(set.points[2].value("scratchpad.capacity"), "128KiB");
  EXPECT_EQ(set.points[5].overrides(),
            (std::vector<std::string>{"scratchpad.capacity=256KiB", "accumulator.capacity=64KiB"}));
  for (size_t i = 0; i < set.points.size(); ++i) EXPECT_EQ(set.points[i].index, static_cast<int64_t>(i));
}

TEST(SweepSpec, WorkloadOptionListsAreAxesOfTheirOwn) {
  const Spec spec = parse(
      "workloads:\n  - {name: gpt2-small, seq: [128, 512], phase: prefill}\n  - resnet50\n"
      "grid:\n  dataflow: [ws, os]\n");
  const PointSet set = generatePoints(spec);
  // gpt2: 2 seqs x 2 dataflows; resnet50: 2 dataflows.
  ASSERT_EQ(set.points.size(), 6u);
  EXPECT_EQ(set.points[0].value("workload.seq"), "128");
  EXPECT_EQ(set.points[0].value("workload.phase"), "prefill");
  EXPECT_EQ(set.points[3].value("workload.seq"), "512");
  EXPECT_EQ(set.points[4].workload, "resnet50");
  EXPECT_EQ(set.points[4].value("workload.seq"), "");
  EXPECT_TRUE(set.points[4].overrides().empty());  // dataflow is not an accelerator key
}

TEST(SweepSpec, ConstraintsSkipAndDerivedKeysFollow) {
  // Total SRAM fixed at 320 KiB: of 4 x 4 splits only sp + acc = 320 KiB remain:
  // (64, 256), (256, 64) -> 2 points; 14 skipped.
  const Spec spec = parse(
      "workloads: [gpt2-small]\n"
      "grid:\n  scratchpad.capacity: [32KiB, 64KiB, 128KiB, 256KiB]\n"
      "  accumulator.capacity: [32KiB, 64KiB, 128KiB, 256KiB]\n"
      "derived:\n  l2.capacity: 4 * (scratchpad.capacity + accumulator.capacity)\n"
      "constraints:\n  - scratchpad.capacity + accumulator.capacity == 320 KiB\n");
  const PointSet set = generatePoints(spec);
  ASSERT_EQ(set.points.size(), 2u);
  EXPECT_EQ(set.skipped, 14);
  EXPECT_EQ(set.points[0].value("scratchpad.capacity"), "64KiB");
  EXPECT_EQ(set.points[0].value("l2.capacity"), "1310720");  // 4 x 320 KiB
}

TEST(SweepSpec, ListedPointsAndARandomSampleMultiplyTheGrid) {
  const Spec spec = parse(
      "workloads: [gpt2-small]\n"
      "grid:\n  dataflow: [ws, os]\n"
      "list:\n  - {array.rows: 8, array.cols: 8}\n  - {array.rows: 32, array.cols: 32}\n"
      "random:\n  samples: 5\n  seed: 7\n  keys:\n"
      "    dram.bandwidth: {min: 4, max: 64, log: true, integer: true, unit: B/cycle}\n"
      "    scratchpad.capacity: [64KiB, 128KiB]\n");
  const PointSet a = generatePoints(spec);
  ASSERT_EQ(a.points.size(), 20u);  // 2 x 2 x 5
  const PointSet b = generatePoints(spec);
  for (size_t i = 0; i < a.points.size(); ++i) {
    EXPECT_EQ(a.points[i].id, b.points[i].id);  // the seed fixes the sample
    const std::string bw = a.points[i].value("dram.bandwidth");
    const int v = std::stoi(bw);
    EXPECT_GE(v, 4);
    EXPECT_LE(v, 64);
    EXPECT_NE(bw.find(" B/cycle"), std::string::npos);
  }
}

TEST(SweepSpec, ErrorsNameTheLineColumnAndWhatWasExpected) {
  EXPECT_NE(errorOf("workloads: [gpt2]\ngrid:\n  scratchpad.capcity: [1KiB]\n")
                .find("4:3: at 'grid.scratchpad.capcity': 'scratchpad.capcity' is not an "
                      "accelerator parameter"),
            std::string::npos)
      << errorOf("workloads: [gpt2]\ngrid:\n  scratchpad.capcity: [1KiB]\n");
  EXPECT_NE(errorOf("workloads: [gpt2]\ngrid:\n  scratchpad.capcity: [1KiB]\n")
                .find("did you mean 'scratchpad.capacity'"),
            std::string::npos);
  EXPECT_NE(errorOf("workloads: [gpt2]\nmetrics: [cycels]\n").find("did you mean 'cycles'"),
            std::string::npos);
  EXPECT_NE(errorOf("workloads: [gpt2]\nengine: rtl\n").find("unknown engine 'rtl'"), std::string::npos);
  EXPECT_NE(errorOf("workloads: [gpt2]\ngrid:\n  array.rows: []\n").find("expected at least one value"),
            std::string::npos);
  EXPECT_NE(errorOf("workloads:\n  - {name: gpt2, sequence: 5}\n").find("unknown key 'sequence'"),
            std::string::npos);
  EXPECT_NE(errorOf("workloads: [gpt2]\nfoo: 1\n").find("unknown key 'foo'"), std::string::npos);
  try {
    parseSpec("base: no/such/file.yaml\nworkloads: [gpt2]\n", "/tmp/s.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'/tmp/no/such/file.yaml': no such file"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().line, 1);
  }
}

TEST(SweepSpec, AnExpressionOverAKeyNobodySetSaysSo) {
  const Spec spec = parse("workloads: [gpt2]\nconstraints:\n  - l2.capacity > 1\n");
  try {
    generatePoints(spec);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'l2.capacity' is neither set by the point nor written"),
              std::string::npos)
        << e.what();
  }
}

TEST(SweepSpec, TooManyCombinationsAreRefusedBeforeAnyIsBuilt) {
  const Spec spec = parse(
      "workloads: [gpt2]\ngrid:\n  array.rows: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
      "  array.cols: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n");
  EXPECT_THROW(generatePoints(spec, 99), ConfigError);
  EXPECT_EQ(generatePoints(spec, 100).points.size(), 100u);
}

}  // namespace
}  // namespace tessel::sweep

namespace tessel::sweep {
namespace {

TEST(SweepSpec, DesignsAreAKeyOfTheirOwnAndSectionsMayBeSweptOnAndOff) {
  const std::string arch = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/";
  const Spec spec = parseSpec("designs: [" + arch + "gemmini-default.yaml, " + arch +
                                  "gemmini-survey-model.yaml]\n"
                                  "dataflow: ws\nworkloads: [gpt2-small]\n"
                                  "grid:\n  sfu: [null, {ops: [softmax], lanes: 8}]\n",
                              "/tmp/spec.yaml");
  const PointSet set = generatePoints(spec);
  ASSERT_EQ(set.points.size(), 4u);  // 2 designs x SFU off/on
  EXPECT_EQ(set.points[0].value("arch"), "gemmini-default");
  EXPECT_EQ(set.points[2].value("arch"), "gemmini-survey-model");
  EXPECT_EQ(set.points[0].value("dataflow"), "ws");
  EXPECT_EQ(set.points[0].overrides(), std::vector<std::string>{"sfu=null"});
  EXPECT_EQ(set.points[1].overrides(), std::vector<std::string>{"sfu={ops: [softmax], lanes: 8}"});
  EXPECT_EQ(spec.baseOf("gemmini-survey-model").name, "gemmini-survey-model");
  try {
    parseSpec("designs: [" + arch + "gemmini-default.yaml, " + arch + "gemmini-default.yaml]\nworkloads: [gpt2]\n",
              "/tmp/spec.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("two designs are named 'gemmini-default'"), std::string::npos);
  }
}

}  // namespace
}  // namespace tessel::sweep
