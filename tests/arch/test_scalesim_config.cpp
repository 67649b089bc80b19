// SCALE-Sim .cfg -> tessel design (arch/scalesim_config.h): the shipped configs convert to
// designs that load with the right array, capacities, dataflow and bandwidth; bad input is located.
#include "arch/scalesim_config.h"

#include <gtest/gtest.h>

#include <string>

#include "arch/load.h"
#include "util/error.h"

namespace tessel::arch {
namespace {

const std::string kData = std::string(TESSEL_SOURCE_DIR) + "/tests/arch/data/scalesim/";

struct Expect {
  std::string file;
  int rows, cols;
  uint64_t scratchpad_kib, accumulator_kib;
  std::string dataflow;
  double bandwidth;  // B/cycle
};

const StorageLevel& level(const Accelerator& acc, const std::string& name) {
  for (const StorageLevel& l : acc.levels) {
    if (l.name == name) return l;
  }
  ADD_FAILURE() << "no level " << name;
  return acc.levels.front();
}

TEST(ScalesimConfig, ShippedConfigsLoad) {
  const std::vector<Expect> cases = {
      {"v2_scale.cfg", 32, 32, 128, 64, "os", 10},     // CALC: the file's Bandwidth
      {"v2_google.cfg", 256, 256, 12288, 2048, "ws", 10},
      {"v2_eyeriss.cfg", 12, 14, 72, 36, "ws", 10},
      {"v3_scale.cfg", 32, 32, 128, 64, "ws", 10},
      {"v3_google.cfg", 256, 256, 12288, 2048, "os", 10},  // USER
      {"v3_eyeriss.cfg", 12, 14, 72, 36, "ws", 10},
      {"v3_sparsity.cfg", 128, 128, 512, 256, "ws", 50},
      {"v3_tpuv5e_downscale.cfg", 128, 128, 8192, 8192, "ws", 60},  // no final newline
  };
  for (const Expect& e : cases) {
    SCOPED_TRACE(e.file);
    const ScalesimImport imported = importScalesimConfig(kData + e.file);
    EXPECT_FALSE(imported.assumptions.empty());
    EXPECT_NE(imported.yaml.find("# Assumptions"), std::string::npos);
    const Accelerator acc = loadString(imported.yaml, e.file + ".yaml");
    EXPECT_EQ(acc.array.rows, e.rows);
    EXPECT_EQ(acc.array.cols, e.cols);
    ASSERT_EQ(acc.array.dataflows.size(), 1u);
    EXPECT_EQ(acc.array.dataflows[0], e.dataflow);
    // Whole rows of array.cols 1-byte words: a 14-wide array keeps 72 KiB / 14 B = 5,266 rows.
    const uint64_t cols = static_cast<uint64_t>(e.cols);
    EXPECT_EQ(level(acc, "scratchpad").capacity_bytes, e.scratchpad_kib * 1024 / cols * cols);
    EXPECT_EQ(level(acc, "accumulator").capacity_bytes, e.accumulator_kib * 1024 / cols * cols);
    EXPECT_DOUBLE_EQ(level(acc, "dram").bandwidth, e.bandwidth);
  }
}

// SCALE-Sim's ifmap and filter SRAMs are two buffers: the scratchpad's inputs and weights pools,
// each its own size (v2_eyeriss.cfg: 36 KiB each on a 14-wide array, 2,633 whole rows of 14 B).
TEST(ScalesimConfig, TheSramsBecomePools) {
  const Accelerator acc = loadString(importScalesimConfig(kData + "v2_eyeriss.cfg").yaml, "e.yaml");
  const StorageLevel& sp = level(acc, "scratchpad");
  EXPECT_TRUE(sp.partitioned);
  EXPECT_EQ(sp.tensor_capacity[0], 2633u * 14u);
  EXPECT_EQ(sp.tensor_capacity[1], 2633u * 14u);
  EXPECT_EQ(sp.tensor_capacity[2], 0u);
  EXPECT_TRUE(sp.holds.inputs && sp.holds.weights && !sp.holds.outputs);
}

// Every command takes the .cfg as --arch: loadFile imports it, and -p overrides apply to the
// imported design as to any YAML.
TEST(ScalesimConfig, LoadFileTakesTheCfgItself) {
  const Accelerator direct = loadFile(kData + "v2_google.cfg", {"dram.bandwidth=32B/cycle"});
  const Accelerator imported = loadString(importScalesimConfig(kData + "v2_google.cfg").yaml,
                                          "x.yaml", {"dram.bandwidth=32B/cycle"});
  EXPECT_EQ(direct.hash(), imported.hash());
  EXPECT_EQ(direct.array.rows, 256);
  EXPECT_DOUBLE_EQ(level(direct, "dram").bandwidth, 32);
  try {
    loadFile(kData + "v2_google.cfg", {"scratchpad.capacty=1KiB"});
    FAIL() << "an unknown override key loads";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("capacty"), std::string::npos) << e.what();
  }
}

TEST(ScalesimConfig, AssumptionsNameWhatIsIgnored) {
  const ScalesimImport s = importScalesimConfig(kData + "v3_sparsity.cfg");
  std::string all;
  for (const std::string& a : s.assumptions) all += a + "\n";
  for (const char* says : {"clock 1 GHz", "word size 1 byte", "45nm", "unbounded",
                           "SparsitySupport", "USER"}) {
    EXPECT_NE(all.find(says), std::string::npos) << says;
  }
}

// v3's [sparsity]: SparsitySupport with BlockSize 8 runs every n:8 compressed, and SparseRep
// ellpack_block keeps the filters as values with their in-block indices (nm_indices).
TEST(ScalesimConfig, SparsitySupportBecomesTheDesignsSparsity) {
  const Accelerator a = loadFile(kData + "v3_sparsity.cfg");
  ASSERT_EQ(a.sparse.structured.size(), 7u);
  EXPECT_TRUE(a.sparse.accelerates(Sparsity::nm(4, 8), 1));
  EXPECT_TRUE(a.sparse.accelerates(Sparsity::nm(2, 4), 1));  // 2 of 4 fits 4 of 8
  ASSERT_TRUE(a.sparse.accelerates(Sparsity::nm(3, 4), 1));
  EXPECT_EQ(a.sparse.acceleratedAs(Sparsity::nm(3, 4), 1)->n, 6);  // 3 of 4 runs as 6 of 8
  EXPECT_EQ(a.sparse.formatAt(0, 1), SparseFormat::NmIndices);  // DRAM
  // Without it, the same design is dense.
  const Accelerator dense = loadFile(kData + "v3_google.cfg");
  EXPECT_TRUE(dense.sparse.dense());
}

struct Bad {
  std::string cfg;
  int line, column;
  std::string path, says;
};

const char kGood[] =
    "[general]\nrun_name = t\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\n"
    "IfmapSramSzkB: 16\nFilterSramSzkB: 16\nOfmapSramSzkB: 16\nDataflow : ws\nBandwidth : 4\n"
    "[run_presets]\nInterfaceBandwidth: USER\n";

TEST(ScalesimConfig, BadConfigIsLocated) {
  const std::string g = kGood;
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = g;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::vector<Bad> cases = {
      {replace("[run_presets]", "[run_preset]"), 11, 1, "run_preset", "did you mean 'run_presets'"},
      {replace("ArrayWidth", "ArrayWidht"), 5, 1, "architecture_presets.ArrayWidht",
       "did you mean 'ArrayWidth'"},
      {replace("ArrayWidth: 8\n", ""), 3, 1, "architecture_presets.ArrayWidth", "missing"},
      {replace("ArrayHeight: 8", "ArrayHeight: 8x"), 4, 14, "architecture_presets.ArrayHeight",
       "expected an integer"},
      {replace("ArrayHeight: 8", "ArrayHeight: 0"), 4, 14, "architecture_presets.ArrayHeight",
       "between 1"},
      {replace("Dataflow : ws", "Dataflow : wss"), 9, 12, "architecture_presets.Dataflow",
       "did you mean 'ws'"},
      {replace("USER", "USR"), 12, 21, "run_presets.InterfaceBandwidth", "USER, CALC"},
      {replace("Bandwidth : 4\n", ""), 3, 1, "architecture_presets.Bandwidth", "missing"},
      {replace("Bandwidth : 4", "Bandwidth : -4"), 10, 13, "architecture_presets.Bandwidth",
       "between 1"},
      {replace("ArrayWidth: 8", "ArrayWidth 8"), 5, 1, "architecture_presets", "expected 'Key = value'"},
      {"run_name = x\n", 1, 1, "run_name", "before any [section]"},
      {g + "ArrayHeight: 9\n", 13, 1, "run_presets.ArrayHeight", "unknown key"},
      {replace("[run_presets]\n", "[run_presets]\nInterfaceBandwidth: CALC\n"), 13, 1,
       "run_presets.InterfaceBandwidth", "repeats"},
  };
  for (const Bad& b : cases) {
    try {
      convertScalesimConfig(b.cfg, "t.cfg");
      ADD_FAILURE() << "accepted: " << b.cfg;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.where().file, "t.cfg");
      EXPECT_EQ(e.where().line, b.line) << e.what();
      EXPECT_EQ(e.where().column, b.column) << e.what();
      EXPECT_EQ(e.where().yaml_path, b.path) << e.what();
      EXPECT_NE(e.message().find(b.says), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(importScalesimConfig(kData + "missing.cfg"), ConfigError);
  EXPECT_NO_THROW(loadString(convertScalesimConfig(g, "t.cfg").yaml, "t.yaml"));
}

}  // namespace
}  // namespace tessel::arch
