#include "sweep/results_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/run.h"

namespace tessel::sweep {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

[[noreturn]] void failAt(const std::string& path, const std::string& message) {
  throw ConfigError({path, 0, 0, ""}, message);
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFully(int fd, const std::string& text, const std::string& path) {
  size_t off = 0;
  while (off < text.size()) {
    const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failAt(path, std::string("cannot write: ") + std::strerror(errno));
    off += static_cast<size_t>(n);
  }
}

std::vector<std::string> designPaths(const Spec& spec) {
  std::vector<std::string> paths;
  for (const Base& b : spec.bases) paths.push_back(b.path);
  return paths;
}

std::string manifestText(const Spec& spec, const PointSet& points) {
  Json m = {{"schema", "tessel.sweep/1"},
            {"name", spec.name},
            {"spec", spec.path},
            {"spec_hash", spec.hash},
            {"base_arch", spec.bases.front().path},
            {"designs", designPaths(spec)},
            {"engine", spec.engine},
            {"mapper", spec.mapper},
            {"tool_version", sim::toolVersion()},
            {"total_points", static_cast<int64_t>(points.points.size())},
            {"skipped_points", points.skipped},
            {"keys", spec.keys},
            {"metrics", spec.metrics}};
  return m.dump(2) + "\n";
}

std::string manifestHash(const std::string& path) {
  try {
    return Json::parse(readAll(path)).at("spec_hash").get<std::string>();
  } catch (const std::exception&) {
    failAt(path, "is not a sweep manifest (expected JSON with \"spec_hash\")");
  }
}

}  // namespace

void replaceAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) failAt(tmp, std::string("cannot create: ") + std::strerror(errno));
  writeFully(fd, text, tmp);
  if (::fsync(fd) != 0 || ::close(fd) != 0) failAt(tmp, std::string("cannot write: ") + std::strerror(errno));
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    failAt(path, std::string("cannot replace: ") + std::strerror(errno));
  }
}

std::vector<std::string> readResultLines(const std::string& path) {
  std::vector<std::string> lines;
  const std::string text = readAll(path);
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;  // text after the last newline is a torn line: left out
}

ResultsDir ResultsDir::open(const std::string& dir, const Spec& spec, const PointSet& points,
                            bool resume, bool write) {
  ResultsDir r;
  r.dir_ = dir;
  const std::string manifest = (fs::path(dir) / "sweep.json").string();
  const std::string results = (fs::path(dir) / "points.jsonl").string();
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) failAt(dir, "exists and is not a folder");
  const bool has_results = fs::exists(results, ec) && fs::file_size(results, ec) > 0;
  if (has_results && !resume) {
    failAt(dir, "already holds a sweep's results; add --resume to continue it, or choose another -o");
  }
  if (has_results && fs::exists(manifest, ec) && manifestHash(manifest) != spec.hash) {
    failAt(dir, "holds the results of a different spec (or base accelerator); it is left as it is: "
                "choose another -o");
  }
  if (has_results) {
    const std::string text = readAll(results);
    const size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
    int line_no = 0;
    for (const std::string& line : readResultLines(results)) {
      ++line_no;
      Json j;
      try {
        j = Json::parse(line);
      } catch (const std::exception&) {
        failAt(results + ":" + std::to_string(line_no), "is not a JSON result line");
      }
      const int64_t index = j.value("index", int64_t{-1});
      if (index < 0 || index >= static_cast<int64_t>(points.points.size()) ||
          j.value("id", std::string()) != points.points[static_cast<size_t>(index)].id) {
        failAt(results + ":" + std::to_string(line_no),
               "is a point this spec does not have (index " + std::to_string(index) + ")");
      }
      if (r.done_.insert(index).second && j.value("status", std::string()) != "ok") ++r.failed_before_;
    }
    if (write && keep < text.size()) fs::resize_file(results, keep);  // drop a torn last line
  }
  if (!write) return r;
  fs::create_directories(dir, ec);
  if (ec) failAt(dir, "cannot create the folder: " + ec.message());
  if (!has_results) replaceAtomically(manifest, manifestText(spec, points));
  r.fd_ = ::open(results.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (r.fd_ < 0) failAt(results, std::string("cannot open: ") + std::strerror(errno));
  return r;
}

ResultsDir::ResultsDir(ResultsDir&& o) noexcept
    : dir_(std::move(o.dir_)), fd_(o.fd_), done_(std::move(o.done_)), failed_before_(o.failed_before_) {
  o.fd_ = -1;
}

ResultsDir& ResultsDir::operator=(ResultsDir&& o) noexcept {
  std::swap(dir_, o.dir_);
  std::swap(fd_, o.fd_);
  std::swap(done_, o.done_);
  std::swap(failed_before_, o.failed_before_);
  return *this;
}

ResultsDir::~ResultsDir() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultsDir::append(const std::string& line) {
  writeFully(fd_, line + "\n", (fs::path(dir_) / "points.jsonl").string());
}

void ResultsDir::finish() {
  if (fd_ >= 0) ::fsync(fd_);
  std::map<int64_t, std::string> sorted;
  for (const std::string& line : readResultLines((fs::path(dir_) / "points.jsonl").string())) {
    sorted.emplace(Json::parse(line).at("index").get<int64_t>(), line);
  }
  std::string text;
  for (const auto& [index, line] : sorted) text += line + "\n";
  replaceAtomically((fs::path(dir_) / "results.jsonl").string(), text);
}

}  // namespace tessel::sweep
