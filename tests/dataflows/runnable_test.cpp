// Which dataflows a design can run: the same rule for a shipped name and for a user's file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "tests/util/error_of.h"

namespace tessel::dataflows {
namespace {

using tessel::testing::errorOf;
using ::testing::HasSubstr;

arch::Accelerator gemmini(const std::vector<std::string>& overrides = {}) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml",
                        overrides);
}

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

const char* const kOsUnderAnotherName =
    "name: my-os\nstationary: outputs\nspatial: {rows: m, cols: n}\nstream: k\n"
    "arrays: [systolic]\n";

TEST(DataflowRunnable, AFileIsHeldToTheRuleANameIs) {
  const auto ws_only = gemmini({"array.dataflows=[ws]"});
  // By name and by file, the output-stationary shape is refused on a WS-only array...
  EXPECT_THAT(errorOf([&] { checkRunnable(loadDataflow("os"), ws_only); }),
              HasSubstr("does not support dataflow 'os'"));
  const std::string file = writeTemp("my-os.yaml", kOsUnderAnotherName);
  EXPECT_THAT(errorOf([&] { checkRunnable(loadDataflow(file), ws_only); }),
              HasSubstr("does not support dataflow 'my-os' (" + file +
                        "), outputs stationary, rows=m cols=n stream=k; its array.dataflows "
                        "run ws: weights stationary"));
  // ...and accepted, under any name, where the array lists OS.
  EXPECT_NO_THROW(checkRunnable(loadDataflow(file), gemmini()));
}

TEST(DataflowRunnable, TheArraysListIsEnforced) {
  const std::string file = writeTemp(
      "spatial-ws.yaml",
      "name: ws\nstationary: weights\nspatial: {rows: k, cols: n}\nstream: m\narrays: [spatial]\n");
  EXPECT_THAT(errorOf([&] { checkRunnable(loadDataflow(file), gemmini()); }),
              HasSubstr("runs on spatial arrays (its 'arrays:' list); accelerator "
                        "'gemmini-default' has a systolic array"));
}

arch::Accelerator spatial(const std::string& name) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml");
}

TEST(DataflowRunnable, ASpatialArrayRunsWhatItListsAndItsPadsCanKeep) {
  // Eyeriss-like lists all five, and its scratch pads hold every tensor.
  for (const char* df : {"ws", "os", "is", "rs", "nlr"}) {
    EXPECT_NO_THROW(checkRunnable(loadDataflow(df), spatial("eyeriss-like"))) << df;
  }
  // ShiDianNao-like lists os and nlr only...
  const auto sdn = spatial("shidiannao-like");
  EXPECT_NO_THROW(checkRunnable(loadDataflow("os"), sdn));
  EXPECT_THAT(errorOf([&] { checkRunnable(loadDataflow("rs"), sdn); }),
              HasSubstr("its array.dataflows lists os, nlr, and none allows the same loop nest"));
  // ...and a user's copy of OS under another name runs, as the nest is the same.
  const std::string os_copy = writeTemp(
      "spatial-os.yaml",
      "name: my-os\narrays: [spatial]\nnest: {rows: [P, Q, N], cols: [K], pe_keeps: [outputs], "
      "pe_loops: [C, R, S]}\n");
  EXPECT_NO_THROW(checkRunnable(loadDataflow(os_copy), sdn));
  // Listing WS does not give the PEs a weight pad: refused with the reason.
  const auto listed = arch::loadFile(std::string(TESSEL_SOURCE_DIR) +
                                         "/configs/arch/shidiannao-like.yaml",
                                     {"array.dataflows=[os, ws]"});
  EXPECT_THAT(errorOf([&] { checkRunnable(loadDataflow("ws"), listed); }),
              HasSubstr("keeps weights in the PEs, but accelerator 'shidiannao-like' has no "
                        "register file for them (array.register_file)"));
}

TEST(DataflowRunnable, PathsAreNamedAsPaths) {
  EXPECT_THAT(errorOf([] { loadDataflow(TESSEL_SOURCE_DIR); }),
              HasSubstr("is a directory, expected a YAML file"));
  EXPECT_THAT(errorOf([] { loadDataflow("mine.yml"); }), HasSubstr("mine.yml: no such file"));
  EXPECT_THAT(errorOf([] { loadDataflow("mine.json"); }), HasSubstr("mine.json: no such file"));
}

}  // namespace
}  // namespace tessel::dataflows
