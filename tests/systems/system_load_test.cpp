// The system YAML: what it builds, and every kind of mistake named where it was made.
#include <gtest/gtest.h>

#include "systems/system.h"
#include "util/error.h"

namespace tessel::systems {
namespace {

const std::string kChip = std::string(TESSEL_SOURCE_DIR) + "/configs/arch/tpu-v4-like.yaml";

std::string yaml(const std::string& body) {
  return "system:\n  chip: " + kChip + "\n" + body;
}

// The error's location and text.
std::string failure(const std::string& text, int* line = nullptr, std::string* path = nullptr) {
  try {
    loadSystemString(text, "s.yaml");
  } catch (const ConfigError& e) {
    if (line) *line = e.where().line;
    if (path) *path = e.where().yaml_path;
    return e.what();
  }
  return "";
}

TEST(SystemLoad, ATorusWithItsLinksAndDefaults) {
  const System s = loadSystemString(yaml("  count: 64\n  topology: {kind: torus, dims: [4, 4, 4]}\n"
                                         "  link: {bandwidth: 50 GB/s}\n"),
                                    "pod.yaml");
  EXPECT_EQ(s.name, "pod");
  EXPECT_EQ(s.count, 64);
  EXPECT_EQ(s.chip.name, "tpu-v4-like");
  ASSERT_EQ(s.topology.dims.size(), 3u);
  EXPECT_EQ(s.topology.dims[2].kind, DimKind::Ring);
  EXPECT_DOUBLE_EQ(s.topology.dims[0].link.bandwidth, 50e9);
  EXPECT_DOUBLE_EQ(s.topology.dims[0].link.latency, kDefaultLinkLatency);
  EXPECT_DOUBLE_EQ(s.topology.dims[0].link.energy_pj_per_byte, kDefaultLinkEnergy);
  EXPECT_DOUBLE_EQ(s.collective_overhead_s, kDefaultCollectiveOverhead);
}

TEST(SystemLoad, HierarchicalLevelsStackInnermostFirst) {
  const System s = loadSystemString(
      yaml("  count: 32\n  collective_overhead: 20 us\n  topology:\n    kind: hierarchical\n    levels:\n"
           "      - {kind: switch, size: 8, link: {bandwidth: 450 GB/s, latency: 2 us}}\n"
           "      - {kind: torus, dims: [2, 2], link: {bandwidth: 50 GB/s, latency: 5 us, energy: 20 pJ/B}}\n"),
      "s.yaml");
  ASSERT_EQ(s.topology.dims.size(), 3u);
  EXPECT_EQ(s.topology.dims[0].kind, DimKind::Switch);
  EXPECT_EQ(s.topology.dims[0].level, 0);
  EXPECT_EQ(s.topology.dims[2].level, 1);
  EXPECT_DOUBLE_EQ(s.topology.dims[2].link.latency, 5e-6);
  EXPECT_DOUBLE_EQ(s.collective_overhead_s, 20e-6);
}

TEST(SystemLoad, OverridesReachTheSystemAndTheChip) {
  const System s = loadSystemString(
      yaml("  overrides: [dram.capacity=64GiB]\n  count: 8\n  topology: {kind: ring}\n"
           "  link: {bandwidth: 50 GB/s}\n"),
      "s.yaml", {"system.link.latency=3us", "system.count=8"});
  EXPECT_DOUBLE_EQ(s.topology.dims[0].link.latency, 3e-6);
  EXPECT_EQ(s.chip.levels[0].capacity_bytes, uint64_t{64} << 30);
}

TEST(SystemLoad, MistakesAreNamedWhereTheyWereMade) {
  struct Case {
    std::string body;
    int line;
    std::string path, says;
  };
  const std::vector<Case> cases = {
      {"  count: 8\n  topology: {kind: donut}\n  link: {bandwidth: 1 GB/s}\n", 4, "system.topology.kind",
       "unknown topology kind 'donut'"},
      {"  count: 60\n  topology: {kind: torus, dims: [4, 4, 4]}\n  link: {bandwidth: 1 GB/s}\n", 4,
       "system.topology", "4 x 4 x 4 = 64 chips, count is 60"},
      {"  count: 8\n  topology: {kind: ring}\n  link: {latency: 1 us}\n", 5, "system.link.bandwidth", "missing required key 'bandwidth'"},
      {"  count: 8\n  topology: {kind: ring}\n  link: {bandwidth: 0 GB/s}\n", 5, "system.link.bandwidth",
       "above zero"},
      {"  count: 8\n  topology: {kind: ring}\n  link: {bandwidth: 8 B/cycle}\n", 5,
       "system.link.bandwidth", "clock"},
      {"  count: 8\n  topology: {kind: ring}\n  link: {bandwidth: 1 GB/s, latency: 5}\n", 5,
       "system.link.latency", "unit"},
      {"  count: 8\n  topology: {kind: ring}\n  link: {bandwidth: 1 GB/s, bandwith: 2}\n", 5,
       "system.link.bandwith", "did you mean 'bandwidth'"},
      {"  count: 0\n  topology: {kind: ring}\n  link: {bandwidth: 1 GB/s}\n", 3, "system.count", "1 .."},
      {"  count: 8\n  topology: {kind: ring}\n", 4, "system.topology", "link"},
      {"  count: 8\n  topology: {kind: hierarchical, levels: [{kind: switch, size: 8, link: "
       "{bandwidth: 1 GB/s}}]}\n  link: {bandwidth: 1 GB/s}\n",
       5, "system.link", "each of its levels its own link"},
      {"  count: 8\n  topology: {kind: hierarchical, levels: [{kind: switch, link: {bandwidth: 1 GB/s}}]}\n",
       4, "system.topology.levels[0].size", "missing required key 'size'"},
      {"  count: 8\n  topology: {kind: torus, dims: [8, -1]}\n  link: {bandwidth: 1 GB/s}\n", 4,
       "system.topology.dims[1]", "a dimension must be"},
      {"  count: 65536\n  topology: {kind: fully_connected}\n  link: {bandwidth: 1 GB/s}\n", 4,
       "system.topology", "links"},
  };
  for (const Case& c : cases) {
    int line = 0;
    std::string path;
    const std::string what = failure(yaml(c.body), &line, &path);
    EXPECT_NE(what.find(c.says), std::string::npos) << what;
    EXPECT_EQ(line, c.line) << what;
    EXPECT_EQ(path, c.path) << what;
    EXPECT_NE(what.find("s.yaml"), std::string::npos) << what;
  }
}

TEST(SystemLoad, AMissingChipNamesBothPlacesLooked) {
  int line = 0;
  const std::string what = failure("system:\n  chip: nowhere.yaml\n  count: 2\n  topology: {kind: ring}\n"
                                   "  link: {bandwidth: 1 GB/s}\n", &line);
  EXPECT_NE(what.find("no chip design 'nowhere.yaml'"), std::string::npos) << what;
  EXPECT_EQ(line, 2);
}

TEST(SystemLoad, ABadChipIsTheChipsOwnError) {
  const std::string what = failure(yaml("  overrides: [array.rows=0]\n  count: 2\n  topology: {kind: ring}\n"
                                        "  link: {bandwidth: 1 GB/s}\n"));
  EXPECT_NE(what.find("array.rows"), std::string::npos) << what;
}

}  // namespace
}  // namespace tessel::systems
