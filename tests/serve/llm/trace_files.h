// Tables for the request readers' tests (a trace, a measured run): each written to the temp
// dir under a name of its own, and the check that a bad one is a ConfigError citing its
// file:line:column and why.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/util/error_of.h"

namespace tessel::serve::llm::testing {

// A file of the temp dir holding `text`, its name `name` after the running test's (tests run
// in parallel, each in its own process): its path.
inline std::string writeTemp(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = ::testing::TempDir() + "tessel_";
  if (test) path += std::string(test->test_suite_name()) + "_" + test->name() + "_";
  path += name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A bad table: its file name, its text, and what the error must contain.
using BadTable = std::tuple<std::string, std::string, std::string>;

// `read(path)` of each table throws a ConfigError whose message contains the expected text.
template <class Read>
void expectErrors(const std::vector<BadTable>& cases, Read read) {
  for (const auto& [name, text, expected] : cases) {
    const std::string what = tessel::testing::errorOf([&] { read(writeTemp(name, text)); });
    EXPECT_NE(what.find(expected), std::string::npos) << name << ": " << what;
  }
}

}  // namespace tessel::serve::llm::testing
