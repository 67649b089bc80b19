// Timeloop map.yaml mappings: a hand-written file reads to the factors, orders and keeps it
// spells out; what the mappers choose writes and reads back unchanged, fan-outs included; every
// mistake is located; and `tessel run --mapping` takes the form, pinning a lone op unnamed.
#include "dataflows/timeloop_map.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arch/load.h"
#include "dataflows/mapper.h"
#include "dataflows/pinned_mapping.h"
#include "dataflows/plan.h"
#include "models/workload.h"
#include "tests/dataflows/nest_fixtures.h"
#include "util/error.h"

namespace tessel {
namespace {

using namespace testing;
using dataflows::nest::Problem;

const arch::Accelerator& shipped(const std::string& name) {
  static std::map<std::string, arch::Accelerator> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    const std::string path = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml";
    it = cache.emplace(name, arch::loadFile(path)).first;
  }
  return it->second;
}

Mapping readText(const std::string& text, const Problem& p, const Hardware& hw) {
  const yaml::Document doc = yaml::Document::fromString(text, "map.yaml");
  yaml::MapReader top(doc.root());
  Mapping m = dataflows::readTimeloopMapping(top, p, hw);
  top.finish();
  return m;
}

std::vector<Dim> orderOf(const Mapping& m, size_t level) {
  return {m.levels[level].order.begin(), m.levels[level].order.end()};
}

void expectSame(const Mapping& a, const Mapping& b) {
  ASSERT_EQ(a.levels.size(), b.levels.size());
  for (size_t l = 0; l < a.levels.size(); ++l) {
    EXPECT_EQ(a.levels[l].factor, b.levels[l].factor) << "level " << l;
    EXPECT_EQ(orderOf(a, l), orderOf(b, l)) << "level " << l;
    EXPECT_EQ(a.levels[l].keeps, b.levels[l].keeps) << "level " << l;
    EXPECT_EQ(a.levels[l].spatial, b.levels[l].spatial) << "level " << l;
  }
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.double_buffered, b.double_buffered);
  EXPECT_EQ(a.reload, b.reload);
}

// conv:H=14,W=14,C=8,K=16,R=3,S=3,pad=1: N=1 K=16 C=8 P=Q=14 R=S=3.
Problem conv() {
  Problem p;
  p.extent =
      dims({{Dim::K, 16}, {Dim::C, 8}, {Dim::P, 14}, {Dim::Q, 14}, {Dim::R, 3}, {Dim::S, 3}});
  p.input_h = p.input_w = 14;
  return p;
}

// Line numbers matter: the error tests point into this text.
const std::string kConvMap = R"(mapping:
  - target: DRAM
    type: temporal
    factors: R=1 S=1 P=1 Q=1 C=2 M=2 N=1
    permutation: RSPQNCM
  - target: GlobalBuffer
    type: temporal
    factors: R=1 S=1 P=7 Q=14 C=1 M=1 N=1
    permutation: QPRSCMN
  - target: GlobalBuffer
    type: spatial
    factors: R=3 S=1 P=2 Q=1 C=4 M=2 N=1
    permutation: RCPMSQN
    split: 2
  - target: PEWeightRegs
    type: temporal
    factors: R=1 S=3 P=1 Q=1 C=1 M=4 N=1
    permutation: SMRPQCN
  - target: PEWeightRegs
    type: datatype
    keep: [Weights, Inputs]
    bypass: [Outputs]
  - target: DRAM
    type: bypass
    keep: [Weights, Inputs, Outputs]
targets: {DRAM: dram, GlobalBuffer: global_buffer, PEWeightRegs: pe}
)";

TEST(TimeloopMap, AHandWrittenConvMappingReadsAsWritten) {
  const Hardware hw = dataflows::nest::hardwareOf(shipped("eyeriss-like"));
  ASSERT_EQ(hw.levels.size(), 3u);
  const Mapping m = readText(kConvMap, conv(), hw);
  // Permutations are innermost first: DRAM's "...CM" runs M (tessel's K) outside C.
  EXPECT_EQ(m.levels[0].factor, dims({{Dim::C, 2}, {Dim::K, 2}}));
  EXPECT_EQ(orderOf(m, 0), (std::vector<Dim>{Dim::K, Dim::C}));
  EXPECT_EQ(m.levels[1].factor, dims({{Dim::P, 7}, {Dim::Q, 14}}));
  EXPECT_EQ(orderOf(m, 1), (std::vector<Dim>{Dim::P, Dim::Q}));
  EXPECT_EQ(m.levels[2].factor, dims({{Dim::S, 3}, {Dim::K, 4}}));
  EXPECT_EQ(orderOf(m, 2), (std::vector<Dim>{Dim::K, Dim::S}));
  // split 2: R and C across the 12 rows (X), P and M across the 14 columns (Y).
  EXPECT_EQ(m.rows, dims({{Dim::R, 3}, {Dim::C, 4}}));
  EXPECT_EQ(m.cols, dims({{Dim::P, 2}, {Dim::K, 2}}));
  EXPECT_EQ(m.levels[2].keeps, (std::array<bool, 3>{true, true, false}));
  EXPECT_EQ(m.levels[0].keeps, (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(m.levels[1].keeps, (std::array<bool, 3>{true, true, true}));  // what it can hold
  EXPECT_TRUE(m.double_buffered);
  EXPECT_EQ(dataflows::nest::checkShape(m, conv(), hw), "");
}

TEST(TimeloopMap, DramFactorsLeftOutCoverTheRest) {
  const Hardware hw = dataflows::nest::hardwareOf(shipped("eyeriss-like"));
  std::string text = kConvMap;
  text.replace(text.find("    factors: R=1 S=1 P=1 Q=1 C=2 M=2 N=1\n"), 41, "    factors: C=2\n");
  const Mapping m = readText(text, conv(), hw);
  EXPECT_EQ(m.levels[0].factor, dims({{Dim::C, 2}, {Dim::K, 2}}));
  EXPECT_EQ(orderOf(m, 0), (std::vector<Dim>{Dim::K, Dim::C}));
}

// The first GEMM-like op of the workload (with `grouped`, the first with groups) as mapped.
dataflows::Mapping mapped(const std::string& arch, const std::string& workload,
                          const std::string& dataflow, DType dtype,
                          const std::string& mapper = "search", bool grouped = false) {
  models::WorkloadOptions o;
  o.dtype = dtype;
  o.seq = 64;
  if (workload == "gpt2") o.layers = 1;
  const models::Graph g = models::build(workload, o);
  dataflows::MapperOptions mo;
  mo.budget = 1500;
  for (const models::Op& op : g.ops()) {
    if (!op.isGemmLike()) continue;
    const dataflows::Problem problem = dataflows::problemOf(op, g);
    if (grouped && problem.loops.of(Dim::G) == 1) continue;
    const dataflows::MapResult r =
        dataflows::makeMapper(mapper, mo)
            ->map(problem, shipped(arch), dataflows::loadDataflow(dataflow), {});
    EXPECT_TRUE(r.ok && r.mapping.has_nest) << r.reason;
    return r.mapping;
  }
  ADD_FAILURE() << "no GEMM-like op in " << workload;
  return {};
}

TEST(TimeloopMap, WhatTheMappersChooseRoundTrips) {
  const std::string conv14 = "conv:H=14,W=14,C=8,K=16,R=3,S=3,pad=1";
  const std::vector<dataflows::Mapping> all{
      mapped("eyeriss-like", conv14, "rs", DType::Int16),
      mapped("eyeriss-like", conv14, "ws", DType::Int16),
      mapped("eyeriss-like", "conv:H=28,W=28,C=32,K=64,R=3,S=3,stride=2,pad=1", "os", DType::Int16),
      mapped("gemmini-default", "gemm:M=512,K=768,N=768", "ws", DType::Int8),
      mapped("gemmini-default", "gpt2", "os", DType::Int8, "search", true),
      mapped("gemmini-default", "conv:H=28,W=28,C=64,K=64,R=3,S=3,pad=1", "ws", DType::Int8),
      mapped("gemmini-default", "gemm:M=512,K=768,N=768", "ws", DType::Int8, "gemmini-auto"),
      mapped("shidiannao-like", conv14, "os", DType::Int16),
  };
  for (const dataflows::Mapping& m : all) {
    ASSERT_TRUE(m.hw);
    SCOPED_TRACE(m.loops.describe() + " " + m.dataflow + " " + m.mapper);
    const std::string text = dataflows::writeTimeloopMapping(m.nest, m.loops, *m.hw);
    SCOPED_TRACE(text);
    expectSame(readText(text, m.loops, *m.hw), m.nest);
  }
  // gemmini-auto's reloads and attention's heads (G) are in the set.
  EXPECT_NE(dataflows::writeTimeloopMapping(all[6].nest, all[6].loops, *all[6].hw).find("reload:"),
            std::string::npos);
  EXPECT_NE(dataflows::writeTimeloopMapping(all[4].nest, all[4].loops, *all[4].hw).find(" G="),
            std::string::npos);
}

TEST(TimeloopMap, FanoutSpatialFactorsRoundTrip) {
  const dataflows::Mapping base =
      mapped("eyeriss-like", "conv:H=14,W=14,C=8,K=16,R=3,S=3,pad=1", "rs", DType::Int16);
  Hardware hw = *base.hw;
  hw.levels[0].fanout = 4;  // four copies of the global buffer and its array
  hw.levels[1].fanout = 4;  // four arrays under each global buffer
  Mapping m = base.nest;
  m.levels[0].spatial[at(Dim::K)] = 2;
  m.levels[0].spatial[at(Dim::Q)] = 2;
  m.levels[1].spatial[at(Dim::P)] = 2;
  const std::string text = dataflows::writeTimeloopMapping(m, base.loops, hw);
  SCOPED_TRACE(text);
  EXPECT_NE(text.find("fanout: true"), std::string::npos);
  expectSame(readText(text, base.loops, hw), m);
}

void expectError(const std::string& text, const Hardware& hw, const std::string& where,
                 const std::string& what) {
  try {
    readText(text, conv(), hw);
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("map.yaml:" + where + ":"), std::string::npos) << where << " in " << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << what << " in " << msg;
  }
}

std::string edited(const std::string& from, const std::string& to, size_t nth = 0) {
  std::string t = kConvMap;
  size_t at = t.find(from);
  for (size_t i = 0; i < nth; ++i) at = t.find(from, at + 1);
  return t.replace(at, from.size(), to);
}

TEST(TimeloopMap, MistakesAreLocated) {
  const Hardware hw = dataflows::nest::hardwareOf(shipped("eyeriss-like"));
  expectError(
      edited("target: GlobalBuffer", "target: GlobalBufer"), hw, "6:13",
      "no level 'GlobalBufer' (levels: dram, global_buffer, pe); did you mean 'GlobalBuffer'?");
  expectError(
      edited("C=2 M=2", "C=2 K=2"), hw, "4:14",
      "'K' is not a Timeloop dim (dims: R S P Q C M N G); Timeloop names the output channels M");
  expectError(edited("C=2 M=2", "C=2 X=2"), hw, "4:14", "'X' is not a Timeloop dim");
  expectError(edited("P=7", "P=0"), hw, "8:14", "a factor must be at least 1, got P=0");
  expectError(edited("P=7", "P=-1"), hw, "8:14", "a factor must be at least 1, got P=-1");
  expectError(edited("RCPMSQN", "RCPMSQR"), hw, "13:18", "R is listed twice in the permutation");
  expectError(edited("target: GlobalBuffer", "target: DRAM", 1), hw, "10:5",
              "level 'dram' has no fan-out");
  expectError(edited("C=4 M=2", "C=8 M=2"), hw, "10:5",
              "spatial factors 24 (X) x 4 (Y) exceed the 12x14 array");
  expectError(edited("split: 2", "split: 1"), hw, "10:5",
              "spatial factors 3 (X) x 16 (Y) exceed the 12x14 array");
  expectError(edited("type: temporal", "type: temporl"), hw, "3:11", "did you mean 'temporal'?");
  expectError(edited("[Weights, Inputs]", "[Weight, Inputs]"), hw, "21:12",
              "did you mean 'Weights'?");
  expectError(edited("Inputs, Outputs]", "Inputs, Inputs]"), hw, "25:29", "twice at this level");
  expectError(edited("pe}", "pe, x: pf}"), hw, "26:73", "no level 'pf'");
  expectError(edited("    type: datatype\n", "    type: temporal\n"), hw, "19:5",
              "a second temporal entry for this level (the first is at map.yaml:15:5)");
  expectError(edited("permutation: SMRPQCN", "permutation: SRPQCN"), hw, "18:18",
              "the permutation leaves out M, whose factor is 4");
  expectError(edited("    permutation: RSPQNCM\n", "    permutaton: RSPQNCM\n"), hw, "5:5",
              "unknown key 'permutaton'");
}

TEST(TimeloopMap, SpatialFactorsBeyondALevelsFanoutAreLocated) {
  Hardware hw = dataflows::nest::hardwareOf(shipped("eyeriss-like"));
  hw.levels[0].fanout = 4;
  std::string t = kConvMap;
  t.insert(t.find("targets:"), "  - {target: DRAM, type: spatial, factors: M=8, permutation: M}\n");
  expectError(t, hw, "26:5", "spatial factors 8 exceed the fan-out of 4 below 'dram'");
}

std::string writeTemp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("tessel_tlmap_" + name + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

std::vector<dataflows::OpPlan> planWith(const models::Graph& g, const std::string& text,
                                        const std::string& name,
                                        const arch::Accelerator& acc = shipped("eyeriss-like")) {
  dataflows::PlanOptions o;
  o.mapper = "search";
  o.mapper_options.budget = 1500;
  o.pinned = dataflows::loadPinnedMapping(writeTemp(name, text));
  return dataflows::plan(g, acc, dataflows::loadDataflow("rs"), o);
}

models::Graph conv14() {
  models::WorkloadOptions o;
  o.dtype = DType::Int16;
  return models::build("conv:H=14,W=14,C=8,K=16,R=3,S=3,pad=1", o);
}

TEST(TimeloopMap, RunPinsTheLoneOpAndEmitsWhatItRead) {
  const models::Graph g = conv14();
  const auto plans = planWith(g, kConvMap, "lone");
  const dataflows::OpPlan* conv_plan = nullptr;
  for (const auto& p : plans) {
    if (p.mapping.has_nest) conv_plan = &p;
  }
  ASSERT_NE(conv_plan, nullptr);
  EXPECT_EQ(conv_plan->mapping.mapper, "pinned");
  const Hardware hw = dataflows::nest::hardwareOf(shipped("eyeriss-like"));
  expectSame(conv_plan->mapping.nest, readText(kConvMap, conv(), hw));
  // The emitted document names the op first and reads back to the same mapping.
  const std::string doc = dataflows::timeloopDocuments(plans);
  EXPECT_EQ(doc.rfind("op: " + conv_plan->op->name + "\nmapping:\n", 0), 0u) << doc;
  expectSame(planWith(g, doc, "emitted").at(size_t(conv_plan->op->id)).mapping.nest,
             conv_plan->mapping.nest);
}

// A check made after reading (the mapping's shape against the op) speaks Timeloop's dim names,
// not tessel's (M, not K), and points at the entry to blame, not at the whole list.
TEST(TimeloopMap, ChecksAfterReadingSpeakTimeloopAndPointAtTheEntry) {
  const models::Graph g = conv14();
  try {
    planWith(g, edited("C=2 M=2", "C=2 M=1"), "cover");
    FAIL() << "a mapping that leaves half of M out was accepted";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("tessel_tlmap_cover.yaml:2:5:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("the factors of M cover 8 of its 16"), std::string::npos) << msg;
    EXPECT_NE(msg.find(" M=16 "), std::string::npos) << msg;  // the op, in Timeloop's names
    EXPECT_EQ(msg.find("K="), std::string::npos) << msg;
  }
}

// tessel's own form spreads loops over a level's fan-out with `parallel:`.
const char* kParallel = R"(spatial: {rows: {R: 3, C: 4}, cols: {P: 2, K: 2}}
levels:
  pe: {factors: {S: 3, K: 4}, order: [K, S], keeps: [inputs, weights]}
  global_buffer: {factors: {P: 7, Q: 7}, order: [P, Q], parallel: {Q: 2}}
  dram: {factors: {C: 2, K: 2}, order: [K, C]}
)";

TEST(TimeloopMap, TesselsFormTakesParallelFactorsOnAFanout) {
  const std::string path = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/eyeriss-like.yaml";
  const arch::Accelerator four = arch::loadFile(path, {"global_buffer.fanout={instances: 4}"});
  const models::Graph g = conv14();
  const auto plans = planWith(g, kParallel, "parallel", four);
  bool found = false;
  for (const auto& p : plans) {
    if (!p.mapping.has_nest) continue;
    found = true;
    EXPECT_EQ(p.mapping.nest.levels[1].spatial, dims({{Dim::Q, 2}}));
    EXPECT_EQ(p.mapping.nest.levels[1].factor, dims({{Dim::P, 7}, {Dim::Q, 7}}));
  }
  EXPECT_TRUE(found);
  try {
    planWith(g, kParallel, "no_fanout");
    FAIL() << "parallel factors accepted without a fan-out";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(":4:57:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("level 'global_buffer' has no fan-out"), std::string::npos)
        << e.what();
  }
  std::string beyond = kParallel;
  beyond.replace(beyond.find("{Q: 2}"), 6, "{Q: 7}");
  try {
    planWith(g, beyond, "beyond", four);
    FAIL() << "parallel factors beyond the fan-out accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("parallel factors 7 exceed the fan-out of 4"),
              std::string::npos)
        << e.what();
  }
}

TEST(TimeloopMap, AnUnnamedPinNeedsALoneOp) {
  models::WorkloadOptions o;
  o.dtype = DType::Int16;
  o.image = 32;
  const models::Graph g = models::build("resnet50", o);
  try {
    planWith(g, kConvMap, "many");
    FAIL() << "an unnamed pin was accepted for resnet50";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(":1:1:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("names no op and the workload has"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessel
