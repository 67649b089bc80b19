// Writing Timeloop's map.yaml form (timeloop_map.h); the reader is timeloop_map.cpp.
#include <algorithm>
#include <cctype>
#include <string_view>

#include "dataflows/plan.h"
#include "dataflows/timeloop_map.h"
#include "util/error.h"

namespace tessel::dataflows {

using nest::at;

namespace {

// Timeloop's order of a convolution's dims, G (groups) last.
constexpr std::array<nest::Dim, nest::kDims> kWriteOrder{nest::Dim::R, nest::Dim::S, nest::Dim::P,
                                                         nest::Dim::Q, nest::Dim::C, nest::Dim::K,
                                                         nest::Dim::N, nest::Dim::G};
const char* kTensorNames[nest::kTensors] = {"Inputs", "Weights", "Outputs"};

// The dims to write: Timeloop's seven, and G when the problem or the mapping uses it.
std::vector<nest::Dim> dimsOf(const nest::Mapping& m, const nest::Problem& p) {
  bool groups =
      p.of(nest::Dim::G) > 1 || m.rows[at(nest::Dim::G)] > 1 || m.cols[at(nest::Dim::G)] > 1;
  for (const nest::LevelLoops& l : m.levels) {
    groups = groups || l.factor[at(nest::Dim::G)] > 1 || l.spatial[at(nest::Dim::G)] > 1;
  }
  return {kWriteOrder.begin(), kWriteOrder.end() - (groups ? 0 : 1)};
}

std::string factorsText(const nest::Factors& f, const std::vector<nest::Dim>& dims) {
  std::string s;
  for (nest::Dim d : dims) {
    s += (s.empty() ? "" : " ") + std::string(timeloopDimName(d)) + "=" + std::to_string(f[at(d)]);
  }
  return s;
}

// `first` in its order, then the other dims in Timeloop's.
std::string permutationText(const std::vector<nest::Dim>& first,
                            const std::vector<nest::Dim>& dims) {
  std::string s;
  for (nest::Dim d : first) s += timeloopDimName(d);
  for (nest::Dim d : dims) {
    if (std::find(first.begin(), first.end(), d) == first.end()) s += timeloopDimName(d);
  }
  return s;
}

std::string entryHead(const std::string& target, const char* type) {
  return "  - target: " + target + "\n    type: " + type + "\n";
}

std::string temporalEntry(const nest::LevelLoops& l, const std::string& target,
                          const std::vector<nest::Dim>& dims) {
  std::vector<nest::Dim> inner_first(l.order.begin(), l.order.end());
  std::reverse(inner_first.begin(), inner_first.end());
  return entryHead(target, "temporal") + "    factors: " + factorsText(l.factor, dims) +
         "\n    permutation: " + permutationText(inner_first, dims) + "\n";
}

// Dims with a factor > 1 in x go across X (before the split), those in y across Y.
std::string spatialEntry(const nest::Factors& x, const nest::Factors& y, const std::string& target,
                         const std::vector<nest::Dim>& dims, bool fanout_flag) {
  std::vector<nest::Dim> xs, ys;
  nest::Factors f = nest::kOnes;
  for (nest::Dim d : dims) {
    if (x[at(d)] > 1 && y[at(d)] > 1) {
      throw Error(std::string("the mapping unrolls ") + std::string(timeloopDimName(d)) +
                  " across both the array's rows and its columns: Timeloop's form has one "
                  "spatial loop per dim and level");
    }
    if (x[at(d)] > 1) xs.push_back(d);
    if (y[at(d)] > 1) ys.push_back(d);
    f[at(d)] = x[at(d)] * y[at(d)];
  }
  std::vector<nest::Dim> listed = xs;
  listed.insert(listed.end(), ys.begin(), ys.end());
  return entryHead(target, "spatial") + (fanout_flag ? "    fanout: true\n" : "") +
         "    factors: " + factorsText(f, dims) +
         "\n    permutation: " + permutationText(listed, dims) +
         "\n    split: " + std::to_string(xs.size()) + "\n";
}

std::string datatypeEntry(const nest::LevelLoops& l, const std::string& target) {
  std::string keep, bypass;
  for (size_t t = 0; t < nest::kTensors; ++t) {
    std::string& list = l.keeps[t] ? keep : bypass;
    list += (list.empty() ? "" : ", ") + std::string(kTensorNames[t]);
  }
  return entryHead(target, "datatype") + "    keep: [" + keep + "]\n    bypass: [" + bypass + "]\n";
}

const char* reloadName(nest::Mapping::Reload r) {
  switch (r) {
    case nest::Mapping::Reload::EveryTile:
      return "every_tile";
    case nest::Mapping::Reload::Once:
      return "once";
    case nest::Mapping::Reload::Nest:
      break;
  }
  return "nest";
}

// A YAML scalar: plain when it is a simple name, else double-quoted.
std::string scalarText(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("._/+-").find(c) != std::string_view::npos;
  }) && s[0] != '-';
  if (plain) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string writeTimeloopMapping(const nest::Mapping& m, const nest::Problem& p,
                                 const nest::Hardware& hw) {
  const std::vector<nest::Dim> dims = dimsOf(m, p);
  std::string out = "mapping:\n";
  for (size_t l = 0; l < m.levels.size(); ++l) {
    const std::string& name = hw.levels[l].name;
    out += temporalEntry(m.levels[l], name, dims);
    const bool on_array = static_cast<int>(l) == hw.array();
    if (hw.levels[l].fanout > 1) {
      out += spatialEntry(m.levels[l].spatial, nest::kOnes, name, dims, on_array);
    }
    if (on_array && hw.arrayPes() > 1) out += spatialEntry(m.rows, m.cols, name, dims, false);
    out += datatypeEntry(m.levels[l], name);
  }
  if (!m.double_buffered) out += "double_buffered: false\n";
  if (m.reload != std::array<nest::Mapping::Reload, 2>{}) {
    out += std::string("reload: {inputs: ") + reloadName(m.reload[0]) +
           ", weights: " + reloadName(m.reload[1]) + "}\n";
  }
  return out;
}

std::string timeloopDocuments(const std::vector<OpPlan>& plans) {
  const bool pinned = std::any_of(plans.begin(), plans.end(), [](const OpPlan& p) {
    return p.mapping.has_nest && p.mapping.mapper == "pinned";
  });
  std::string out;
  for (const OpPlan& plan : plans) {
    const Mapping& m = plan.mapping;
    if (!m.has_nest || !m.hw || (pinned && m.mapper != "pinned")) continue;
    out += out.empty() ? "" : "---\n";
    out += "op: " + scalarText(plan.op->name) + "\n";
    if (m.loops.gemm && !plan.problem.loops.gemm) out += "view: gemm\n";
    out += writeTimeloopMapping(m.nest, m.loops, *m.hw);
  }
  return out.empty() ? "# no op of this workload has a loop-nest mapping\n" : out;
}

}  // namespace tessel::dataflows
