// Bad input: every case is a ConfigError with a message that says what is wrong, never a crash.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/onnx/import.h"
#include "models/workload.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "util/error.h"

namespace tessel::models::onnx::test {
namespace {

std::string errorOf(const std::string& path, WorkloadOptions o = {}) {
  try {
    importFile(path, o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string errorOf(const ModelBuilder& b, WorkloadOptions o = {}) { return errorOf(b.write(), o); }

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

ModelBuilder reluModel() {
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{3}});
  b.node("Relu", {"x"}, {"y"});
  b.output("y");
  return b;
}

TEST(OnnxErrors, MissingFileAndDirectory) {
  EXPECT_HAS(errorOf("/nonexistent/model.onnx"), "no such file");
  const std::string dir = tempPath(".onnx");
  std::filesystem::create_directory(dir);
  EXPECT_HAS(errorOf(dir), "is a directory");
  std::filesystem::remove(dir);
}

TEST(OnnxErrors, GarbageTruncatedAndEmpty) {
  EXPECT_HAS(errorOf(writeBytes("this is not a protobuf at all \xff\xff\xff")),
             "not an ONNX model");
  EXPECT_HAS(errorOf(writeBytes("")), "not an ONNX model");
  const std::string bytes = reluModel().m.SerializeAsString();
  EXPECT_HAS(errorOf(writeBytes(bytes.substr(0, bytes.size() / 2))), "not an ONNX model");
  // Through models::build, as the CLI calls it.
  EXPECT_THROW(models::build(writeBytes("garbage"), {}), ConfigError);
}

TEST(OnnxErrors, NewerThanSupported) {
  ModelBuilder ir(13, 11);
  ir.input("x", {int64_t{2}});
  ir.node("Relu", {"x"}, {"y"});
  ir.output("y");
  EXPECT_HAS(errorOf(ir), "supported: IR ≤ 8, opset ≤ 17");
  ModelBuilder op(25);
  op.input("x", {int64_t{2}});
  op.node("Relu", {"x"}, {"y"});
  op.output("y");
  EXPECT_HAS(errorOf(op), "opset 25");
}

TEST(OnnxErrors, NegativeDimAndBadBindings) {
  ModelBuilder b;
  b.input("x", {int64_t{-2}, int64_t{3}});
  b.node("Relu", {"x"}, {"y"});
  b.output("y");
  EXPECT_HAS(errorOf(b), "negative dimension");
  WorkloadOptions o;
  o.dims = {{"seq", 4}};
  EXPECT_HAS(errorOf(reluModel(), o), "no symbolic dimension 'seq'");
  ModelBuilder s;
  s.input("x", {int64_t{1}, std::string("seq")});
  s.node("Relu", {"x"}, {"y"});
  s.output("y");
  o.dims = {{"seq", 0}};
  EXPECT_HAS(errorOf(s, o), "at least 1");
  WorkloadOptions batch;  // a fixed batch: an explicit --batch would be silently ignored
  batch.batch = 4;
  batch.given = {"--batch"};
  EXPECT_HAS(errorOf(reluModel(), batch), "--batch 4 does not apply");
}

// Options an imported model does not read are errors through models::build, not ignored: its
// shapes are its own (a sequence length is a --dim).
TEST(OnnxErrors, OptionsAnOnnxModelDoesNotUseAreErrors) {
  const std::string path = reluModel().write();
  for (const char* option : {"--seq", "--phase", "--image", "--layers", "--expert-load"}) {
    WorkloadOptions o;
    o.given = {option};
    try {
      models::build(path, o);
      ADD_FAILURE() << option << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.where().yaml_path, option);
      EXPECT_HAS(std::string(e.what()), "does not use");
    }
  }
}

TEST(OnnxErrors, CycleAndMissingProducer) {
  ModelBuilder b;
  b.input("x", {int64_t{2}});
  b.node("Add", {"x", "b"}, {"a"});
  b.node("Relu", {"a"}, {"b"});
  b.output("b");
  EXPECT_HAS(errorOf(b), "cycle");
  ModelBuilder m;
  m.input("x", {int64_t{2}});
  m.node("Add", {"x", "nowhere"}, {"y"});
  m.output("y");
  EXPECT_HAS(errorOf(m), "node 'y' (Add): reads 'nowhere'");
}

TEST(OnnxErrors, ShapeThatCannotBeInferredNamesTheNode) {
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{6}});
  b.input("target", {int64_t{2}}, 7);  // a shape known only at run time
  b.node("Reshape", {"x", "target"}, {"r"}, "reshape1");
  b.node("Relu", {"r"}, {"y"});
  b.output("y");
  EXPECT_HAS(errorOf(b), "node 'reshape1' (Reshape)");
  EXPECT_HAS(errorOf(b), "cannot be inferred");
}

TEST(OnnxErrors, CountsThatOverflowNameTheNode) {
  ModelBuilder b;
  b.input("x", {int64_t{1} << 30, int64_t{1} << 20});
  b.initExternal("W", {int64_t{1} << 20, int64_t{1} << 20}, "w.bin");
  b.node("MatMul", {"x", "W"}, {"y"}, "huge");
  b.output("y");
  EXPECT_HAS(errorOf(b), "node 'huge' (MatMul)");
}

TEST(OnnxErrors, BadOperandShapesNameTheNode) {
  ModelBuilder b;
  b.input("x", {int64_t{2}, int64_t{3}});
  b.init("W", {4, 5});
  b.node("MatMul", {"x", "W"}, {"y"}, "mm");
  b.output("y");
  EXPECT_HAS(errorOf(b), "node 'mm' (MatMul)");
}

}  // namespace
}  // namespace tessel::models::onnx::test
