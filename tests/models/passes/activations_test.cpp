// GELU (erf and tanh forms), SiLU and HardSwish recognition.
#include <gtest/gtest.h>

#include "models/passes/recognize.h"
#include "tests/models/passes/decomposed.h"
#include "tests/models/passes/pass_checks.h"

namespace tessel::models::testing {
namespace {

TEST(GeluPattern, ErfFormInEveryAssociationOrder) {
  for (Assoc assoc :
       {Assoc::XBracketThenHalf, Assoc::XTimesHalfBracket, Assoc::HalfXTimesBracket}) {
    for (bool mul_by_inverse : {false, true}) {
      SCOPED_TRACE(::testing::Message()
                   << "assoc " << static_cast<int>(assoc) << " inverse " << mul_by_inverse);
      Decomposed d;
      const int x = detail::linear(d.b, "fc1", d.input("x"), 64, true);
      detail::linear(d.b, "fc2", geluErf(d, "gelu", x, assoc, mul_by_inverse), 16, true);
      const Graph r = recognizePatterns(d.g);
      expectSound(d.g, r);
      ASSERT_EQ(r.ops().size(), 3u);
      const Op& gelu = opNamed(r, "gelu.out");
      EXPECT_EQ(gelu.kind, OpKind::Gelu);
      EXPECT_FALSE(gelu.gelu_tanh);
      ASSERT_EQ(gelu.inputs.size(), 1u);
      EXPECT_EQ(r.tensor(gelu.inputs[0]).name, "fc1");
      // sqrt 2, 1 and 0.5 are folded away; the model's parameter count is unchanged.
      EXPECT_EQ(r.parameterCount(), d.g.parameterCount());
    }
  }
}

TEST(GeluPattern, TanhFormWithPowOrProductsInAnyOrder) {
  for (Cube cube : {Cube::Pow, Cube::XTimesSquare, Cube::KappaFirst}) {
    for (Assoc assoc :
         {Assoc::XBracketThenHalf, Assoc::XTimesHalfBracket, Assoc::HalfXTimesBracket}) {
      SCOPED_TRACE(::testing::Message()
                   << "cube " << static_cast<int>(cube) << " assoc " << static_cast<int>(assoc));
      Decomposed d;
      const int x = d.input("x");
      d.op("after", OpKind::Relu, {geluTanh(d, "gelu", x, cube, assoc)});
      const Graph r = recognizePatterns(d.g);
      expectSound(d.g, r);
      ASSERT_EQ(r.ops().size(), 2u);
      EXPECT_EQ(opNamed(r, "gelu.out").kind, OpKind::Gelu);
      EXPECT_TRUE(opNamed(r, "gelu.out").gelu_tanh);
      EXPECT_EQ(opNamed(r, "gelu.out").inputs, std::vector<int>{x});
    }
  }
}

TEST(GeluPattern, ATanhArgumentWithoutTheCubeIsLeftAlone) {
  Decomposed d;
  const int x = d.input("x");
  geluTanh(d, "gelu", x, Cube::Pow, Assoc::HalfXTimesBracket);
  d.consts->values_by_name["gelu.three"] = {2.0f};  // x^2: not GELU's polynomial
  EXPECT_EQ(opList(recognizePatterns(d.g)), opList(d.g));
}

TEST(GeluPattern, AWrongConstantIsLeftAlone) {
  Decomposed d;
  const int x = d.input("x");
  d.op("after", OpKind::Relu, {geluErf(d, "gelu", x, Assoc::XBracketThenHalf, false, 0.4f)});
  const Graph r = recognizePatterns(d.g);
  EXPECT_EQ(opList(r), opList(d.g));
  EXPECT_TRUE(r.warnings.empty());
}

TEST(GeluPattern, ASecondReaderOfTheErfKeepsTheOps) {
  Decomposed d;
  const int x = d.input("x");
  geluErf(d, "gelu", x, Assoc::XBracketThenHalf, false);
  d.op("peek", OpKind::Relu, {d.g.op(d.g.findOp("gelu.erf")).outputs[0]});
  const Graph r = recognizePatterns(d.g);
  EXPECT_EQ(opList(r), opList(d.g));
}

TEST(GeluPattern, UnknownConstantsKeepTheOps) {
  Decomposed d;
  const int x = d.input("x");
  geluErf(d, "gelu", x, Assoc::XBracketThenHalf, false);
  d.consts->values_by_name.erase("gelu.half");
  const Graph r = recognizePatterns(d.g);
  EXPECT_EQ(opList(r), opList(d.g));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("gelu.half"), std::string::npos);
}

TEST(SiluPattern, XTimesSigmoidEitherOrder) {
  for (bool sigmoid_first : {false, true}) {
    Decomposed d;
    const int x = d.input("x");
    const int s = d.op("sig", OpKind::Sigmoid, {x});
    d.op("after", OpKind::Relu, {sigmoid_first ? d.mul("silu", s, x) : d.mul("silu", x, s)});
    const Graph r = recognizePatterns(d.g);
    expectSound(d.g, r);
    ASSERT_EQ(r.ops().size(), 2u);
    EXPECT_EQ(opNamed(r, "silu").kind, OpKind::Silu);
    EXPECT_EQ(opNamed(r, "silu").inputs, std::vector<int>{0});
  }
}

TEST(SiluPattern, SigmoidOfAnotherTensorIsAGate) {
  Decomposed d;
  const int x = d.input("x");
  const int y = d.input("y");
  d.mul("gate", x, d.op("sig", OpKind::Sigmoid, {y}));  // x * sigmoid(y): GLU-style, not SiLU
  EXPECT_EQ(opList(recognizePatterns(d.g)), opList(d.g));
}

TEST(HardSwishPattern, TorchsHardSigmoidTimesX) {
  Decomposed d;
  const int x = d.input("x");
  const int h = d.elt("hsig", "hardsigmoid", {x});
  d.g.op(d.g.findOp("hsig")).elt.alpha = 1.0f / 6.0f;
  d.g.op(d.g.findOp("hsig")).elt.beta = 0.5f;
  d.op("after", OpKind::Relu, {d.mul("hswish", h, x)});
  const Graph r = recognizePatterns(d.g);
  expectSound(d.g, r);
  ASSERT_EQ(r.ops().size(), 2u);
  EXPECT_EQ(opNamed(r, "hswish").kind, OpKind::HardSwish);
}

TEST(HardSwishPattern, OnnxDefaultHardSigmoidIsAnotherFunction) {
  Decomposed d;
  const int x = d.input("x");
  const int h = d.elt("hsig", "hardsigmoid", {x});
  d.g.op(d.g.findOp("hsig")).elt.alpha = 0.2f;  // ONNX's default: not relu6(x + 3) / 6
  d.g.op(d.g.findOp("hsig")).elt.beta = 0.5f;
  d.mul("hswish", x, h);
  EXPECT_EQ(opList(recognizePatterns(d.g)), opList(d.g));
}

}  // namespace
}  // namespace tessel::models::testing
