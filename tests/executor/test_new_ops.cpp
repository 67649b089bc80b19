// The FP32 executor against the double reference on each new op kind, alone and broadcasting.
//
// Tolerance 1e-5 (rel L2, and max |error| relative to max |reference|), as for GPT-2 in
// test_reference.cpp: these ops are one or two FP32 roundings (u = 6e-8) per element, the fast
// exp behind sigmoid/SiLU errs < 2e-7 relative, std::pow/erf/tanh/log within a few ulp, an
// RMSNorm row of 64 sums squares with error ~sqrt(64) u = 5e-7, and rope's cos/sin are rounded
// from double once (u each). So every op sits well under 1e-5, while a semantic slip (a wrong
// broadcast axis, a pair rotated the wrong way, eps outside the sqrt) is O(1e-2) or worse.
#include <gtest/gtest.h>

#include <cmath>

#include "ops_fixture.h"
#include "util/error.h"

namespace tessel::kernels {
namespace {

using models::OpKind;
using testing::Builder;
using testing::emitOp;
constexpr double kTol = 1e-5;

TEST(NewOps, MulBroadcastsLikeNumpy) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {2, 3, 4}, DType::FP32);
  const int row = b.input("row", {4}, DType::FP32);
  const int col = b.input("col", {2, 3, 1}, DType::FP32);
  const int mid = b.input("mid", {3, 1}, DType::FP32);
  const int y = emitOp(b, "mul_row", OpKind::Mul, {x, row}, {2, 3, 4});
  const int z = emitOp(b, "mul_col", OpKind::Mul, {col, y}, {2, 3, 4});
  const int w = emitOp(b, "add_mid", OpKind::Add, {z, mid}, {2, 3, 4});
  emitOp(b, "outer", OpKind::Mul, {mid, row}, {3, 4});
  (void)w;
  testing::expectMatchesDouble(g, kTol);
  // Spot values straight from the definition, independent of both implementations.
  const Tensor xs = *testing::opsStore().raw(g, x), rs = *testing::opsStore().raw(g, row);
  const std::vector<float> got = testing::runValues(g, "mul_row");
  EXPECT_EQ(got[1 * 12 + 2 * 4 + 3], xs.f32()[1 * 12 + 2 * 4 + 3] * rs.f32()[3]);
}

TEST(NewOps, ActivationsAndElementwiseFunctions) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {3, 40}, DType::FP32);
  const int y = b.input("y", {40}, DType::FP32);
  const int sg = emitOp(b, "sigmoid", OpKind::Sigmoid, {x}, {3, 40});
  emitOp(b, "silu", OpKind::Silu, {x}, {3, 40});
  emitOp(b, "hardswish", OpKind::HardSwish, {x}, {3, 40});
  auto elt = [&](const std::string& fn, std::vector<int> in, float alpha = 0, float beta = 0,
                 const std::string& name = "") {
    return emitOp(b, name.empty() ? fn : name, OpKind::Elementwise, std::move(in), {3, 40},
                  [&](models::Op& op) {
                    op.elt.fn = fn;
                    op.elt.alpha = alpha;
                    op.elt.beta = beta;
                  });
  };
  for (const char* fn : {"exp", "erf", "tanh", "neg", "abs", "not", "cast"}) elt(fn, {x});
  const int pos = elt("sqrt", {sg});  // sigmoid > 0: sqrt, log, pow and reciprocal stay real
  for (const char* fn : {"log", "reciprocal"}) elt(fn, {pos});
  for (const char* fn : {"sub", "div", "max", "min", "equal", "less", "greater", "and", "or"})
    elt(fn, {x, y});
  elt("pow", {pos, y});
  elt("clip", {x}, -0.5f, 0.7f);
  elt("hardsigmoid", {x}, 0.2f, 0.5f);
  elt("leakyrelu", {x}, 0.1f);
  elt("scale", {x}, 8.0f);  // gemma's embedding scale sqrt(d)
  const int cond = elt("greater", {y, x}, 0, 0, "cond");
  emitOp(b, "where", OpKind::Elementwise, {cond, x, y}, {3, 40},
         [](models::Op& op) { op.elt.fn = "where"; });
  testing::expectMatchesDouble(g, kTol);
}

TEST(NewOps, RmsNormAndRope) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {2, 5, 64}, DType::FP32);
  const int n = emitOp(b, "norm", OpKind::RmsNorm, {x, b.weight("norm.gamma", {64})}, {2, 5, 64},
                       [](models::Op& op) { op.eps = 1e-6f; });
  // Two heads of 16 from column 32 on, rotating 12 of each head (partial rotary, GPT-NeoX).
  emitOp(b, "rope_half", OpKind::Rope, {n}, {2, 5, 64},
         [](models::Op& op) { op.rope = {2, 16, 12, 32, 3, 10000.0, false}; });
  emitOp(b, "rope_inter", OpKind::Rope, {n}, {2, 5, 64},
         [](models::Op& op) { op.rope = {4, 16, 16, 0, 0, 500000.0, true}; });
  testing::expectMatchesDouble(g, kTol);
}

// Rope's first pair at position p turns by exactly p radians: check it by hand.
TEST(NewOps, RopeRotatesByPosition) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {1, 3, 4}, DType::FP32);
  emitOp(b, "rope", OpKind::Rope, {x}, {1, 3, 4},
         [](models::Op& op) { op.rope = {1, 4, 4, 0, 5, 10000.0, false}; });
  const Tensor in = *testing::opsStore().raw(g, x);
  const std::vector<float> got = testing::runValues(g, "rope");
  const double ang = 6.0;  // position_offset 5 + row 1, frequency theta^0 = 1
  const float x0 = in.f32()[4], x2 = in.f32()[6];
  EXPECT_NEAR(got[4], x0 * std::cos(ang) - x2 * std::sin(ang), 1e-6);
  EXPECT_NEAR(got[6], x2 * std::cos(ang) + x0 * std::sin(ang), 1e-6);
}

TEST(NewOps, Reductions) {
  models::Graph g;
  Builder b{g, DType::FP32};
  const int x = b.input("x", {2, 3, 50}, DType::FP32);
  int i = 0;
  for (const char* fn : {"mean", "sum", "max", "min", "l2", "sumsquare"}) {
    emitOp(b, std::string("r_") + fn, OpKind::Reduce, {x}, {2, 1, 50}, [&](models::Op& op) {
      op.reduce = {fn, {1}, true};
    });
    ++i;
  }
  emitOp(b, "r_last", OpKind::Reduce, {x}, {2, 3}, [](models::Op& op) {
    op.reduce = {"mean", {2}, false};
  });
  emitOp(b, "r_two", OpKind::Reduce, {x}, {3}, [](models::Op& op) {
    op.reduce = {"sum", {0, 2}, false};
  });
  const int small = b.input("small", {2, 3}, DType::FP32);
  emitOp(b, "r_prod", OpKind::Reduce, {small}, {1, 1}, [](models::Op& op) {
    op.reduce = {"prod", {}, true};
  });
  testing::expectMatchesDouble(g, kTol);
}

TEST(NewOps, UnsupportedOpsNameThemselves) {
  auto refused = [](const std::function<void(Builder&, int)>& add, const std::string& what) {
    models::Graph g;
    Builder b{g, DType::FP32};
    add(b, b.input("x", {4, 8}, DType::FP32));
    try {
      Executor exec(g, testing::opsStore());
      ADD_FAILURE() << "no error for " << what;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  refused(
      [](Builder& b, int x) {
        emitOp(b, "router", OpKind::MoeRoute, {x}, {4, 8}, [](models::Op& op) {
          op.moe.experts = 8;
          op.moe.top_k = 2;
        });
      },
      "op 'router' (MoeRoute)");
  refused(
      [](Builder& b, int x) {
        const int ids = b.input("ids", {3}, DType::Int32);
        emitOp(b, "dispatch", OpKind::Gather, {x, ids}, {3, 8}, [](models::Op& op) {
          op.layout.axis = 0;
          op.moe.expert = 1;
        });
      },
      "op 'dispatch' (Gather)");
  refused(
      [](Builder& b, int x) {
        emitOp(b, "combine", OpKind::Elementwise, {x, x}, {4, 8},
               [](models::Op& op) { op.elt.fn = "moe_combine"; });
      },
      "op 'combine' (Elementwise)");
  refused(
      [](Builder& b, int x) {
        emitOp(b, "strange", OpKind::Elementwise, {x}, {4, 8},
               [](models::Op& op) { op.elt.fn = "bessel"; });
      },
      "'bessel'");
  refused(
      [](Builder& b, int x) {
        emitOp(b, "unpad", OpKind::Slice, {x}, {4, 6}, [](models::Op& op) { op.layout.axis = 1; });
      },
      "op 'unpad' (Slice)");
}

}  // namespace
}  // namespace tessel::kernels
