// SCALE-Sim topology CSVs (models/scalesim/topology.h): SCALE-Sim's shipped files import with the
// MACs SCALE-Sim computes, the format variants read alike, and bad input is located.
#include "models/scalesim/topology.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// Output = ceil((IFMAP - filter + stride) / stride) (SCALE-Sim's topo_calc_hyperparams);
// MACs = P x Q x R x S x C x K.
TEST(ScalesimTopology, Resnet18) {
  const Graph g = file("v3_Resnet18.csv");  // no newline after the last line
  ASSERT_EQ(g.ops().size(), 21u);
  // Conv1 224,224,7,7,3,64,2: ceil((224 - 7 + 2) / 2) = 110 (pad 1: (217 + 2) / 2 + 1);
  // 110 x 110 x 7*7*3 x 64 = 12100 x 9408.
  EXPECT_EQ(macsOf(g, "Conv1"), 113836800);
  EXPECT_EQ(g.op(g.findOp("Conv1")).conv.p, 110);
  EXPECT_EQ(g.op(g.findOp("Conv1")).conv.q, 110);
  EXPECT_EQ(g.op(g.findOp("Conv1")).conv.pad, 1);
  // Conv3_s 56,56,1,1,64,128,2: ceil((56 - 1 + 2) / 2) = 29; 29 x 29 x 64 x 128.
  EXPECT_EQ(macsOf(g, "Conv3_s"), 6889472);
  // FC 1,1,1,1,512,1000,1: 512 x 1000.
  EXPECT_EQ(macsOf(g, "FC"), 512000);
  EXPECT_EQ(g.op(0).kind, OpKind::Conv2d);
  EXPECT_TRUE(g.warnings.empty());
}

TEST(ScalesimTopology, PaddedConv1) {
  // ResNet conv1 with its padding folded in: 230,230,7,7,3,64,2 -> SCALE-Sim's
  // ceil((230 - 7 + 2) / 2) = 113 (not floor((230 - 7) / 2) + 1 = 112): 113 x 113 outputs x
  // 7*7*3 x 64 = 12769 x 9408 = 120,130,752.
  const Graph g = text(std::string(kConvHeader) + "conv1, 230, 230, 7, 7, 3, 64, 2,\n");
  EXPECT_EQ(macsOf(g, "conv1"), 120130752);
}

TEST(ScalesimTopology, MobilenetAlexnetYolo) {
  const Graph m = file("v3_mobilenet.csv");
  ASSERT_EQ(m.ops().size(), 27u);
  // Conv1 224,224,3,3,3,32,2: ceil((224 - 3 + 2) / 2) = 112; 112 x 112 x 27 x 32.
  EXPECT_EQ(macsOf(m, "Conv1"), 10838016);
  // Conv2 112,112,3,3,32,1,1 (one filter, as the file writes depthwise): 110 x 110 x 9 x 32.
  EXPECT_EQ(macsOf(m, "Conv2"), 3484800);
  const Graph a = file("v2_alexnet.csv");  // spaces before the commas
  ASSERT_EQ(a.ops().size(), 5u);
  // Conv1 224,224,11,11,3,96,4: ceil((224 - 11 + 4) / 4) = 55 (pad 2: (213 + 4) / 4 + 1);
  // 55 x 55 x 363 x 96 = 3025 x 34848.
  EXPECT_EQ(macsOf(a, "Conv1"), 105415200);
  EXPECT_EQ(a.op(0).conv.pad, 2);
  EXPECT_EQ(file("v2_yolo_tiny.csv").ops().size(), 9u);  // "1, " then a space: still 8 fields
}

// ceilPad makes the floored conv output SCALE-Sim's ceiling, for every H, R <= H, stride <= 20,
// both through ceilPad and through the reader (p on (H, R), q on (H + 3, R): another pad).
TEST(ScalesimTopology, CeilOutputBruteForce) {
  std::string csv = kConvHeader;
  std::vector<int64_t> want_p, want_q;
  for (int64_t h = 1; h <= 20; ++h) {
    for (int64_t r = 1; r <= h; ++r) {
      for (int64_t st = 1; st <= 20; ++st) {
        const int64_t ceil_p = (h - r + st + st - 1) / st, pad = scalesim::ceilPad(h, r, st);
        ASSERT_EQ((h - r + 2 * pad) / st + 1, ceil_p) << h << " " << r << " " << st;
        ASSERT_EQ(pad, (h - r) % st == 0 ? 0 : (st - (h - r) % st + 1) / 2);
        EXPECT_LT(2 * pad, st + 1);
        csv += "c, " + std::to_string(h) + ", " + std::to_string(h + 3) + ", " +
               std::to_string(r) + ", " + std::to_string(r) + ", 1, 1, " + std::to_string(st) +
               ",\n";
        want_p.push_back(ceil_p);
        want_q.push_back((h + 3 - r + st + st - 1) / st);
      }
    }
  }
  const Graph g = text(csv);
  ASSERT_EQ(g.ops().size(), want_p.size());
  for (size_t i = 0; i < want_p.size(); ++i) {
    ASSERT_EQ(g.op(static_cast<int>(i)).conv.p, want_p[i]) << i;
    ASSERT_EQ(g.op(static_cast<int>(i)).conv.q, want_q[i]) << i;
    ASSERT_EQ(g.op(static_cast<int>(i)).macs, want_p[i] * want_q[i] * 1 * 1 *
                                                  g.op(static_cast<int>(i)).conv.r *
                                                  g.op(static_cast<int>(i)).conv.s)
        << i;
  }
  // Height and width needing different pads: 10 x 11, 3 x 3, stride 2 -> pad_h 1 (d = 7),
  // pad_w 0 (d = 8); P = ceil(9 / 2) = 5, Q = 10 / 2 = 5. ConvShape.pad holds the height's.
  const Op& op = text(std::string(kConvHeader) + "c, 10, 11, 3, 3, 1, 1, 2,\n").op(0);
  EXPECT_EQ(op.conv.p, 5);
  EXPECT_EQ(op.conv.q, 5);
  EXPECT_EQ(op.conv.pad, 1);
  EXPECT_EQ(op.macs, 5 * 5 * 9);
}

// SCALE-Sim's shipped files that earlier tessel refused: spacers, notes past the 9th column, tabs,
// comments.
TEST(ScalesimTopology, ShippedQuirkFiles) {
  // Resnet50.csv: header ",,,Eh,Ew,e2", a spacer ",,,,,,,,,,,,", notes ",,110,110,12100".
  const Graph r = file("v2_Resnet50.csv");
  ASSERT_EQ(r.ops().size(), 54u);
  // Conv1 224,224,7,7,3,64,2: 110 x 110 (the file's own Eh, Ew) x 7*7*3 x 64 = 113,836,800.
  EXPECT_EQ(macsOf(r, "Conv1"), 113836800);
  EXPECT_EQ(r.op(0).conv.p, 110);
  // CB3a_1 56,56,1,1,256,128,2: ceil((56 - 1 + 2) / 2) = 29; 29 x 29 x 256 x 128.
  EXPECT_EQ(macsOf(r, "CB3a_1"), 27557888);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("past the 9th"), std::string::npos);
  // Transformer_short.csv: a ",,,,,,,," spacer, "1, " endings.
  const Graph t = file("v2_Transformer_short.csv");
  ASSERT_EQ(t.ops().size(), 9u);
  // Embedding 512,1,1,1,1,33708,1: 512 x 1 outputs x 1 tap x 33708 filters.
  EXPECT_EQ(macsOf(t, "Embedding"), 17258496);
  EXPECT_EQ(macsOf(t, "FFN1"), 512 * 2048);  // 1,1,1,1,512,2048,1
  EXPECT_TRUE(t.warnings.empty());
  // UNet_maestro.csv: tab-separated throughout; Conv5_1 and TR_Conv3 repeat (a warning each).
  const Graph u = file("v2_UNet_maestro.csv");
  ASSERT_EQ(u.ops().size(), 23u);
  // Conv1_1 572,572,3,3,1,64,1: 570 x 570 x 9 x 1 x 64.
  EXPECT_EQ(macsOf(u, "Conv1_1"), 187142400);
  // Conv1_2 570,570,3,3,64,64,1: 568 x 568 x 9 x 64 x 64.
  EXPECT_EQ(macsOf(u, "Conv1_2"), int64_t{568} * 568 * 9 * 64 * 64);
  EXPECT_EQ(u.warnings.size(), 2u);
  // mobilnet_4k.csv: "#dw" notes where the stride width would be; a blank second line.
  const Graph m = file("v2_mobilnet_4k.csv");
  ASSERT_EQ(m.ops().size(), 28u);
  // Conv1 2160,4096,3,3,3,32,2: ceil(2159 / 2) = 1080 x ceil(4095 / 2) = 2048 x 27 x 32.
  EXPECT_EQ(macsOf(m, "Conv1"), 1911029760);
  // Conv4_dw 1080,2048,3,3,1,1,2,#dw: 540 x 1024 x 9.
  EXPECT_EQ(macsOf(m, "Conv4_dw"), 4976640);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(ScalesimTopology, SpacersCommentsAndTitles) {
  const std::string h = kConvHeader;
  // Spacer rows (all fields empty) vanish; a "#" field ends its row; a comment-only line too.
  const Graph g = text(h + ",,,,,,,,\n , , ,\nc1, 12, 12, 3, 3, 8, 16, 1, #dw note, 7\n" +
                       "# a comment line\nc2, 12, 12, 3, 3, 8, 16, 1,#\n");
  ASSERT_EQ(g.ops().size(), 2u);
  EXPECT_EQ(g.op(0).macs, 10 * 10 * 9 * 8 * 16);
  EXPECT_TRUE(g.warnings.empty());
  // A name with no fields is a section title: skipped with a warning naming its line, and the
  // layers keep counting from 0 without it.
  const Graph s = text(h + "\nAlphaGoZero,\nConv, 19, 19, 3, 3, 17, 256, 1,\nNext, , , ,\n" +
                       "c, 5, 5, 1, 1, 1, 1, 1\n");
  ASSERT_EQ(s.ops().size(), 2u);
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_NE(s.warnings[0].find("t.csv:3:"), std::string::npos) << s.warnings[0];
  EXPECT_NE(s.warnings[0].find("AlphaGoZero"), std::string::npos);
  EXPECT_NE(s.warnings[1].find("t.csv:5:"), std::string::npos) << s.warnings[1];
  // Header whitespace: non-breaking spaces (gpt2.csv), tabs between words, BOM.
  const Graph n = text("\xEF\xBB\xBFLayer name,\xC2\xA0IFMAP Height,\xC2\xA0IFMAP  Width, Filter"
                       "\tHeight, Filter Width, Channels, Num Filter, Strides,\nL, 4, 4, 1, 1, 2, 3, 1,\n");
  EXPECT_EQ(n.op(0).macs, 4 * 4 * 2 * 3);
  // Fields past the 9th: ignored, one warning for the file; empty ones silently.
  const Graph x = text(h + "a, 5, 5, 1, 1, 1, 1, 1, , , 9\nb, 5, 5, 1, 1, 1, 1, 1, 1, x, y\n" +
                       "c, 5, 5, 1, 1, 1, 1, 1,,,,,\n");
  ASSERT_EQ(x.ops().size(), 3u);
  EXPECT_EQ(x.warnings.size(), 1u);
  EXPECT_TRUE(text(h + "c, 5, 5, 1, 1, 1, 1, 1,,,,,\n").warnings.empty());
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

// v3's N:M field makes the layer's weights N:M (timed by the design's sparsity support); the
// dense MAC count stays the layer's.
TEST(ScalesimTopology, SparsityRatiosSetTheWeights) {
  const Graph c = file("v3_sparsity_conv.csv");
  // CONV_1 5,5,3,3,2,6,1 at 2:4: 3 x 3 x 9 x 2 x 6 dense MACs.
  EXPECT_EQ(macsOf(c, "CONV_1"), 972);
  EXPECT_TRUE(c.warnings.empty());
  const auto weights = [](const Graph& g, const std::string& op) {
    for (const auto& o : g.ops()) {
      if (o.name == op) return g.tensor(o.inputs.at(1)).sparsity;
    }
    return Sparsity{};
  };
  EXPECT_EQ(weights(c, "CONV_1"), Sparsity::nm(2, 4));
  const Graph g = file("v3_sparsity_gemm.csv");  // GEMM_1 twice
  ASSERT_EQ(g.ops().size(), 2u);
  EXPECT_EQ(macsOf(g, "GEMM_1"), 3 * 5 * 16);
  EXPECT_EQ(macsOf(g, "GEMM_1#2"), 1 * 5 * 16);
  EXPECT_EQ(weights(g, "GEMM_1"), Sparsity::nm(3, 4));
  EXPECT_EQ(weights(g, "GEMM_1#2"), Sparsity::nm(1, 4));
  const Graph d = text(std::string(kConvHeader) + "c, 5, 5, 3, 3, 2, 6, 1, 1:1,\n");
  EXPECT_TRUE(weights(d, "c").dense());
}

// A repeat's "#N" skips the names the file gives its layers itself.
TEST(ScalesimTopology, RepeatedNamesStayUnique) {
  const Graph g = text(std::string(kConvHeader) +
                       "c#2, 5, 5, 3, 3, 2, 6, 1,\n"
                       "c, 5, 5, 3, 3, 2, 6, 1,\n"
                       "c, 5, 5, 3, 3, 2, 6, 1,\n"
                       "c, 5, 5, 3, 3, 2, 6, 1,\n");
  ASSERT_EQ(g.ops().size(), 4u);
  EXPECT_EQ(g.op(2).name, "c#3");
  EXPECT_EQ(g.op(3).name, "c#4");
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
      {h + "c1, 10, 10, 3, 3, 4, 8, 1, 2:1, 1,\n", 2, 28, "layer[0].Sparsity", "N <= M"},
      {h + "AlphaGoZero,\n", 1, 1, "layer[0]", "no layers"},
      {h + ",,,,,,,,\nLSTM, 1, B, 1, 1, H, H, 1,\n", 3, 10, "layer[0].IFMAP Width",
       "expected a positive integer, got 'B'"},
      {h + "FC, 1, 1, 1, ,1 2, 2, 1,\n", 2, 14, "layer[0].Filter Width", "got nothing"},
      {"Layer, M, N, K,\ng, 4, 0, 8,\n", 2, 7, "layer[0].N", "at least 1"},
      {"Layer, M, N, K,\ng, 4, 8,\n", 2, 7, "layer[0]", "expected 4 fields"},
      {"Name, A, B, C,\n", 1, 7, "header[1]", "expected column 'IFMAP Height'"},
      {"Layer name\tIFMAP Height\tIFMAP Width\n", 1, 1, "header", "3 tab-separated fields"},
      {"Layer name; IFMAP Height; IFMAP Width\n", 1, 1, "header", "1 comma-separated field"},
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
