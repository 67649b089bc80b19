// A minimal valid accelerator, line by line, so error tests can name exact lines and columns.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arch/load.h"
#include "util/error.h"

namespace tessel::arch::testing {

// Line n of the file is kTiny[n - 1].
inline const std::vector<std::string> kTiny = {
    "name: tiny",               // 1
    "clock: 1 GHz",             // 2
    "dram:",                    // 3
    "  bandwidth: 16 B/cycle",  // 4
    "  latency: 100 ns",        // 5
    "scratchpad:",              // 6
    "  capacity: 256 KiB",      // 7   value at col 13 ("  capacity: " is 12 chars)
    "  banks: 4",               // 8   value at col 10
    "accumulator:",             // 9
    "  capacity: 64 KiB",       // 10  value at col 13
    "  banks: 2",               // 11
    "array:",                   // 12
    "  rows: 16",               // 13
    "  cols: 16",               // 14
    "  dataflows: [ws, os]",    // 15  'ws' at col 15, 'os' at col 19
};

inline std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// kTiny with line `n` (1-based) replaced; "" keeps the numbering with an empty line.
inline std::string tinyWith(int n, const std::string& text) {
  auto lines = kTiny;
  lines.at(n - 1) = text;
  return join(lines);
}

// kTiny with extra lines after line 15.
inline std::string tinyPlus(const std::vector<std::string>& extra) {
  auto lines = kTiny;
  lines.insert(lines.end(), extra.begin(), extra.end());
  return join(lines);
}

// The ConfigError message loading `yaml` as "tiny.yaml" gives ("" if it loads).
inline std::string loadError(const std::string& yaml, const std::vector<std::string>& p = {}) {
  try {
    loadString(yaml, "tiny.yaml", p);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "loaded without error:\n" << yaml;
  return "";
}

// The column of `needle` in `line` (1-based), for values whose column is easier to find than
// to count.
inline int col(const std::string& line, const std::string& needle) {
  return static_cast<int>(line.find(needle)) + 1;
}

}  // namespace tessel::arch::testing
