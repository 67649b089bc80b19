// util/paths.h: the one resolver for paths written inside input files.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "tests/util/error_of.h"
#include "util/paths.h"

namespace tessel {
namespace {

namespace fs = std::filesystem;
using testing::errorOf;

// A fresh folder with a file a.bin and a subfolder sub/ holding b.bin, removed afterwards.
struct Folder {
  std::string dir;
  Folder() {
    char pattern[] = "/tmp/tessel_paths_test_XXXXXX";
    dir = ::mkdtemp(pattern);
    fs::create_directory(dir + "/sub");
    std::ofstream(dir + "/a.bin") << "a";
    std::ofstream(dir + "/sub/b.bin") << "b";
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

TEST(Paths, RelativePathsInsideResolveFromTheFolder) {
  const Folder f;
  EXPECT_EQ(resolveInside(f.dir, "a.bin", "x"), f.dir + "/a.bin");
  EXPECT_EQ(resolveInside(f.dir, "sub/../sub/./b.bin", "x"), f.dir + "/sub/b.bin");
  EXPECT_EQ(resolveInside(f.dir, "missing.bin", "x"), f.dir + "/missing.bin");  // may not exist
  fs::create_symlink("sub/b.bin", f.dir + "/inner_link");  // a link that stays inside is fine
  EXPECT_EQ(resolveInside(f.dir, "inner_link", "x"), f.dir + "/inner_link");
}

TEST(Paths, AbsoluteAndClimbingPathsAreRefusedWithTheirLocation) {
  const Folder f;
  const SourceLocation where{"model.onnx", 3, 7, ""};
  const std::string absolute = errorOf([&] { resolveInside(f.dir, "/etc/hostname", "weights", where); });
  EXPECT_NE(absolute.find("model.onnx:3:7: weights '/etc/hostname' is an absolute path"),
            std::string::npos) << absolute;
  EXPECT_NE(absolute.find("inside its own folder ('" + f.dir + "')"), std::string::npos) << absolute;
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "../a.bin", "w"); }).find("climbs out"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "sub/../../a.bin", "w"); }).find("climbs out"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "", "w"); }).find("is empty"), std::string::npos);
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "sub/..", "w"); }).find("the folder itself"),
            std::string::npos);
}

TEST(Paths, SymbolicLinksLeavingTheFolderAreRefused) {
  const Folder f;
  const Folder other;
  fs::create_symlink(other.dir + "/a.bin", f.dir + "/out_link");
  fs::create_directory_symlink(other.dir, f.dir + "/out_dir");
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "out_link", "w"); }).find("symbolic link"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "out_dir/sub/b.bin", "w"); }).find("symbolic link"),
            std::string::npos);
  // Even a link to a file that does not exist yet.
  fs::create_symlink(other.dir + "/later.bin", f.dir + "/dangling");
  EXPECT_NE(errorOf([&] { resolveInside(f.dir, "dangling", "w"); }).find("symbolic link"),
            std::string::npos);
}

TEST(Paths, UserConfigsNameFilesBesideThemOrAnywhereByAbsolutePath) {
  EXPECT_EQ(resolveBeside("configs/sweeps/s.yaml", "../arch/a.yaml"), "configs/arch/a.yaml");
  EXPECT_EQ(resolveBeside("configs/sweeps/s.yaml", "/opt/a.yaml"), "/opt/a.yaml");
  EXPECT_EQ(resolveBeside("s.yaml", "a.yaml"), "a.yaml");
  EXPECT_EQ(folderOf("dir/model.onnx"), "dir");
  EXPECT_EQ(folderOf("model.onnx"), "");
}

}  // namespace
}  // namespace tessel
