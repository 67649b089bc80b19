// The weightless torch exports of tests/models/data/onnx (see its README): total MACs must be
// exactly what torch's forward hooks counted (expected.json), with no data file opened.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "models/onnx/import.h"
#include "util/error.h"

namespace tessel::models::onnx {
namespace {

struct Fixture {
  const char* file;
  int64_t macs;          // expected.json "macs"
  int64_t initializers;  // expected.json "initializer_elements"
};

class OnnxFixtures : public ::testing::TestWithParam<Fixture> {};

void dump(const Graph& g) {
  for (const std::string& w : g.warnings) std::cout << "  warning: " << w << "\n";
  for (const Op& op : g.ops()) {
    std::cout << "  " << op.name << " " << nameOf(op.kind) << " " << op.elt.fn << " macs "
              << op.macs << " out [";
    for (int64_t d : g.tensor(op.outputs[0]).shape) std::cout << d << ",";
    std::cout << "]\n";
  }
}

TEST_P(OnnxFixtures, MacsMatchTorch) {
  const Fixture& f = GetParam();
  const Graph g =
      importFile(std::string(TESSEL_SOURCE_DIR) + "/tests/models/data/onnx/" + f.file, {});
  if (std::getenv("TESSEL_ONNX_DUMP")) dump(g);
  EXPECT_EQ(g.totalMacs(), f.macs);
  // Parameters are the file's initializers that are not shapes, indices or masks (int64, bool):
  // the count onnx's own Python reader gives as the sum of numel over the float initializers
  // (buffers such as RoPE tables are initializers too; Constant nodes are not parameters).
  EXPECT_EQ(g.parameterCount(), f.initializers);
  for (const std::string& w : g.warnings) EXPECT_EQ(w.find("generic"), std::string::npos) << w;
}

INSTANTIATE_TEST_SUITE_P(Torch, OnnxFixtures,
                         ::testing::Values(Fixture{"mobilenet_v2.onnx", 300774272, 3487816},
                                           Fixture{"resnet18.onnx", 1814073344, 11684712},
                                           Fixture{"shufflenet_v2_x0_5.onnx", 40476448, 1362816},
                                           Fixture{"vit_b_16.onnx", 17563828224, 86567656},
                                           Fixture{"tiny_gpt.onnx", 1900544, 133888},
                                           Fixture{"tiny_llama_block.onnx", 622592, 37760}),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
}  // namespace tessel::models::onnx
