// The shipped designs' silicon against the published chips they imitate, within the bands
// docs/published-chips.md states ("What to expect for a chip not on this page"): each storage
// block and datapath a third to 1.2 of its published area, a die or core a quarter to 1.0 of
// its published one. The published figures are the page's, each with its source there; TPU
// v1's are shares of a die of at most 331 mm2, so upper bounds.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arch/load.h"

namespace tessel::arch {
namespace {

Accelerator shipped(const std::string& name) {
  return loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml");
}

// Area of `components` ("a+b"; "total"; "core": all but the I/O) in mm2.
double area(const Accelerator& a, const std::string& components) {
  double sum = 0;
  for (const auto& [name, mm2] : a.silicon.area_mm2) {
    const bool core = components == "core" && name != "io";
    const bool listed = ("+" + components + "+").find("+" + name + "+") != std::string::npos;
    if (components == "total" || core || listed) sum += mm2;
  }
  return sum;
}

struct Published {
  std::string design, components;
  double mm2;
  bool block;  // a storage block or datapath (else a die or core)
};

// The page's comparisons, at each design's own node.
const std::vector<Published> kPublished = {
    {"eyeriss-like", "register_file", 6.1, true},   // [JSSC17]: nearly half of the 12.25 mm2 core
    {"eyeriss-like", "global_buffer", 2.45, true},  // the pads' area over 2.5
    {"eyeriss-like", "array", 0.91, true},          // 7.4 % of the core
    {"eyeriss-like", "core", 12.25, false},
    {"gemmini-default", "array", 0.116, true},  // [DAC21] Figure 6
    {"gemmini-default", "scratchpad", 0.544, true},
    {"gemmini-default", "accumulator", 0.146, true},
    {"tpu-v1-like", "scratchpad", 96.0, true},   // [ISCA17] Figure 2: 29 % of <= 331 mm2
    {"tpu-v1-like", "array", 79.4, true},        // 24 %
    {"tpu-v1-like", "accumulator", 19.9, true},  // 6 %
    {"tpu-v1-like", "total", 331, false},
    {"shidiannao-like", "core", 4.86, false},  // [ISCA15]: the layout, no DRAM interface
    {"simba-like", "cluster_buffer+array+register_file+epilogue", 3.0, true},  // half of 6 mm2
    {"simba-like", "total", 6.0, false},
    {"h100-sxm-like", "total", 814, false},
};

TEST(PublishedChips, EachComparisonIsWithinThePagesBand) {
  for (const Published& p : kPublished) {
    const double ratio = area(shipped(p.design), p.components) / p.mm2;
    std::ostringstream what;
    what << p.design << " " << p.components << ": " << ratio << " of " << p.mm2 << " mm2";
    if (p.block) {
      EXPECT_GE(ratio, 0.33) << what.str();
      EXPECT_LE(ratio, 1.2) << what.str();
    } else {
      EXPECT_GE(ratio, 0.25) << what.str();
      EXPECT_LE(ratio, 1.0) << what.str();
    }
  }
}

// [ISCA17] Figure 2 gives TPU v1's blocks as shares of a die it only bounds (<= 331 mm2): the
// Unified Buffer 29 %, the matrix unit 24 %, the accumulators 6 %, the I/O 10 %. Among those four
// (69 % of the die) each of the model's blocks keeps its share within 1.5x, and the die they make
// at the plan's shares (their area over 0.69) stays under the bound.
TEST(PublishedChips, TpuV1BlocksSplitAsItsFloorPlan) {
  const Accelerator tpu = shipped("tpu-v1-like");
  const std::vector<std::pair<std::string, double>> shares = {
      {"scratchpad", 29}, {"array", 24}, {"accumulator", 6}, {"io", 10}};
  double model = 0, plan = 0;
  for (const auto& [block, percent] : shares) {
    model += area(tpu, block);
    plan += percent;
  }
  for (const auto& [block, percent] : shares) {
    const double ratio = (area(tpu, block) / model) / (percent / plan);
    EXPECT_GE(ratio, 1 / 1.5) << block;
    EXPECT_LE(ratio, 1.5) << block;
  }
  EXPECT_LE(model / (plan / 100), 331);
}

}  // namespace
}  // namespace tessel::arch
