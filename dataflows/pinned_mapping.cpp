#include "dataflows/pinned_mapping.h"

#include "dataflows/nest/constraints.h"

#include <algorithm>

#include "dataflows/nest/cost.h"
#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::dataflows {

struct PinnedMapping {
  std::string path;
  yaml::Node root;
  yaml::Node op;
  std::string op_name;
};

std::shared_ptr<const PinnedMapping> loadPinnedMapping(const std::string& path) {
  const yaml::Document doc = yaml::Document::fromFile(path);
  yaml::MapReader top(doc.root());
  const yaml::Node op = top.require("op", "the op this mapping pins");
  auto pin = std::make_shared<PinnedMapping>(PinnedMapping{path, doc.root(), op, op.scalar("an op name")});
  return pin;
}

const std::string& pinnedOp(const PinnedMapping& pin) { return pin.op_name; }

void failUnknownOp(const PinnedMapping& pin, const std::vector<std::string>& names) {
  pin.op.fail("the workload has no op '" + pin.op_name + "'" + didYouMean(pin.op_name, names));
}

namespace {

nest::Dim dimOf(const yaml::Node& key, const nest::Problem& p) {
  const std::string& name = key.scalar("a loop dim");
  if (const auto d = p.dimByName(name)) return *d;
  std::vector<std::string> names;
  for (nest::Dim d : nest::kAllDims) {
    if (!p.dimName(d).empty()) names.push_back(p.dimName(d));
  }
  key.fail("'" + name + "' is not a dim of " + p.describe() + " (dims: " + joinNames(names) + ")" +
           didYouMean(name, names));
}

nest::Factors factorsOf(const yaml::Node& node, const nest::Problem& p) {
  nest::Factors f = nest::kOnes;
  for (const auto& [key, value] : node.entries()) {
    const int64_t v = value.as<int64_t>();
    if (v < 1) value.fail("a factor must be at least 1, got " + std::to_string(v));
    f[nest::at(dimOf(key, p))] = v;
  }
  return f;
}

std::array<bool, 3> keepsOf(const yaml::Node& node) {
  std::array<bool, 3> k{false, false, false};
  const std::vector<std::string> names{"inputs", "weights", "outputs"};
  for (const auto& item : node.items()) {
    const std::string& s = item.scalar("a tensor (inputs, weights, outputs)");
    const auto it = std::find(names.begin(), names.end(), s);
    if (it == names.end()) item.fail("expected inputs, weights or outputs, got '" + s + "'" + didYouMean(s, names));
    k[static_cast<size_t>(it - names.begin())] = true;
  }
  return k;
}

}  // namespace

MapResult pinnedMapping(const PinnedMapping& pin, const Problem& problem, const arch::Accelerator& acc,
                        const Dataflow& df, const MapConstraints& constraints) {
  yaml::MapReader top(pin.root);
  top.require("op", "");
  nest::Problem p = problem.loops;
  if (const auto view = top.find("view")) {
    const std::string& v = view->scalar("gemm or nest");
    if (v == "gemm") {
      p = nest::gemmProblem(problem.batch, problem.m, problem.n, problem.k, problem.input_dtype,
                            problem.weight_dtype, problem.output_dtype);
    } else if (v != "nest") {
      view->fail("expected gemm (the im2col GEMM) or nest (the op's own loops), got '" + v + "'");
    }
  }
  auto hw = std::make_shared<const nest::Hardware>(nest::hardwareOf(acc));
  nest::Mapping m;
  m.levels.resize(hw->levels.size());
  // Keeps default to what each level can hold (the PEs: what the dataflow keeps there).
  for (size_t l = 0; l < hw->levels.size(); ++l) {
    for (size_t t = 0; t < 3; ++t) {
      m.levels[l].keeps[t] = hw->levels[l].can_hold[t] && (static_cast<int>(l) != hw->pe() || df.nest.pe_keeps[t]);
    }
  }
  const yaml::Node spatial_node = top.require("spatial", "rows and cols: the dims unrolled across the array");
  yaml::MapReader spatial(spatial_node);
  if (auto rows = spatial.find("rows")) m.rows = factorsOf(*rows, p);
  if (auto cols = spatial.find("cols")) m.cols = factorsOf(*cols, p);
  spatial.finish();
  const yaml::Node levels_node = top.require("levels", "per level: factors, order, keeps");
  std::vector<bool> given(hw->levels.size(), false);
  std::vector<bool> factors_given(hw->levels.size(), false);
  for (const auto& [key, value] : levels_node.entries()) {
    const std::string& name = key.scalar("a level name");
    std::vector<std::string> names;
    for (const auto& l : hw->levels) names.push_back(l.name);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      key.fail("no level '" + name + "' in accelerator '" + acc.name + "' (levels: " + joinNames(names) + ")" +
               didYouMean(name, names));
    }
    const auto l = static_cast<size_t>(it - names.begin());
    given[l] = true;
    yaml::MapReader r(value);
    if (auto f = r.find("factors")) {
      m.levels[l].factor = factorsOf(*f, p);
      factors_given[l] = true;
    }
    if (auto o = r.find("order")) {
      for (const auto& item : o->items()) {
        const nest::Dim d = dimOf(item, p);
        auto& order = m.levels[l].order;
        if (std::find(order.begin(), order.end(), d) != order.end()) item.fail("listed twice");
        order.push_back(d);
      }
    }
    if (auto k = r.find("keeps")) m.levels[l].keeps = keepsOf(*k);
    r.finish();
  }
  m.double_buffered = top.optional<bool>("double_buffered", true, "loads overlap compute");
  top.finish();
  // The outermost level without factors covers the rest; orders left out list the dims with
  // factors in canonical order.
  if (!factors_given[0]) {
    for (nest::Dim d : nest::kAllDims) {
      m.levels[0].factor[nest::at(d)] = 1;
      const int64_t inner = m.tile(0, d, hw->local());
      m.levels[0].factor[nest::at(d)] = (p.of(d) + inner - 1) / inner;
    }
  }
  for (auto& lv : m.levels) {
    std::vector<nest::Dim> order;
    for (nest::Dim d : lv.order) {
      if (lv.factor[nest::at(d)] > 1) order.push_back(d);
    }
    for (nest::Dim d : nest::kAllDims) {
      if (lv.factor[nest::at(d)] > 1 && std::find(order.begin(), order.end(), d) == order.end()) {
        order.push_back(d);
      }
    }
    lv.order = order;
  }
  const std::string shape = nest::checkShape(m, p, *hw);
  if (!shape.empty()) levels_node.fail("this mapping does not fit " + p.describe() + ": " + shape);
  const std::string broken = nest::violation(m, df.nest, *hw, p);
  if (!broken.empty()) {
    levels_node.fail("dataflow '" + df.name + "' does not allow this mapping: " + broken);
  }
  const std::string room = nest::checkCapacity(p, m, *hw);
  if (!room.empty()) levels_node.fail("this mapping's tiles do not fit: " + room);
  if (constraints.whole_rows && m.tile(hw->local(), nest::Dim::K, hw->local()) < p.of(nest::Dim::K)) {
    levels_node.fail("op '" + pin.op_name + "' has a fused row-wise epilogue: its local tile must hold whole "
                     "output rows (n = " + std::to_string(p.of(nest::Dim::K)) + ")");
  }
  MapResult r;
  r.ok = true;
  Mapping& out = r.mapping;
  out.dataflow = df.name;
  out.mapper = "pinned";
  out.array_rows = acc.array.rows;
  out.array_cols = acc.array.cols;
  out.tile_m = m.tile(hw->local(), nest::Dim::P, hw->local());
  out.tile_n = m.tile(hw->local(), nest::Dim::K, hw->local());
  out.tile_k = m.tile(hw->local(), nest::Dim::C, hw->local());
  out.double_buffered = m.double_buffered;
  out.has_nest = true;
  out.nest = m;
  out.loops = p;
  out.hw = hw;
  out.space = 1;
  out.evaluated = 1;
  return r;
}

}  // namespace tessel::dataflows
