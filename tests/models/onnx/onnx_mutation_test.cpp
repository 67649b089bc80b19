// Structured mutations of real models (dims, attributes, inputs, op types, versions): every
// import either succeeds with possible counts or throws ConfigError. Deterministic (seeded).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "models/onnx/import.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "util/error.h"

namespace tessel::models::onnx::test {
namespace {

const int64_t kOddValues[] = {0, 1, -1, 2, 3, -7, 1 << 20, int64_t{1} << 40, INT64_MAX, INT64_MIN};
const char* kOpTypes[] = {"Conv",
                          "MatMul",
                          "Gemm",
                          "Reshape",
                          "Slice",
                          "Split",
                          "Concat",
                          "Transpose",
                          "Gather",
                          "Softmax",
                          "ReduceMean",
                          "MaxPool",
                          "Add",
                          "ConvTranspose",
                          "LayerNormalization",
                          "BatchNormalization",
                          "Expand",
                          "Unsqueeze",
                          "Squeeze",
                          "Flatten",
                          "Resize",
                          "QLinearConv",
                          "Where",
                          "Pad",
                          "Tile",
                          "Upsample",
                          "AveragePool",
                          "GlobalAveragePool"};

int64_t odd(std::mt19937& rng) { return kOddValues[rng() % std::size(kOddValues)]; }

void mutateAttribute(::onnx::AttributeProto& a, std::mt19937& rng) {
  if (a.ints_size() > 0) {
    a.set_ints(static_cast<int>(rng() % a.ints_size()), odd(rng));
    if (rng() % 4 == 0) a.add_ints(odd(rng));
  }
  if (a.type() == ::onnx::AttributeProto::INT) a.set_i(odd(rng));
  if (a.type() == ::onnx::AttributeProto::STRING) a.set_s(rng() % 2 ? "SAME_LOWER" : "VALID");
}

void mutate(::onnx::ModelProto& m, std::mt19937& rng) {
  auto& g = *m.mutable_graph();
  switch (rng() % 7) {
    case 0:
      for (auto& in : *g.mutable_input())
        for (auto& d : *in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
          if (rng() % 3 == 0) d.set_dim_value(odd(rng));
      break;
    case 1:
      for (auto& t : *g.mutable_initializer())
        if (t.dims_size() > 0 && rng() % 2)
          t.set_dims(static_cast<int>(rng() % t.dims_size()), odd(rng));
      break;
    case 2:
      for (auto& n : *g.mutable_node())
        for (auto& a : *n.mutable_attribute())
          if (rng() % 2) mutateAttribute(a, rng);
      break;
    case 3:
      if (g.node_size() > 0) {
        auto& n = *g.mutable_node(static_cast<int>(rng() % g.node_size()));
        n.set_op_type(kOpTypes[rng() % std::size(kOpTypes)]);
      }
      break;
    case 4:
      if (g.node_size() > 1) {
        auto& n = *g.mutable_node(static_cast<int>(rng() % g.node_size()));
        const auto& other = g.node(static_cast<int>(rng() % g.node_size()));
        if (n.input_size() > 0 && other.output_size() > 0)
          n.set_input(static_cast<int>(rng() % n.input_size()), other.output(0));
      }
      break;
    case 5:
      m.mutable_opset_import(0)->set_version(static_cast<int64_t>(rng() % 22));
      break;
    default:
      if (g.node_size() > 0) {
        auto& n = *g.mutable_node(static_cast<int>(rng() % g.node_size()));
        if (n.input_size() > 0 && rng() % 2)
          n.mutable_input()->RemoveLast();
        else
          n.add_input(g.input_size() ? g.input(0).name() : "x");
      }
  }
}

std::vector<std::string> seeds() {
  std::vector<std::string> out;
  const std::string dir = std::string(TESSEL_SOURCE_DIR) + "/fuzz/seeds/onnx";
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(OnnxMutations, NeverCrashAndCountsStayPossible) {
  // TESSEL_ONNX_MUTATIONS=N runs N per seed (longer campaigns) with a seed of its own.
  const char* env = std::getenv("TESSEL_ONNX_MUTATIONS");
  const int rounds = env ? std::atoi(env) : 150;
  std::mt19937 rng(env ? static_cast<unsigned>(rounds) : 12345u);
  int imported = 0, rejected = 0;
  for (const std::string& seed : seeds()) {
    ::onnx::ModelProto base;
    std::ifstream in(seed, std::ios::binary);
    ASSERT_TRUE(base.ParseFromIstream(&in)) << seed;
    for (int i = 0; i < rounds; ++i) {
      ::onnx::ModelProto m = base;
      for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k) mutate(m, rng);
      const std::string path = writeBytes(m.SerializeAsString());
      try {
        const Graph g = importFile(path, {});
        for (const Op& op : g.ops()) {
          ASSERT_GE(op.macs, 0) << seed << " " << op.name;
          if (op.isGemmLike()) {
            ASSERT_EQ(op.macs, op.gemm.macs()) << seed << " " << op.name;
          }
        }
        ++imported;
      } catch (const ConfigError&) {
        ++rejected;
      }
      std::filesystem::remove(path);
    }
  }
  EXPECT_GT(imported, 0);
  EXPECT_GT(rejected, 0);
}

// Byte-level damage (flips, cuts, insertions) of the serialized seeds: the protobuf may still
// parse into something odd; the importer must reject or import it, never crash.
TEST(OnnxMutations, ByteDamageNeverCrashes) {
  std::mt19937 rng(777);
  for (const std::string& seed : seeds()) {
    std::ifstream in(seed, std::ios::binary);
    const std::string base((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (int i = 0; i < 100; ++i) {
      std::string b = base;
      for (int k = 0, n = 1 + static_cast<int>(rng() % 8); k < n && !b.empty(); ++k) {
        const size_t pos = rng() % b.size();
        switch (rng() % 3) {
          case 0: {  // varint-shaped values too: lengths, dims, enums
            const char values[] = {'\xff', '\x80', '\x00', '\x7f', '\x01'};
            b[pos] = rng() % 2 ? values[rng() % 5] : static_cast<char>(rng());
            break;
          }
          case 1:
            b.erase(pos, 1 + rng() % 16);
            break;
          default:
            b.insert(pos, 1 + rng() % 8, static_cast<char>(rng()));
        }
      }
      const std::string path = writeBytes(b);
      try {
        importFile(path, {});
      } catch (const ConfigError&) {
      }
      std::filesystem::remove(path);
    }
  }
}

}  // namespace
}  // namespace tessel::models::onnx::test
