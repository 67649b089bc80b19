#include "util/input_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "util/budget.h"
#include "util/error.h"

namespace tessel {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw ConfigError({path, 0, 0, ""}, message);
}

std::string sizeText(size_t bytes) {
  return bytes >= (size_t{1} << 30) ? std::to_string(bytes >> 30) + " GiB"
                                    : std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

void checkInputFile(const std::string& path, const std::string& expected) {
  if (path.empty()) fail("", "no file name given (an empty path), expected " + expected);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(path, "is a directory, expected " + expected);
  if (!std::filesystem::exists(path, ec)) fail(path, "no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open file (permission denied?)");
}

std::string readInputFile(const std::string& path, const std::string& expected, size_t max_bytes) {
  checkInputFile(path, expected);
  std::error_code ec;  // the whole file is held: it must fit in memory (a device reads to max_bytes)
  if (const auto size = std::filesystem::file_size(path, ec); !ec && size <= max_bytes) {
    budget::checkCount(static_cast<int64_t>(size), 1, "bytes of " + expected, {path, 0, 0, ""});
  }
  std::ifstream in(path, std::ios::binary);
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      fail(path, "is larger than " + sizeText(max_bytes) + "; expected " + expected);
    }
  }
  if (in.bad()) fail(path, "cannot read file");
  return text;
}

int64_t lineCount(const std::string& text) {
  return static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')) +
         (text.empty() || text.back() == '\n' ? 0 : 1);
}

}  // namespace tessel
