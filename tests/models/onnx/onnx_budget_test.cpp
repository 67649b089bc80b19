// An ONNX file's node and initializer counts are checked against the memory budget on the wire,
// before protobuf allocates them (util/budget.h; the test sets a tiny budget).
#include <gtest/gtest.h>

#include "models/onnx/import.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "tests/util/error_of.h"
#include "tests/util/scoped_env.h"

namespace tessel::models::onnx::test {
namespace {

TEST(OnnxBudget, ANodeCountPastTheMemoryBudgetIsRefusedBeforeParsing) {
  ModelBuilder b;
  b.input("x0", {int64_t{2}, int64_t{3}});
  for (int i = 0; i < 40; ++i) {
    b.node("Relu", {"x" + std::to_string(i)}, {"x" + std::to_string(i + 1)});
  }
  b.output("x40");
  const std::string path = b.write();
  {
    const tessel::testing::ScopedEnv budget("TESSEL_MEMORY_BUDGET", "64 KiB");
    const std::string e = tessel::testing::errorOf([&] { importFile(path, {}); });
    EXPECT_NE(e.find(path + ": at 'graph.node': 40 nodes would need about"), std::string::npos) << e;
    EXPECT_NE(e.find("TESSEL_MEMORY_BUDGET allows 64.0 KiB"), std::string::npos) << e;
  }
  EXPECT_EQ(importFile(path, {}).ops().size(), 40u);  // the machine's own budget takes it
}

}  // namespace
}  // namespace tessel::models::onnx::test
