#include "reports/html/palette.h"

#include <array>
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

}  // namespace tessel::reports::html
