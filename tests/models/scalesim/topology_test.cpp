// SCALE-Sim topology CSVs (models/scalesim/topology.h): SCALE-Sim's shipped files import with the
// MACs SCALE-Sim computes, the format variants read alike, and bad input is located.
#include "models/scalesim/topology.h"

#include <gtest/gtest.h>

#include <string>

#include "models/workload.h"
#include "util/error.h"

namespace tessel::models {
namespace {

const std::string kData = std::string(TESSEL_SOURCE_DIR) + "/tests/models/scalesim/data/";
const char kConvHeader[] =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,\n";

Graph file(const std::string& name, int64_t batch = 1) {
  WorkloadOptions o;
  o.batch = batch;
  return build(kData + name, o);
}

Graph text(const std::string& csv) { return scalesim::parseTopology(csv, "t.csv", {}); }

int64_t macsOf(const Graph& g, const std::string& op) {
  const int id = g.findOp(op);
  EXPECT_GE(id, 0) << op;
  return id < 0 ? -1 : g.op(id).macs;
}

// Output = (IFMAP - filter) / stride + 1, floored; MACs = P x Q x R x S x C x K (SCALE-Sim's
// topo_calc_hyperparams).
TEST(ScalesimTopology, Resnet18) {
  const Graph g = file("v3_Resnet18.csv");  // no newline after the last line
  ASSERT_EQ(g.ops().size(), 21u);
  // Conv1 224,224,7,7,3,64,2: (224 - 7) / 2 + 1 = 109; 109 x 109 x 7*7*3 x 64.
  EXPECT_EQ(macsOf(g, "Conv1"), 111776448);
  EXPECT_EQ(g.op(g.findOp("Conv1")).conv.p, 109);
  EXPECT_EQ(g.op(g.findOp("Conv1")).conv.pad, 0);
  // Conv3_s 56,56,1,1,64,128,2: (56 - 1) / 2 + 1 = 28; 28 x 28 x 64 x 128.
  EXPECT_EQ(macsOf(g, "Conv3_s"), 6422528);
  // FC 1,1,1,1,512,1000,1: 512 x 1000.
  EXPECT_EQ(macsOf(g, "FC"), 512000);
  EXPECT_EQ(g.op(0).kind, OpKind::Conv2d);
  EXPECT_TRUE(g.warnings.empty());
}

TEST(ScalesimTopology, PaddedConv1) {
  // The brief's ResNet conv1 with its padding folded in: 230,230,7,7,3,64,2 -> 112 x 112
  // outputs x 7*7*3 x 64 = 118,013,952.
  const Graph g = text(std::string(kConvHeader) + "conv1, 230, 230, 7, 7, 3, 64, 2,\n");
  EXPECT_EQ(macsOf(g, "conv1"), 118013952);
}

TEST(ScalesimTopology, MobilenetAlexnetYolo) {
  const Graph m = file("v3_mobilenet.csv");
  ASSERT_EQ(m.ops().size(), 27u);
  // Conv1 224,224,3,3,3,32,2: 111 x 111 x 27 x 32.
  EXPECT_EQ(macsOf(m, "Conv1"), 10645344);
  // Conv2 112,112,3,3,32,1,1 (one filter, as the file writes depthwise): 110 x 110 x 9 x 32.
  EXPECT_EQ(macsOf(m, "Conv2"), 3484800);
  const Graph a = file("v2_alexnet.csv");  // spaces before the commas
  ASSERT_EQ(a.ops().size(), 5u);
  // Conv1 224,224,11,11,3,96,4: (224 - 11) / 4 + 1 = 54; 54 x 54 x 363 x 96.
  EXPECT_EQ(macsOf(a, "Conv1"), 101616768);
  EXPECT_EQ(file("v2_yolo_tiny.csv").ops().size(), 9u);  // "1, " then a space: still 8 fields
}

// GEMM: SCALE-Sim's M x K ifmap times K x N filter; MACs = M*N*K.
TEST(ScalesimTopology, GemmFiles) {
  const Graph g = file("v3_gpt2_mnk.csv");  // CRLF, no final newline
  ASSERT_EQ(g.ops().size(), 6u);
  EXPECT_EQ(macsOf(g, "QKT"), int64_t{1024} * 1024 * 64);
  EXPECT_EQ(macsOf(g, "Linear1"), int64_t{1024} * 4800 * 1600);
  const Op& op = g.op(g.findOp("QKTV"));
  EXPECT_EQ(op.kind, OpKind::MatMul);
  EXPECT_EQ(op.gemm.m, 1024);
  EXPECT_EQ(op.gemm.n, 64);
  EXPECT_EQ(op.gemm.k, 1024);
  const Graph v = file("v3_vit_s_mnk.csv");
  ASSERT_EQ(v.ops().size(), 5u);
  EXPECT_EQ(macsOf(v, "L0"), 196 * 192 * 384);
  const Graph t = file("v2_test_mnk_input.csv");
  ASSERT_EQ(t.ops().size(), 1u);
  EXPECT_EQ(macsOf(t, "Test 1"), 128 * 64 * 256);
  // --batch folds into M.
  EXPECT_EQ(file("v2_test_mnk_input.csv", 3).op(0).macs, 3 * 128 * 64 * 256);
}

TEST(ScalesimTopology, SparsityRatiosTimeDense) {
  const Graph c = file("v3_sparsity_conv.csv");
  // CONV_1 5,5,3,3,2,6,1 at 2:4: 3 x 3 x 9 x 2 x 6, dense.
  EXPECT_EQ(macsOf(c, "CONV_1"), 972);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("2:4"), std::string::npos);
  const Graph g = file("v3_sparsity_gemm.csv");  // GEMM_1 twice
  ASSERT_EQ(g.ops().size(), 2u);
  EXPECT_EQ(macsOf(g, "GEMM_1"), 3 * 5 * 16);
  EXPECT_EQ(macsOf(g, "GEMM_1#2"), 1 * 5 * 16);
  EXPECT_EQ(text(std::string(kConvHeader) + "c, 5, 5, 3, 3, 2, 6, 1, 1:1,\n").warnings.size(), 0u);
}

// "DP" in the name: SCALE-Sim runs Channels one-channel convs of Num Filter filters each.
TEST(ScalesimTopology, Depthwise) {
  const Graph g = text(std::string(kConvHeader) +
                       "Conv_DP1, 10, 10, 3, 3, 16, 1, 1,\n"
                       "Conv_DP2, 10, 10, 3, 3, 16, 2, 1,\n"
                       "conv_dp3, 10, 10, 3, 3, 16, 1, 1,\n");
  const Op& dw = g.op(0);
  EXPECT_EQ(dw.conv.groups, 16);
  EXPECT_EQ(dw.conv.k, 16);
  EXPECT_EQ(dw.macs, 8 * 8 * 9 * 16);  // 16 channels x (8 x 8 x 9 x 1 filter)
  EXPECT_EQ(g.op(1).conv.k, 32);       // 2 filters per channel
  EXPECT_EQ(g.op(1).macs, 8 * 8 * 9 * 16 * 2);
  EXPECT_EQ(g.op(2).conv.groups, 1);   // the test is case-sensitive, as SCALE-Sim's
}

TEST(ScalesimTopology, LineVariantsReadAlike) {
  const std::string layer = "c1, 12, 12, 3, 3, 8, 16, 1";
  const int64_t macs = 10 * 10 * 9 * 8 * 16;
  for (const std::string& csv :
       {std::string(kConvHeader) + layer + ",\n",                        // trailing comma
        std::string(kConvHeader) + layer + "\n",                         // none
        "\n\n" + std::string(kConvHeader) + "\n  \n" + layer + ",\n\n",  // blank lines
        "Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,"
        "Strides,\r\n" + layer + ",\r\n",                                // CRLF
        "\xEF\xBB\xBF" + std::string(kConvHeader) + layer + ", 1,"}) {   // BOM, stride width
    const Graph g = text(csv);
    ASSERT_EQ(g.ops().size(), 1u) << csv;
    EXPECT_EQ(g.op(0).macs, macs) << csv;
  }
  // --batch multiplies the conv's N.
  WorkloadOptions o;
  o.batch = 4;
  EXPECT_EQ(scalesim::parseTopology(std::string(kConvHeader) + layer, "t.csv", o).op(0).conv.n, 4);
}

struct Bad {
  std::string csv;
  int line, column;
  std::string path, says;
};

TEST(ScalesimTopology, BadInputIsLocated) {
  const std::string h = kConvHeader;
  const std::vector<Bad> cases = {
      {h + "c1, 10, 10, 3, 3, 4,\n", 2, 19, "layer[0]", "expected 8 fields"},
      {h + "c1, 10, 10, x, 3, 4, 8, 1,\n", 2, 13, "layer[0].Filter Height", "positive integer"},
      {h + "ok, 9, 9, 1, 1, 1, 1, 1,\nc2, 10, 10, 3, 3, 0, 8, 1,\n", 3, 19, "layer[1].Channels",
       "at least 1"},
      {h + "c1, 10, 10, 3, 3, 4, -8, 1,\n", 2, 22, "layer[0].Num Filter", "at least 1"},
      {h + "c1, 10, 10, 3, 3, 4, 8, 1.5,\n", 2, 25, "layer[0].Strides", "positive integer"},
      {h + "c1, 2, 10, 3, 3, 4, 8, 1,\n", 2, 12, "layer[0].Filter Height", "larger than IFMAP"},
      {h + "c1, 10, 10, 3, 3, 4, 8, 2, 1,\n", 2, 28, "layer[0].Stride width", "one stride"},
      {h + "c1, 10, 10, 3, 3, 4, 8, 1, 3:2,\n", 2, 28, "layer[0].Sparsity", "N <= M"},
      {h + "c1, 10, 10, 3, 3, 4, 8, 1, 1, 1,\n", 2, 28, "layer[0]", "got 10"},
      {"Layer, M, N, K,\ng, 4, 0, 8,\n", 2, 7, "layer[0].N", "at least 1"},
      {"Layer, M, N, K,\ng, 4, 8,\n", 2, 7, "layer[0]", "expected 4 fields"},
      {"Name, A, B, C,\n", 1, 7, "header[1]", "expected column 'IFMAP Height'"},
      {"Layer name\tIFMAP Height\tIFMAP Width\n", 1, 1, "header", "comma-separated"},
      {"Layer, M, X, K,\n", 1, 11, "header[2]", "expected column 'N'"},
      {h, 1, 1, "layer[0]", "no layers"},
      {"", 0, 0, "header", "empty topology"},
      {h + "c1, 10, 10, 3, 3, 99999999999, 8, 1,\n", 2, 19, "layer[0].Channels", "too large"},
  };
  for (const Bad& b : cases) {
    try {
      text(b.csv);
      ADD_FAILURE() << "accepted: " << b.csv;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.where().file, "t.csv");
      EXPECT_EQ(e.where().line, b.line) << e.what();
      EXPECT_EQ(e.where().column, b.column) << e.what();
      EXPECT_EQ(e.where().yaml_path, b.path) << e.what();
      EXPECT_NE(e.message().find(b.says), std::string::npos) << e.what();
    }
  }
}

TEST(ScalesimTopology, FileAndOptionErrors) {
  EXPECT_THROW(build(kData + "missing.csv", {}), ConfigError);
  EXPECT_THROW(build(kData, {}), ConfigError);  // a directory (no .csv: an unknown workload)
  WorkloadOptions o;
  o.given = {"--seq"};
  try {
    build(kData + "v3_Resnet18.csv", o);
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.where().yaml_path, "--seq");
  }
  EXPECT_EQ(optionsOf("x.csv"), (std::vector<std::string>{"--batch", "--dtype"}));
}

}  // namespace
}  // namespace tessel::models
