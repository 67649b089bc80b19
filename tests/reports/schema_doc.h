// Reads the field and column tables of reports/SCHEMA.md so tests can hold the writers to the
// documentation.
#pragma once

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tessel::reports {

// The backticked first cell of each table row in the section that starts with `heading`.
inline std::vector<std::string> schemaPaths(const std::string& heading) {
  std::ifstream in(std::string(TESSEL_SOURCE_DIR) + "/reports/SCHEMA.md");
  std::vector<std::string> paths;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == heading;
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) paths.push_back(line.substr(3, end - 3));
  }
  return paths;
}

// Splits on `sep`, then each pattern part equals the path part, or is "<...>" (any name),
// or ends in "_<...>" / "<...>" after a fixed prefix ("cycles_<cause>" matches "cycles_noc").
inline bool matchesPattern(const std::string& pattern, const std::string& path, char sep) {
  auto split = [sep](const std::string& s) {
    std::vector<std::string> parts;
    std::stringstream ss(s);
    for (std::string part; std::getline(ss, part, sep);) parts.push_back(part);
    return parts;
  };
  const auto p = split(pattern), q = split(path);
  if (p.size() != q.size()) return false;
  for (size_t i = 0; i < p.size(); ++i) {
    const size_t open = p[i].find('<');
    if (open == std::string::npos) {
      if (p[i] != q[i]) return false;
    } else if (q[i].size() <= open || q[i].compare(0, open, p[i], 0, open) != 0) {
      return false;
    }
  }
  return true;
}

// Every node's path in the SCHEMA.md notation: "ops[].traffic[].read.input". Array elements
// themselves ("ops[]") are not listed: the doc describes the array and the elements' fields.
template <class Json>
void jsonPaths(const Json& node, const std::string& path, std::set<std::string>& out) {
  if (!path.empty() && path.back() != ']') out.insert(path);
  const std::string prefix = path.empty() ? "" : path + ".";
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) jsonPaths(child, prefix + key, out);
  } else if (node.is_array()) {
    for (const Json& child : node) jsonPaths(child, path + "[]", out);
  }
}

}  // namespace tessel::reports
