// The fields of a config.json that size the graph (layers, experts) are checked against the
// memory budget at the field, before any op is built (util/budget.h; tests set a tiny budget).
#include <gtest/gtest.h>

#include "family_checks.h"
#include "models/families/hf_config.h"
#include "tests/util/scoped_env.h"
#include "util/error.h"

namespace tessel::models {
namespace {

ConfigError budgetError(const std::string& text) {
  try {
    hf::buildFromText(text, "cfg.json", opts(16));
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError";
  return ConfigError({}, "");
}

TEST(FamiliesBudget, AMillionLayersAreRefusedAtTheField) {
  // A million layers need ~150 GB on any machine this runs on; no budget needs setting.
  const std::string text =
      edited(presetText("llama-3.2-1b"), "\"num_hidden_layers\": 16", "\"num_hidden_layers\": 1000000");
  const ConfigError e = budgetError(text);
  EXPECT_EQ(e.where().file, "cfg.json");
  EXPECT_EQ(e.where().yaml_path, "num_hidden_layers");
  EXPECT_GT(e.where().line, 1);
  EXPECT_EQ(e.message().rfind("1,000,000 layers would need about", 0), 0u) << e.message();
  EXPECT_NE(e.message().find(" of memory ("), std::string::npos) << e.message();
}

TEST(FamiliesBudget, ExpertsAreCountedAcrossTheLayers) {
  const tessel::testing::ScopedEnv budget("TESSEL_MEMORY_BUDGET", "8 MiB");
  const ConfigError e = budgetError(presetText("mixtral-8x7b"));  // 8 experts x 32 layers
  EXPECT_EQ(e.where().yaml_path, "num_local_experts");
  EXPECT_EQ(e.message().rfind("8 experts across 32 layers would need about", 0), 0u) << e.message();
  EXPECT_NE(e.message().find("TESSEL_MEMORY_BUDGET allows 8.0 MiB"), std::string::npos);
}

}  // namespace
}  // namespace tessel::models
