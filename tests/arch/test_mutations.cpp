// Robustness: every single-line mutation of each shipped config (line deleted, value
// replaced by garbage, by zero, by a negative, by a huge number, key misspelled, indentation
// broken) either loads or throws ConfigError naming the file -- never another exception, a crash
// or a hang. This is the "bad input gets a clear error" contract checked exhaustively per line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arch/load.h"
#include "util/error.h"

namespace tessel::arch {
namespace {

std::vector<std::string> shippedLines(const std::string& name) {
  std::ifstream f(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml");
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// The value part of "key: value  # comment" replaced by `v` (unchanged if no value).
std::string withValue(const std::string& line, const std::string& v) {
  const auto colon = line.find(": ");
  if (colon == std::string::npos || line.find('#') < colon) return line;
  return line.substr(0, colon + 2) + v;
}

std::vector<std::string> mutationsOf(const std::string& line) {
  std::vector<std::string> m = {"",
                                withValue(line, "sixteen"),
                                withValue(line, "0"),
                                withValue(line, "-5 KiB"),
                                withValue(line, "99999999999999999999 GiB"),
                                withValue(line, "[1, 2"),
                                withValue(line, "{}"),
                                "   " + line,
                                line + ": extra"};
  const auto first = line.find_first_not_of(' ');
  if (first != std::string::npos && line[first] != '#' && first + 2 < line.size()) {
    std::string typo = line;
    std::swap(typo[first], typo[first + 1]);  // misspelled key
    m.push_back(typo);
  }
  return m;
}

class ArchMutations : public ::testing::TestWithParam<std::string> {};

TEST_P(ArchMutations, EverySingleLineMutationLoadsOrFailsCleanly) {
  const auto lines = shippedLines(GetParam());
  ASSERT_GT(lines.size(), 20u);
  int loaded = 0, rejected = 0;  // of lines with a key: a mutated comment always loads
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto first = lines[i].find_first_not_of(' ');
    const bool keyed = first != std::string::npos && lines[i][first] != '#';
    for (const std::string& mutated : mutationsOf(lines[i])) {
      auto copy = lines;
      copy[i] = mutated;
      try {
        loadString(join(copy), "mut.yaml");
        loaded += keyed;
      } catch (const ConfigError& e) {
        rejected += keyed;
        EXPECT_NE(std::string(e.what()).find("mut.yaml"), std::string::npos)
            << "line " << i + 1 << " -> '" << mutated << "': " << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "line " << i + 1 << " -> '" << mutated
                      << "' threw a non-ConfigError: " << e.what();
      }
    }
  }
  EXPECT_GT(rejected, loaded);  // most mutations are errors; lines at their defaults load
}

INSTANTIATE_TEST_SUITE_P(ShippedConfigs, ArchMutations,
                         ::testing::Values("gemmini-default", "gemmini-survey-model", "tpu-v1-like",
                                           "eyeriss-like", "shidiannao-like", "gemmini-soc",
                                           "npu-3core", "simba-like", "tpu-v4i-like",
                                           "h100-sxm-like"));

}  // namespace
}  // namespace tessel::arch
