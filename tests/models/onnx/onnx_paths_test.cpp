// External data may only come from inside the model's folder (the ONNX spec's rule): an absolute
// location, one climbing out with `..`, or a symbolic link in the folder pointing outside is
// refused at import, naming the model, the tensor and the location; nothing outside is read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/onnx/import.h"
#include "tests/models/onnx/onnx_fixture.h"
#include "util/error.h"

namespace tessel::models::onnx::test {
namespace {

namespace fs = std::filesystem;

// A folder holding `secret.bin` (6 floats) beside a folder `model/` for the model itself.
struct Folders {
  std::string outside = tempPath("_outside");
  std::string model_dir = tempPath("_model");
  Folders() {
    fs::create_directories(outside);
    fs::create_directories(model_dir + "/weights");
    const float w[6] = {1, 2, 3, 4, 5, 6};
    std::ofstream(outside + "/secret.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(w), sizeof w);
    std::ofstream(model_dir + "/weights/w.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(w), sizeof w);
  }
  ~Folders() {
    std::error_code ec;
    fs::remove_all(outside, ec);
    fs::remove_all(model_dir, ec);
  }
  // A MatMul whose weight W is external data at `location`, written into model/.
  std::string model(const std::string& location) const {
    ModelBuilder b;
    b.input("x", {int64_t{2}, int64_t{3}});
    b.initExternal("W", {3, 2}, location);
    b.node("MatMul", {"x", "W"}, {"y"});
    b.output("y");
    return b.write(model_dir + "/model.onnx");
  }
};

// The import's ConfigError, or "" when it imports.
std::string importError(const std::string& path) {
  try {
    importFile(path, {});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

void expectRefused(const std::string& message, const std::string& model, const std::string& location,
                   const std::string& why) {
  EXPECT_NE(message.find(model), std::string::npos) << message;
  EXPECT_NE(message.find("initializer 'W'"), std::string::npos) << message;
  EXPECT_NE(message.find("'" + location + "'"), std::string::npos) << message;
  EXPECT_NE(message.find(why), std::string::npos) << message;
}

TEST(OnnxPaths, AnAbsoluteExternalLocationIsRefused) {
  const Folders f;
  const std::string location = f.outside + "/secret.bin";
  const std::string model = f.model(location);
  expectRefused(importError(model), model, location, "is an absolute path");
}

TEST(OnnxPaths, AnExternalLocationClimbingOutIsRefused) {
  const Folders f;
  const std::string location = "weights/../../" + fs::path(f.outside).filename().string() + "/secret.bin";
  const std::string model = f.model(location);
  expectRefused(importError(model), model, location, "climbs out of the folder");
}

TEST(OnnxPaths, ASymlinkInTheFolderPointingOutsideIsRefused) {
  const Folders f;
  fs::create_symlink(f.outside + "/secret.bin", f.model_dir + "/link.bin");
  const std::string model = f.model("link.bin");
  expectRefused(importError(model), model, "link.bin", "symbolic link");
  // A linked folder is followed too.
  fs::create_directory_symlink(f.outside, f.model_dir + "/linked");
  const std::string through_folder = f.model("linked/secret.bin");
  expectRefused(importError(through_folder), through_folder, "linked/secret.bin", "symbolic link");
}

TEST(OnnxPaths, ARelativeLocationInsideTheFolderIsRead) {
  const Folders f;
  const Graph g = importFile(f.model("weights/./w.bin"), {});
  ASSERT_TRUE(g.weight_values);
  EXPECT_EQ(*g.weight_values->values("W"), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace tessel::models::onnx::test
