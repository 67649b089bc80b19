#include "util/paths.h"

#include <filesystem>

namespace tessel {
namespace {

namespace fs = std::filesystem;

bool climbsOut(const fs::path& relative) {
  return relative.empty() || *relative.begin() == "..";
}

}  // namespace

std::string folderOf(const std::string& file) { return fs::path(file).parent_path().string(); }

std::string resolveBeside(const std::string& referring_file, const std::string& written) {
  const fs::path given(written);
  if (given.is_absolute() || referring_file.empty()) return written;
  return (fs::path(folderOf(referring_file)) / given).lexically_normal().string();
}

std::string resolveInside(const std::string& base_dir, const std::string& written,
                          const std::string& what, const SourceLocation& where) {
  const std::string folder = base_dir.empty() ? "." : base_dir;
  auto refuse = [&](const std::string& why) {
    throw ConfigError(where, what + " '" + written + "' " + why + "; a file may only name files " +
                                 "inside its own folder ('" + folder + "'), by a relative path");
  };
  const fs::path given(written);
  if (written.empty()) refuse("is empty");
  if (given.is_absolute() || given.has_root_name() || given.has_root_directory()) {
    refuse("is an absolute path");
  }
  const fs::path normal = given.lexically_normal();
  if (normal == ".") refuse("names the folder itself, not a file in it");
  if (climbsOut(normal)) refuse("climbs out of the folder with '..'");
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(folder, ec);
  fs::path target = ec ? fs::path() : fs::weakly_canonical(fs::path(folder) / normal, ec);
  // weakly_canonical keeps a dangling link as written: follow it to where it would point.
  std::error_code absent;  // a path that does not exist is no link (and may be created later)
  for (int hops = 0; !ec && hops < 40 && fs::is_symlink(fs::symlink_status(target, absent)); ++hops) {
    const fs::path link = fs::read_symlink(target, ec);
    target = fs::weakly_canonical(link.is_absolute() ? link : target.parent_path() / link, ec);
  }
  if (ec) refuse("cannot be resolved (" + ec.message() + ")");
  if (climbsOut(target.lexically_relative(root)) || target == root) {
    refuse("leads outside the folder through a symbolic link (to '" + target.string() + "')");
  }
  return (fs::path(base_dir) / normal).string();
}

}  // namespace tessel
