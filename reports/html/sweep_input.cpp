#include "reports/html/sweep_input.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace tessel::reports::html {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) badInput(p.string(), "cannot read the file");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

SweepPoint toPoint(const Json& j, const std::string& where) {
  SweepPoint p;
  if (!j.is_object() || !j.contains("index") || !j["index"].is_number_integer()) {
    badInput(where, "expected a sweep point object with an integer \"index\"");
  }
  p.index = j["index"].get<int64_t>();
  p.id = j.value("id", "");
  p.params = j.value("params", Json::object());
  p.numeric = j.value("numeric", Json::object());
  p.ok = j.value("status", "") == "ok";
  p.metrics = j.value("metrics", Json::object());
  p.error = j.value("error", "");
  p.error_kind = j.value("error_kind", "");
  for (const Json& v : j.value("violated", Json::array())) {
    p.violated.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  }
  if (!p.params.is_object() || !p.numeric.is_object() || !p.metrics.is_object()) {
    badInput(where, "expected objects at params, numeric and metrics");
  }
  return p;
}

// One point per line. A sweep cut short may leave its last line half-written: that line is
// skipped; a bad line anywhere else is an error.
std::vector<SweepPoint> readLines(const fs::path& file, bool tolerate_last) {
  std::istringstream in(slurp(file));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  }
  std::vector<SweepPoint> points;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = file.string() + ":" + std::to_string(i + 1);
    Json j;
    try {
      j = Json::parse(lines[i]);
    } catch (const nlohmann::json::exception&) {
      if (tolerate_last && i + 1 == lines.size()) break;
      badInput(where, "not a JSON object (one sweep point per line expected)");
    }
    points.push_back(toPoint(j, where));
  }
  return points;
}

}  // namespace

SweepData readSweep(const std::string& dir) {
  const fs::path meta_path = fs::path(dir) / "sweep.json";
  if (!fs::is_regular_file(meta_path)) {
    badInput(dir, "expected a sweep directory holding sweep.json (`tessel sweep SPEC -o DIR`)");
  }
  SweepData d;
  d.meta = parseJson(slurp(meta_path), meta_path.string());
  if (!d.meta.is_object() || d.meta.value("schema", "") != "tessel.sweep/1") {
    badInput(meta_path.string(), "expected \"schema\": \"tessel.sweep/1\"");
  }
  if (!d.meta.contains("keys") || !d.meta["keys"].is_array()) {
    badInput(meta_path.string(), "expected \"keys\": the swept parameters");
  }
  const fs::path results = fs::path(dir) / "results.jsonl",
                 partial = fs::path(dir) / "points.jsonl";
  const bool complete = fs::exists(results);
  if (!complete && !fs::exists(partial)) {
    badInput(dir, "expected results.jsonl or points.jsonl beside sweep.json");
  }
  d.read_from = complete ? "results.jsonl" : "points.jsonl";
  std::vector<SweepPoint> all = readLines(complete ? results : partial, !complete);
  std::stable_sort(all.begin(), all.end(),
                   [](const SweepPoint& a, const SweepPoint& b) { return a.index < b.index; });
  std::set<int64_t> seen;
  for (SweepPoint& p : all) {
    if (seen.insert(p.index).second) d.points.push_back(std::move(p));  // the first copy wins
  }
  const fs::path summary = fs::path(dir) / "summary.json";
  if (complete && fs::is_regular_file(summary)) {
    d.summary = parseJson(slurp(summary), summary.string());
    if (!d.summary.is_object()) badInput(summary.string(), "expected a JSON object");
  }
  return d;
}

}  // namespace tessel::reports::html
