// The scalesim engine against SCALE-Sim v2 itself: COMPUTE_REPORT.csv files it wrote for 9
// layers x 4 arrays (32x32, 16x8, 8x16, 4x4) x os/ws/is (data/README.md says how). Each layer
// runs through tessel (workload conv:/gemm:, the scalesim engine) and the report written from
// its stats must equal SCALE-Sim's byte for byte; the SRAM columns of BANDWIDTH_REPORT too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/workload.h"
#include "reports/scalesim_report.h"
#include "sim/run.h"
#include "tests/sim/tiny_arch.h"

namespace tessel {
namespace {

const std::string kData = std::string(TESSEL_SOURCE_DIR) + "/tests/sim/scalesim/data/";

std::vector<std::vector<std::string>> rowsOf(const std::string& text) {
  std::stringstream f(text);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(f, line);  // header
  while (std::getline(f, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) {
      const size_t b = cell.find_first_not_of(' ');
      if (b != std::string::npos) cells.push_back(cell.substr(b));
    }
    if (!cells.empty()) rows.push_back(cells);
  }
  return rows;
}


std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::vector<std::string>> csvRows(const std::string& path) {
  return rowsOf(slurp(path));
}

// SCALE-Sim's topology rows as tessel single-layer workloads (no padding: SCALE-Sim has none).
std::vector<std::string> workloads(bool gemm) {
  std::vector<std::string> out;
  for (const auto& r : csvRows(kData + (gemm ? "gemm_layers.csv" : "conv_layers.csv"))) {
    if (gemm) {
      out.push_back("gemm:M=" + r[1] + ",N=" + r[2] + ",K=" + r[3]);
    } else {
      out.push_back("conv:H=" + r[1] + ",W=" + r[2] + ",R=" + r[3] + ",S=" + r[4] + ",C=" + r[5] +
                    ",K=" + r[6] + ",stride=" + r[7] + ",pad=0");
    }
  }
  return out;
}

arch::Accelerator arrayOf(int64_t rows, int64_t cols) {
  arch::Accelerator a = testing::tinyArch(4);
  a.array.rows = rows;
  a.array.cols = cols;
  a.levels[1].capacity_bytes = 1 << 20;
  a.levels[2].capacity_bytes = 1 << 20;
  return a;
}

// One SCALE-Sim run (topology x array x dataflow) through tessel: its layers' stats.
sim::RunStats runLayers(const std::string& run_name) {
  const std::string topo = run_name.substr(0, run_name.find('_'));
  const std::string shape = run_name.substr(topo.size() + 1, run_name.rfind('_') - topo.size() - 1);
  const std::string df = run_name.substr(run_name.rfind('_') + 1);
  const int64_t rows = std::stoll(shape.substr(0, shape.find('x')));
  const int64_t cols = std::stoll(shape.substr(shape.find('x') + 1));
  const arch::Accelerator a = arrayOf(rows, cols);
  sim::RunOptions o;
  o.engine = "scalesim";
  o.plan.mapper = "gemmini-auto";  // cycles do not depend on it; keeps the test fast
  sim::RunStats all;
  for (const std::string& w : workloads(topo == "gemm")) {
    const sim::RunStats one =
        sim::simulate(models::build(w, models::WorkloadOptions{}), a, dataflows::loadDataflow(df), o);
    if (all.ops.empty()) all = one, all.ops.clear();
    for (const auto& op : one.ops) all.ops.push_back(op);
  }
  return all;
}

std::vector<std::string> referenceRuns() {
  std::vector<std::string> runs;
  for (const auto& e : std::filesystem::directory_iterator(kData)) {
    if (e.is_directory()) runs.push_back(e.path().filename().string());
  }
  std::sort(runs.begin(), runs.end());
  return runs;
}

TEST(ScaleSimReference, ComputeReportEqualsScaleSimByteForByte) {
  const auto runs = referenceRuns();
  ASSERT_EQ(runs.size(), 24u);
  for (const std::string& run : runs) {
    const sim::RunStats stats = runLayers(run);
    const reports::ScaleSimReports r = reports::scaleSimReports(stats);
    EXPECT_EQ(r.compute, slurp(kData + run + "/COMPUTE_REPORT.csv")) << run;
    // The SRAM bandwidths (SCALE-Sim's counted accesses over Total Cycles); the DRAM ones
    // come from tessel's own traffic (docs/scalesim.md).
    const auto theirs = csvRows(kData + run + "/BANDWIDTH_REPORT.csv");
    const auto mine = rowsOf(r.bandwidth);
    ASSERT_EQ(mine.size(), theirs.size()) << run;
    for (size_t l = 0; l < theirs.size(); ++l) {
      for (int c = 0; c < 4; ++c) EXPECT_EQ(mine[l][c], theirs[l][c]) << run << " layer " << l;
    }
  }
}

TEST(ScaleSimReference, HeadersAreScaleSims) {
  const std::string run = kData + "conv_32x32_os/";
  const std::string compute = slurp(run + "COMPUTE_REPORT.csv");
  const std::string bandwidth = slurp(run + "BANDWIDTH_REPORT.csv");
  EXPECT_EQ(compute.substr(0, compute.find('\n') + 1), reports::kScaleSimComputeHeader);
  EXPECT_EQ(bandwidth.substr(0, bandwidth.find('\n') + 1), reports::kScaleSimBandwidthHeader);
}

TEST(ScaleSimReference, PythonFloatText) {
  EXPECT_EQ(reports::pythonFloat(100.0), "100.0");
  EXPECT_EQ(reports::pythonFloat(1.953125), "1.953125");
  EXPECT_EQ(reports::pythonFloat(0.0001), "0.0001");
  EXPECT_EQ(reports::pythonFloat(0.00001), "1e-05");
  EXPECT_EQ(reports::pythonFloat(1e16), "1e+16");
  EXPECT_EQ(reports::pythonFloat(0.0), "0.0");
  EXPECT_EQ(reports::pythonFloat(91.68309650614964), "91.68309650614964");
}

}  // namespace
}  // namespace tessel
