// The ops the SFU or the host may run and the host's default cycles per element of each: the
// table behind sfuOpNames(), layoutOpDefaults() and the default of host.cycles_per_element.
#include "arch/op_costs.h"

#include "arch/building.h"
#include "util/units.h"

namespace tessel::arch {

// A server core's vector unit: a transpose gathers about one element per cycle (strided
// accesses), pad and slice copy about four, the uint8 -> int8 shift (x ^ 0x80) xors bytes about
// eight per cycle (assumed, like the other host defaults).
// The ops of today's networks, all assumed (a server core's 8-wide SIMD unit): mul and the
// rotary embedding (two multiplies and an add per element) about one element per cycle; gather
// and concat copy like slice; a reduction one element per cycle; the generic elementwise
// function (exp, erf, div, ...) 4 cycles; sigmoid and silu an exponential and a divide, 20
// like the other transcendental defaults (gelu 30); rmsnorm a square-sum pass and a scale pass,
// 20; hardswish a clamp and two multiplies, 2; routing a softmax and a top-k, 40 like softmax.
const std::vector<std::pair<std::string, double>>& layoutOpDefaults() {
  static const std::vector<std::pair<std::string, double>> ops = {
      {"transpose", 1}, {"pad", 0.25},      {"slice", 0.25},  {"uint8_shift", 0.125},
      {"mul", 1},       {"elementwise", 4}, {"sigmoid", 20},  {"silu", 20},
      {"hardswish", 2}, {"rmsnorm", 20},    {"rope", 1},      {"gather", 0.25},
      {"reduce", 1},    {"concat", 0.25},   {"moe_route", 40}};
  return ops;
}
const std::vector<std::string>& sfuOpNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"softmax",  "layernorm",  "gelu",    "add",     "relu",
                                  "quantize", "dequantize", "maxpool", "avgpool", "batchnorm"};
    for (const auto& op : layoutOpDefaults()) n.push_back(op.first);
    return n;
  }();
  return names;
}

// Given entries replace the defaults for those ops only (maps merge over their default).
Apply costsApply() {
  return [](Building& b, const Value& v) {
    auto& costs = b.acc.host.cycles_per_element;
    for (const auto& [op, cycles] : v.pairs) {
      bool found = false;
      for (auto& entry : costs) {
        if (entry.first == op) entry.second = cycles, found = true;
      }
      if (!found) costs.emplace_back(op, cycles);
    }
  };
}

// The default of host.cycles_per_element, as YAML.
std::string hostCostDefaults() {
  std::string text =
      "{quantize: 2, dequantize: 2, softmax: 40, layernorm: 30, gelu: 30, add: 1, relu: 1, "
      "maxpool: 1, avgpool: 1, batchnorm: 2";
  for (const auto& [op, cycles] : layoutOpDefaults())
    text += ", " + op + ": " + units::formatNumber(cycles);
  return text + "}";
}

}  // namespace tessel::arch
