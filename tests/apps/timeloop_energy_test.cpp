// Golden energies from another model: Timeloop's tutorial exercises (the designs and maps of
// tests/dataflows/data/timeloop/, as timeloop_reference_test.cpp runs them), given Accelergy's
// per-access energies explicitly, reproduce Timeloop's energy per level and tensor, its MAC
// energy and its total; the one difference, the read of every partial sum a level drains to its
// parent, is checked to the picojoule too.
//
// Reference numbers: Accelergy-Project/timeloop-accelergy-exercises,
// workspace/tutorial_exercises/01_accelergy_timeloop_2020_ispass/timeloop/<exercise>/ref-output/
// <variant>/ at commit 2ffec693ced8e60a46c1131e9e4a387ac007d410 (unchanged through
// 2d5510807128e9bd5f1cad0705cdf2ec4612fd4e):
// - timeloop-model.stats.txt: per level and tensor "Energy (total)", the MACC's "Energy (total)",
//   "Leakage energy (total)" and "Block size" per level, and the summary's "Computes" and
//   fJ/Compute per level. Printed with two decimals: a check against these allows 0.005 pJ (each
//   fJ/Compute line 0.005 fJ per compute).
// - timeloop-model.map+stats.xml, the same run serialized: the `<energy>` items (per instance,
//   Weights, Inputs, Outputs) and the MACC's `<energy_>` in full precision, checked to 1e-9.
// - timeloop-model.ERT.yaml, Accelergy's energy reference table: pJ per action on one vector of
//   `Block size` words. Every variant's table has the same three storage classes:
//     regfile 64 x 8 (Buffer, RegisterFile): read, write and update 0.42564 (lines 54-64 of
//       03-model-conv1d+oc-3level/ref-output/bypass/timeloop-model.ERT.yaml), block 1;
//     SRAM 32768 x 64 (MainMemory of 01-02, GlobalBuffer of 03-04): read 43.353054, write and
//       update 30.878292 (lines 32-42 there), block 8 -- reads and writes priced differently;
//     DRAM width 256 (MainMemory of 03-04): read, write and update 2048.0 (lines 10-20), block 32;
//   and the intmac's compute 0.845 pJ (line 76). Every buffer's word (datawidth) is 8 bits, as in
//   tessel's designs (accum_dtype int8), so a word is a byte and pJ per word is pJ/B.
//
// Energy accounting of Timeloop, as the numbers show: each instance pays ceil(n / block) vector
// accesses for the n scalar reads of a tensor, and as many for its fills and for its updates
// (01's MainMemory: 18 input reads are 3 vectors, 130.059162 pJ; 04 cp's GlobalBuffer: 36 input
// fills are 5 vectors). Networks, address generation and temporal reduction cost nothing in these
// exercises (every such energy in the XML is 0), and leakage is a separate per-cycle charge that
// the summary's fJ/Compute includes but "Energy (total)" does not.
//
// tessel prices bytes, not vectors, so each exercise gets per-tensor energies that fold the
// rounding in: read_energy = read x ceil(reads / block) / reads, write_energy likewise over fills
// and updates -- Timeloop's "Energy (per-scalar-access)" when a tensor has only one kind of access
// (14.45 = 43.353054 / 3 for 01's three weight reads), split into read and write where an SRAM
// level both reads and writes a tensor (03's and 04's GlobalBuffer). Leakage, NoC and fan-out
// energies are 0.
//
// The difference: tessel charges a level one read for every partial sum it sends up to its
// parent (`reads - timeloop_reads`, reports/SCHEMA.md); Timeloop counts only the reads of
// read-modify-write accumulation (its "Scalar reads" of outputs), so the drain costs the child
// nothing (the parent's update it becomes is charged by both). So for outputs below their
// outermost level tessel's energy is Timeloop's plus those drained words at the level's output
// read energy; everything else is Timeloop's to 1e-9.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace {

using Json = nlohmann::json;
using tessel::testing::runTessel;
using tessel::testing::slurp;

constexpr double kRel = 1e-9;       // against the XML's full-precision numbers
constexpr double kPrinted = 0.005;  // against stats.txt's two decimals (pJ, or fJ per compute)

// One component class of Accelergy's ERT: pJ per action on one vector of `block` words.
struct Ert {
  double read, write;  // write also prices updates (equal in every table here)
  int64_t block;
};
constexpr Ert kRegfile{0.42564, 0.42564, 1};
constexpr Ert kSram{43.353054, 30.878292, 8};
constexpr Ert kDram{2048.0, 2048.0, 32};
constexpr double kMacPj = 0.845;

// One Timeloop storage level: the tessel level it is, its ERT, and the summary's numbers.
struct Level {
  std::string tessel;
  Ert ert;
  double summary_fj;  // fJ/Compute, leakage included
  int summary_line;
  double leakage_pj;  // "Leakage energy (total)"
  int leakage_line;
};

// One Timeloop level's tensor.
struct Row {
  std::string level;  // tessel's
  std::string tensor;
  int64_t instances;
  int64_t reads, fills, updates;  // Timeloop's per instance (timeloop_reference_test.cpp)
  double total_pj;                // stats.txt "Energy (total)", two decimals
  int total_line;
  double per_instance_pj;  // map+stats.xml `<energy>` item, full precision
  int xml_line;
};

struct Case {
  std::string name, exercise, ref, map, workload, dataflow;  // ref: ref-output/<variant>
  int64_t computes;                                          // stats.txt "Computes = "
  double mac_pj;      // MACC "Energy (total)", stats.txt line 18 in every variant
  double mac_xml_pj;  // MACC `<energy_>`, map+stats.xml line 29 in every variant
  double total_fj;    // summary "Total" fJ/Compute
  int total_line;
  std::vector<Level> levels;
  std::vector<Row> rows;  // every level and tensor Timeloop lists
};

const char* const kConv1d = "conv:H=1,W=18,C=1,K=1,R=1,S=3";
const char* const kConv1dOc = "conv:H=1,W=18,C=1,K=32,R=1,S=3";
const char* const kConv1dOcIc = "conv:H=1,W=18,C=32,K=32,R=1,S=3";

// Rows cite stats.txt's "Energy (total)" line and the XML's `<energy>` item line; the counts are
// the three lines after "Utilized capacity" above them.
std::vector<Case> cases() {
  // Exercises 01 (os and ws alike) and 02: Buffer is the global buffer, MainMemory dram.
  const auto ex01 = [](const std::string& name, const std::string& ref, const std::string& map) {
    return Case{
        name,
        "01-model-conv1d-2level",
        ref,
        map,
        kConv1d,
        "nlr",
        48,
        40.56,
        4.05600000000000023e+01,
        7500.08,
        270,
        {{"dram", kSram, 4907.32, 269, 0.38, 152},
         {"global_buffer", kRegfile, 1747.76, 268, 0.04, 44}},
        {{"global_buffer", "weight", 1, 48, 3, 0, 21.71, 68, 2.17076400000000014e+01, 447},
         {"global_buffer", "input", 1, 48, 18, 0, 28.09, 92, 2.80922400000000003e+01, 448},
         {"global_buffer", "output", 1, 32, 0, 48, 34.05, 116, 3.40512000000000015e+01, 449},
         {"dram", "weight", 1, 3, 0, 0, 43.35, 176, 4.33530540000000002e+01, 899},
         {"dram", "input", 1, 18, 0, 0, 130.06, 200, 1.30059162000000015e+02, 900},
         {"dram", "output", 1, 0, 0, 16, 61.76, 224, 6.17565839999999966e+01, 901}}};
  };
  return {
      {"Ex00OneLevel",
       "00-model-conv1d-1level",
       "ref-output",
       "map.yaml",
       kConv1d,
       "nlr",
       48,
       40.56,
       4.05600000000000023e+01,
       2406.54,
       159,
       {{"dram", kRegfile, 1561.54, 158, 0.04, 44}},
       {{"dram", "weight", 1, 48, 0, 0, 20.43, 69, 2.04307200000000009e+01, 454},
        {"dram", "input", 1, 48, 0, 0, 20.43, 93, 2.04307200000000009e+01, 455},
        {"dram", "output", 1, 32, 0, 48, 34.05, 117, 3.40512000000000015e+01, 456}}},
      ex01("Ex01TwoLevelOs", "ref-output/os", "os.map.yaml"),
      ex01("Ex01TwoLevelWs", "ref-output/ws", "ws.map.yaml"),
      {"Ex02NoTiling",
       "02-model-conv1d+oc-2level",
       "ref-output/no-tiling",
       "no-tiling.map.yaml",
       kConv1dOc,
       "nlr",
       1536,
       1297.92,
       1.29792000000000007e+03,
       6258.20,
       271,
       {{"dram", kSram, 3665.44, 270, 12.24, 152},
        {"global_buffer", kRegfile, 1747.76, 269, 1.32, 44}},
       {{"global_buffer", "weight", 1, 1536, 96, 0, 694.64, 68, 6.94644480000000044e+02, 447},
        {"global_buffer", "input", 1, 1536, 576, 0, 898.95, 92, 8.98951680000000010e+02, 448},
        {"global_buffer", "output", 1, 1024, 0, 1536, 1089.64, 116, 1.08963840000000005e+03, 449},
        {"dram", "weight", 1, 96, 0, 0, 520.24, 177, 5.20236648000000059e+02, 906},
        {"dram", "input", 1, 576, 0, 0, 3121.42, 201, 3.12141988799999990e+03, 907},
        {"dram", "output", 1, 0, 0, 512, 1976.21, 225, 1.97621068799999989e+03, 908}}},
      {"Ex02Tiling",
       "02-model-conv1d+oc-2level",
       "ref-output/tiling",
       "tiling.map.yaml",
       kConv1dOc,
       "nlr",
       1536,
       1297.92,
       1.29792000000000007e+03,
       5162.30,
       272,
       {{"dram", kSram, 2649.35, 271, 12.24, 153},
        {"global_buffer", kRegfile, 1667.95, 270, 1.32, 44}},
       {{"global_buffer", "weight", 1, 1536, 96, 0, 694.64, 69, 6.94644480000000044e+02, 454},
        {"global_buffer", "input", 1, 1536, 288, 0, 776.37, 93, 7.76367360000000076e+02, 455},
        {"global_buffer", "output", 1, 1024, 0, 1536, 1089.64, 117, 1.08963840000000005e+03, 456},
        {"dram", "weight", 1, 96, 0, 0, 520.24, 178, 5.20236648000000059e+02, 913},
        {"dram", "input", 1, 288, 0, 0, 1560.71, 202, 1.56070994399999995e+03, 914},
        {"dram", "output", 1, 0, 0, 512, 1976.21, 226, 1.97621068799999989e+03, 915}}},
      // The GlobalBuffer (SRAM) reads and fills weights and inputs: read and write energies differ.
      {"Ex03Bypass",
       "03-model-conv1d+oc-3level",
       "ref-output/bypass",
       "bypass.map.yaml",
       kConv1dOc,
       "rs",
       1536,
       1297.92,
       1.29792000000000007e+03,
       39369.71,
       311,
       {{"dram", kDram, 26666.67, 310, 0.00, 190},
        {"global_buffer", kSram, 11147.78, 309, 12.24, 105},
        {"pe", kRegfile, 710.26, 308, 1.32, 44}},
       {{"pe", "output", 1, 1024, 0, 1536, 1089.64, 69, 1.08963840000000005e+03, 456},
        {"global_buffer", "weight", 1, 1536, 96, 0, 8694.33, 130, 8.69432587200000125e+03, 913},
        {"global_buffer", "input", 1, 1536, 18, 0, 8416.42, 154, 8.41642124400000102e+03, 914},
        {"dram", "weight", 1, 96, 0, 0, 6144.00, 213, 6.14400000000000000e+03, 1363},
        {"dram", "input", 1, 18, 0, 0, 2048.00, 237, 2.04800000000000000e+03, 1364},
        {"dram", "output", 1, 0, 0, 512, 32768.00, 261, 3.27680000000000000e+04, 1365}}},
      {"Ex03NoBypass",
       "03-model-conv1d+oc-3level",
       "ref-output/no-bypass",
       "no-bypass.map.yaml",
       kConv1dOc,
       "rs",
       1536,
       1297.92,
       1.29792000000000007e+03,
       32130.51,
       383,
       {{"dram", kDram, 26666.67, 382, 0.00, 262},
        {"global_buffer", kSram, 2950.90, 381, 12.24, 153},
        {"pe", kRegfile, 1667.95, 380, 1.32, 44}},
       {{"pe", "weight", 1, 1536, 96, 0, 694.64, 69, 6.94644480000000044e+02, 454},
        {"pe", "input", 1, 1536, 288, 0, 776.37, 93, 7.76367360000000076e+02, 455},
        {"pe", "output", 1, 1024, 0, 1536, 1089.64, 117, 1.08963840000000005e+03, 456},
        {"global_buffer", "weight", 1, 96, 96, 0, 890.78, 178, 8.90776152000000025e+02, 913},
        {"global_buffer", "input", 1, 288, 18, 0, 1653.34, 202, 1.65334482000000003e+03, 914},
        {"global_buffer", "output", 1, 0, 0, 512, 1976.21, 226, 1.97621068799999989e+03, 915},
        {"dram", "weight", 1, 96, 0, 0, 6144.00, 285, 6.14400000000000000e+03, 1363},
        {"dram", "input", 1, 18, 0, 0, 2048.00, 309, 2.04800000000000000e+03, 1364},
        {"dram", "output", 1, 0, 0, 512, 32768.00, 333, 3.27680000000000000e+04, 1365}}},
      // 16 PEs, each with its GlobalBuffer (tessel's cluster buffer) and RegisterFile.
      {"Ex04ChannelsAcrossPes",
       "04-model-conv1d+oc-3levelspatial",
       "ref-output/cp",
       "cp.map.yaml",
       kConv1dOcIc,
       "rs",
       49152,
       41533.44,
       4.15334400000000023e+04,
       13011.43,
       384,
       {{"dram", kDram, 5416.67, 383, 0.00, 262},
        {"cluster_buffer", kSram, 4860.12, 382, 391.84, 152},
        {"pe", kRegfile, 1889.64, 381, 42.32, 44}},
       {{"pe", "weight", 16, 3072, 192, 0, 22228.62, 68, 1.38928896000000009e+03, 447},
        {"pe", "input", 16, 3072, 1152, 0, 28766.45, 92, 1.79790336000000002e+03, 448},
        {"pe", "output", 16, 2560, 512, 3072, 41842.11, 116, 2.61513216000000011e+03, 449},
        {"cluster_buffer", "weight", 16, 192, 192, 0, 28504.84, 178, 1.78155230400000005e+03, 913},
        {"cluster_buffer", "input", 16, 1152, 36, 0, 102355.70, 202, 6.39723123599999963e+03, 914},
        {"cluster_buffer", "output", 16, 512, 0, 1024, 107632.27, 226, 6.72701683199999934e+03,
         915},
        {"dram", "weight", 1, 3072, 0, 0, 196608.00, 285, 1.96608000000000000e+05, 1822},
        {"dram", "input", 1, 576, 0, 0, 36864.00, 309, 3.68640000000000000e+04, 1823},
        {"dram", "output", 1, 0, 0, 512, 32768.00, 333, 3.27680000000000000e+04, 1824}}},
      {"Ex04OutputChannelsAcrossPes",
       "04-model-conv1d+oc-3levelspatial",
       "ref-output/kp",
       "kp.map.yaml",
       kConv1dOcIc,
       "rs",
       49152,
       41533.44,
       4.15334400000000023e+04,
       14664.63,
       384,
       {{"dram", kDram, 5416.67, 383, 0.00, 262},
        {"cluster_buffer", kSram, 6380.31, 382, 391.84, 152},
        {"pe", kRegfile, 2022.65, 381, 42.32, 44}},
       {{"pe", "weight", 16, 3072, 192, 0, 22228.62, 68, 1.38928896000000009e+03, 447},
        {"pe", "input", 16, 3072, 1152, 0, 28766.45, 92, 1.79790336000000002e+03, 448},
        {"pe", "output", 16, 3040, 992, 3072, 48379.94, 116, 3.02374656000000004e+03, 449},
        {"cluster_buffer", "weight", 16, 192, 192, 0, 28504.84, 178, 1.78155230400000005e+03, 913},
        {"cluster_buffer", "input", 16, 1152, 576, 0, 135457.23, 202, 8.46607679999999891e+03, 914},
        {"cluster_buffer", "output", 16, 992, 0, 1024, 149251.20, 226, 9.32820007199999964e+03,
         915},
        {"dram", "weight", 1, 3072, 0, 0, 196608.00, 285, 1.96608000000000000e+05, 1822},
        {"dram", "input", 1, 576, 0, 0, 36864.00, 309, 3.68640000000000000e+04, 1823},
        {"dram", "output", 1, 0, 0, 512, 32768.00, 333, 3.27680000000000000e+04, 1824}}},
  };
}

const std::vector<std::string> kTensors = {"input", "weight", "output"};

int64_t vectors(int64_t words, int64_t block) { return (words + block - 1) / block; }

// tessel's per-byte energies of one level's tensor: Timeloop's vectors over its scalars.
struct PerByte {
  double read, write;
};
PerByte perByte(const Ert& e, const Row* row) {
  const auto b = static_cast<double>(e.block);
  if (row == nullptr) return {e.read / b, e.write / b};  // a tensor the level never holds
  const int64_t writes = row->fills + row->updates;
  return {row->reads == 0 ? e.read / b
                          : e.read * static_cast<double>(vectors(row->reads, e.block)) /
                                static_cast<double>(row->reads),
          writes == 0 ? e.write / b
                      : e.write *
                            static_cast<double>(vectors(row->fills, e.block) +
                                                vectors(row->updates, e.block)) /
                            static_cast<double>(writes)};
}

const Row* findRow(const Case& c, const std::string& level, const std::string& tensor) {
  for (const Row& r : c.rows) {
    if (r.level == level && r.tensor == tensor) return &r;
  }
  return nullptr;
}

const Level& findLevel(const Case& c, const std::string& level) {
  for (const Level& l : c.levels) {
    if (l.tessel == level) return l;
  }
  throw std::logic_error("no level " + level);
}

std::string component(const std::string& level) { return level == "pe" ? "register_file" : level; }

std::string pj(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

std::string yamlTensor(const std::string& t) {
  return t == "input" ? "inputs" : t == "weight" ? "weights" : "outputs";
}

// The -p options: every leakage, NoC and fan-out energy 0, the MAC's energy, and each level's
// per-tensor energies -- only `only`'s when given (the others 0). Timeloop's exercises have no
// clock tree, controller or DMA engines: their energies and leakage are 0 too.
std::string params(const Case& c, const std::string& only = "") {
  std::string p =
      " -p global_buffer.leakage=0mW -p array.leakage=0mW -p array.register_file_leakage=0mW"
      " -p floorplan.clock_energy=0pJ -p controller.energy=0pJ -p controller.leakage=0mW"
      " -p dma.leakage=0mW"
      " -p noc.energy=0pJ/B -p array.mac_energy=" +
      pj(kMacPj) + "pJ";
  bool cluster = false;
  for (const Level& l : c.levels) {
    const bool zero = !only.empty() && l.tessel != only;
    if (l.tessel == "pe") {
      // A register file has one energy for every tensor, read or written: the regfile's.
      EXPECT_EQ(l.ert.read, l.ert.write);
      EXPECT_EQ(l.ert.block, 1);
      p += " -p array.register_file_energy=" + pj(zero ? 0.0 : l.ert.read) + "pJ/B";
      continue;
    }
    cluster = cluster || l.tessel == "cluster_buffer";
    std::string tensors;
    for (const std::string& t : kTensors) {
      const PerByte e = zero ? PerByte{0, 0} : perByte(l.ert, findRow(c, l.tessel, t));
      tensors += (tensors.empty() ? "" : ", ") + yamlTensor(t) + ": {read_energy: " + pj(e.read) +
                 " pJ/B, write_energy: " + pj(e.write) + " pJ/B}";
    }
    p += " -p '" + l.tessel + ".tensors={" + tensors + "}'";
  }
  if (cluster) p += " -p cluster_buffer.leakage=0mW -p global_buffer.fanout.energy=0pJ/B";
  return p;
}

Json run(const Case& c, const std::string& params, const std::string& tag) {
  const std::string dir =
      std::string(TESSEL_SOURCE_DIR) + "/tests/dataflows/data/timeloop/" + c.exercise + "/";
  const std::string json =
      ::testing::TempDir() + "tessel_timeloop_energy_" + c.name + tag + ".json";
  const auto r = runTessel("run --arch '" + dir + "arch.yaml' --workload " + c.workload +
                           " --dataflow " + c.dataflow + " --mapping '" + dir + c.map +
                           "' --ideal-memory -q --json " + json + params);
  EXPECT_EQ(r.code, 0) << r.out;
  return r.code == 0 ? Json::parse(slurp(json)) : Json();
}

void expectRel(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, kRel * std::max(1.0, std::fabs(want))) << what;
}

class TimeloopEnergy : public ::testing::TestWithParam<Case> {};

TEST_P(TimeloopEnergy, EnergiesMatch) {
  const Case& c = GetParam();
  const std::string stats = c.exercise + "/" + c.ref + "/timeloop-model.stats.txt:";
  const std::string xml = c.exercise + "/" + c.ref + "/timeloop-model.map+stats.xml:";
  const Json report = run(c, params(c), "");
  ASSERT_FALSE(report.is_null());
  EXPECT_EQ(report["metadata"]["warnings"].dump(), "[]");
  EXPECT_EQ(report["metadata"]["mapping_warnings"].dump(), "[]");
  const Json& op = report["ops"][0];
  const Json& energy = op["energy_pj"];

  // Timeloop's counts first: a count that differs would show here as a counting difference (the
  // subject of timeloop_reference_test.cpp), not as an energy one.
  std::map<std::pair<std::string, std::string>, Json> accesses;
  for (const Json& a : op["accesses"]) accesses[{a["level"], a["tensor"]}] = a;
  // Words each level drains up to its parent, which Timeloop does not charge.
  std::map<std::pair<std::string, std::string>, int64_t> drained;
  for (const Row& row : c.rows) {
    SCOPED_TRACE(stats + std::to_string(row.total_line) + " " + row.level + " " + row.tensor);
    const auto it = accesses.find({row.level, row.tensor});
    ASSERT_NE(it, accesses.end());
    const Json& a = it->second;
    EXPECT_EQ(a["timeloop_reads"].get<int64_t>(), row.reads * row.instances) << "counts differ";
    EXPECT_EQ(a["fills"].get<int64_t>(), row.fills * row.instances) << "counts differ";
    EXPECT_EQ(a["updates"].get<int64_t>(), row.updates * row.instances) << "counts differ";
    const int64_t drain = a["reads"].get<int64_t>() - a["timeloop_reads"].get<int64_t>();
    drained[{row.level, row.tensor}] = drain;
    if (row.tensor != "output") {
      EXPECT_EQ(drain, 0);
    }
  }
  EXPECT_EQ(accesses.size(), c.rows.size());

  // One level's tensor in tessel: Timeloop's energy plus the drained partial sums' reads.
  const auto drainPj = [&](const Row& row) {
    return static_cast<double>(drained[{row.level, row.tensor}]) *
           perByte(findLevel(c, row.level).ert, &row).read;
  };
  const auto expected = [&](const Row& row) {
    return row.per_instance_pj * static_cast<double>(row.instances) + drainPj(row);
  };

  // Per level and tensor, each level's energies alone in its own run.
  for (const Level& l : c.levels) {
    const Json isolated = run(c, params(c, l.tessel), "_" + l.tessel);
    ASSERT_FALSE(isolated.is_null());
    const Json& by_tensor = isolated["ops"][0]["energy_by_tensor"];
    for (const std::string& t : kTensors) {
      const Row* row = findRow(c, l.tessel, t);
      const double got = by_tensor[t].get<double>();
      if (row == nullptr) {
        EXPECT_EQ(got, 0.0) << l.tessel << " " << t << " is not a Timeloop data space there";
        continue;
      }
      SCOPED_TRACE(l.tessel + " " + t + ": " + stats + std::to_string(row->total_line) + ", " +
                   xml + std::to_string(row->xml_line));
      expectRel(got, expected(*row), "tessel vs Timeloop's <energy> x instances + drain reads");
      EXPECT_NEAR(got - drainPj(*row), row->total_pj, kPrinted + 1e-9) << "vs Energy (total)";
    }
  }

  // Per level: energy_pj, and Timeloop's summary fJ/Compute less its leakage.
  const double kilo_computes = static_cast<double>(c.computes) / 1000.0;
  double total = 0, drains = 0, leakage = 0;
  std::map<std::string, double> by_tensor;
  for (const Level& l : c.levels) {
    double want = 0, drain = 0;
    for (const Row& row : c.rows) {
      if (row.level != l.tessel) continue;
      want += expected(row);
      drain += drainPj(row);
      by_tensor[row.tensor] += expected(row);
    }
    SCOPED_TRACE(l.tessel + ": " + stats + std::to_string(l.summary_line) + ", " +
                 std::to_string(l.leakage_line));
    const double got = energy[component(l.tessel)].get<double>();
    expectRel(got, want, "energy_pj." + component(l.tessel));
    EXPECT_NEAR(got - drain, l.summary_fj * kilo_computes - l.leakage_pj,
                kPrinted * kilo_computes + kPrinted)
        << "vs the summary's fJ/Compute less the leakage";
    total += want;
    drains += drain;
    leakage += l.leakage_pj;
  }
  for (const std::string& t : kTensors) {
    expectRel(op["energy_by_tensor"][t].get<double>(), by_tensor[t], "energy_by_tensor." + t);
  }
  // Levels Timeloop does not have (a global buffer the map bypasses) cost nothing.
  std::set<std::string> listed = {"array", "noc", "sfu", "host"};
  for (const Level& l : c.levels) listed.insert(component(l.tessel));
  for (auto it = energy.begin(); it != energy.end(); ++it) {
    if (listed.count(it.key()) == 0) {
      EXPECT_EQ(it.value().get<double>(), 0.0) << it.key();
    }
  }

  // The MACs: stats.txt line 18, map+stats.xml line 29.
  expectRel(energy["array"].get<double>(), c.mac_xml_pj, "MACC <energy_>");
  EXPECT_NEAR(energy["array"].get<double>(), c.mac_pj, kPrinted) << "MACC Energy (total)";
  expectRel(energy["array"].get<double>(), static_cast<double>(c.computes) * kMacPj,
            "Computes x 0.845 pJ");
  EXPECT_EQ(energy["noc"].get<double>(), 0.0);  // Timeloop's networks: 0 pJ
  EXPECT_EQ(energy["sfu"].get<double>(), 0.0);
  EXPECT_EQ(energy["host"].get<double>(), 0.0);

  // The total: Timeloop's energies plus the drain reads, and its summary less its leakage.
  const Json& totals = report["totals"];
  EXPECT_EQ(totals["static_energy_pj"].get<double>(), 0.0);
  total += c.mac_xml_pj;
  expectRel(totals["energy_pj"].get<double>(), total, "totals.energy_pj");
  expectRel(totals["dynamic_energy_pj"].get<double>(), total, "totals.dynamic_energy_pj");
  SCOPED_TRACE(stats + std::to_string(c.total_line));
  EXPECT_NEAR(totals["energy_pj"].get<double>() - drains, c.total_fj * kilo_computes - leakage,
              kPrinted * kilo_computes + kPrinted * static_cast<double>(c.levels.size()))
      << "vs the summary's Total fJ/Compute less the leakage";
}

// With the drain read given as free (`<level>.drain_energy: 0`, `array.register_file_drain_energy:
// 0`), tessel charges what Timeloop charges: every level's energy is Timeloop's "Energy (total)"
// (the XML's full-precision <energy> x instances) and the total is Timeloop's, exactly.
TEST_P(TimeloopEnergy, FreeDrainsGiveTimeloopsTotals) {
  const Case& c = GetParam();
  std::string free = " -p array.register_file_drain_energy=0pJ/B";
  for (const Level& l : c.levels) {
    if (l.tessel != "pe" && l.tessel != "dram") free += " -p " + l.tessel + ".drain_energy=0pJ/B";
  }
  const Json report = run(c, params(c) + free, "_free");
  ASSERT_FALSE(report.is_null());
  const Json& energy = report["ops"][0]["energy_pj"];
  double total = c.mac_xml_pj;
  for (const Level& l : c.levels) {
    double want = 0;
    for (const Row& row : c.rows) {
      if (row.level == l.tessel) want += row.per_instance_pj * static_cast<double>(row.instances);
    }
    expectRel(energy[component(l.tessel)].get<double>(), want, "energy_pj." + component(l.tessel));
    total += want;
  }
  expectRel(report["totals"]["energy_pj"].get<double>(), total, "totals.energy_pj");
}

INSTANTIATE_TEST_SUITE_P(TimeloopExercises, TimeloopEnergy, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
