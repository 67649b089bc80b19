#include "reports/html/palette.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

namespace tessel::reports::html {
namespace {

constexpr std::array<const char*, 10> kSeries = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                                 "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                                 "#9c755f", "#bab0ac"};

template <size_t N>
std::string lookup(const std::array<std::pair<std::string_view, const char*>, N>& table,
                   const std::string& name) {
  for (const auto& [n, c] : table) {
    if (n == name) return c;
  }
  return "#7f7f7f";  // a name from a newer schema: grey rather than a clash
}

}  // namespace

std::string classColor(const std::string& op_class) {
  static constexpr std::array<std::pair<std::string_view, const char*>, 15> kClasses = {{
      {"MatMul", "#4e79a7"},
      {"Conv", "#59a14f"},
      {"Softmax", "#f28e2b"},
      {"LayerNorm", "#b07aa1"},
      {"GELU", "#e15759"},
      {"ResidualAdd", "#76b7b2"},
      {"QuantDequant", "#edc948"},
      {"Pool", "#9c755f"},
      {"Layout", "#ff9da7"},
      {"Activation", "#d37295"},
      {"Elementwise", "#8cd17d"},
      {"RoPE", "#86bcb6"},
      {"Reduce", "#f1ce63"},
      {"Routing", "#a0cbe8"},
      {"Other", "#bab0ac"},
  }};
  return lookup(kClasses, op_class);
}

std::string causeColor(const std::string& cause) {
  static constexpr std::array<std::pair<std::string_view, const char*>, 6> kCauses = {{
      {"compute", "#2e7d32"},
      {"fill_drain", "#9ccc65"},
      {"memory_stall", "#c62828"},
      {"noc", "#ef6c00"},
      {"sfu", "#6a1b9a"},
      {"host", "#455a64"},
  }};
  return lookup(kCauses, cause);
}

std::string seriesColor(size_t i) { return kSeries[i % kSeries.size()]; }

std::string componentColor(const std::string& component) {
  static constexpr std::array<std::pair<std::string_view, const char*>, 14> kComponents = {{
      {"dram", "#e15759"},
      {"l2", "#ff9da7"},
      {"scratchpad", "#4e79a7"},
      {"accumulator", "#76b7b2"},
      {"global_buffer", "#59a14f"},
      {"cluster_buffer", "#8cd17d"},
      {"register_file", "#edc948"},
      {"array", "#f28e2b"},
      {"epilogue", "#ffbe7d"},
      {"noc", "#b07aa1"},
      {"sfu", "#9c755f"},
      {"host", "#455a64"},
      {"static", "#bab0ac"},
      {"all operands", "#7f7f7f"},
  }};
  const std::string c = lookup(kComponents, component);
  if (c != "#7f7f7f" || component == "all operands") return c;
  size_t h = 0;  // a level of another name: a stable colour of its own
  for (const char ch : component) h = h * 31 + static_cast<unsigned char>(ch);
  return seriesColor(h);
}

std::string operandColor(const std::string& operand) {
  static constexpr std::array<std::pair<std::string_view, const char*>, 3> kOperands = {
      {{"input", "#4e79a7"}, {"weight", "#f28e2b"}, {"output", "#59a14f"}}};
  return lookup(kOperands, operand);
}

std::string rampColor(double f) {
  static constexpr std::array<std::array<int, 3>, 5> kRamp = {
      {{253, 231, 37}, {94, 201, 98}, {33, 145, 140}, {59, 82, 139}, {68, 1, 84}}};
  f = std::clamp(std::isfinite(f) ? f : 0.0, 0.0, 1.0) * (kRamp.size() - 1);
  const size_t i = std::min<size_t>(static_cast<size_t>(f), kRamp.size() - 2);
  const double t = f - static_cast<double>(i);
  auto mix = [&](int c) {
    return static_cast<int>(std::lround(kRamp[i][c] + t * (kRamp[i + 1][c] - kRamp[i][c])));
  };
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", mix(0), mix(1), mix(2));
  return buf;
}

}  // namespace tessel::reports::html
