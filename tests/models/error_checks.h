// Runs build() expecting a ConfigError at a given option path whose message contains a text.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "models/workload.h"
#include "util/error.h"

namespace tessel::models {

inline std::string expectConfigError(const std::string& name, const WorkloadOptions& o,
                                     const std::string& path, const std::string& contains) {
  try {
    build(name, o);
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.where().yaml_path, path) << name;
    EXPECT_TRUE(e.where().file.empty()) << name;
    EXPECT_NE(e.message().find(contains), std::string::npos)
        << name << ": '" << e.message() << "' lacks '" << contains << "'";
    return e.message();
  }
  ADD_FAILURE() << "no ConfigError for " << name;
  return "";
}

}  // namespace tessel::models
