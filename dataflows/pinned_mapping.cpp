#include "dataflows/pinned_mapping.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "dataflows/nest/constraints.h"
#include "dataflows/nest/cost.h"
#include "dataflows/timeloop_map.h"
#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::dataflows {

struct PinnedMapping {
  std::string path;
  yaml::Node root;
  std::optional<yaml::Node> op;  // absent: the workload's only op to map
  std::string op_name;           // "" when the file names no op
  bool timeloop = false;         // Timeloop's map.yaml form: a `mapping:` list
};

std::shared_ptr<const PinnedMapping> loadPinnedMapping(const std::string& path) {
  const yaml::Document doc = yaml::Document::fromFile(path);
  yaml::MapReader top(doc.root());
  auto pin = std::make_shared<PinnedMapping>(PinnedMapping{path, doc.root(), top.find("op"), "",
                                                           top.find("mapping").has_value()});
  if (pin->op) pin->op_name = pin->op->scalar("an op name");
  return pin;
}

const std::string& pinnedOp(const PinnedMapping& pin) { return pin.op_name; }

std::string pinnedOpAmong(const PinnedMapping& pin, const std::vector<std::string>& ops) {
  if (pin.op) {
    if (std::find(ops.begin(), ops.end(), pin.op_name) != ops.end()) return pin.op_name;
    pin.op->fail("the workload has no op '" + pin.op_name + "' to map" +
                 didYouMean(pin.op_name, ops));
  }
  if (ops.size() == 1) return ops[0];
  std::vector<std::string> some(ops.begin(), ops.begin() + std::min<size_t>(ops.size(), 6));
  if (ops.size() > some.size()) some.push_back("...");
  pin.root.fail("this mapping names no op and the workload has " + std::to_string(ops.size()) +
                " ops to map" + (ops.empty() ? "" : " (" + joinNames(some) + ")") +
                "; add op: NAME");
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

// The loops the file maps: the op's own, or with `view: gemm` a convolution's im2col GEMM.
nest::Problem viewOf(yaml::MapReader& top, const Problem& problem) {
  const auto view = top.find("view");
  if (!view) return problem.loops;
  const std::string& v = view->scalar("gemm or nest");
  if (v == "nest") return problem.loops;
  if (v != "gemm") view->fail("expected gemm (the im2col GEMM) or nest (the op's own loops), got '" + v + "'");
  return gemmView(problem);  // as the search maps this view
}

// Keeps default to what each level can hold (the PEs: what the dataflow keeps there).
std::vector<Keeps> defaultKeeps(const nest::Hardware& hw, const Dataflow& df) {
  std::vector<Keeps> keeps(hw.levels.size());
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (size_t t = 0; t < 3; ++t) {
      keeps[l][t] = hw.levels[l].can_hold[t] && (static_cast<int>(l) != hw.pe() || df.nest.pe_keeps[t]);
    }
  }
  return keeps;
}

size_t levelOf(const yaml::Node& key, const nest::Hardware& hw, const arch::Accelerator& acc) {
  const std::string& name = key.scalar("a level name");
  std::vector<std::string> names;
  for (const auto& l : hw.levels) names.push_back(l.name);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    key.fail("no level '" + name + "' in accelerator '" + acc.name + "' (levels: " + joinNames(names) + ")" +
             didYouMean(name, names));
  }
  return static_cast<size_t>(it - names.begin());
}

// `parallel:` spatial factors over the level's fan-out.
nest::Factors parallelOf(const yaml::Node& node, const nest::Problem& p, const nest::Level& level) {
  if (level.fanout <= 1) node.fail("level '" + level.name + "' has no fan-out to spread loops over");
  const nest::Factors f = factorsOf(node, p);
  int64_t n = 1;
  for (int64_t v : f) n *= v;
  if (n > level.fanout) {
    node.fail("parallel factors " + std::to_string(n) + " exceed the fan-out of " +
              std::to_string(level.fanout) + " below '" + level.name + "'");
  }
  return f;
}

// The outermost level covers what the inner levels leave.
void coverRest(nest::Mapping& m, const nest::Problem& p, const nest::Hardware& hw) {
  for (nest::Dim d : nest::kAllDims) {
    m.levels[0].factor[nest::at(d)] = 1;
    const int64_t inner = m.tile(0, d, hw.array());
    m.levels[0].factor[nest::at(d)] = (p.of(d) + inner - 1) / inner;
  }
}

// Orders list the dims with factors > 1: those given in their order, the others after them in
// canonical order.
void fillOrders(nest::Mapping& m) {
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
}

// tessel's own form: spatial, levels, double_buffered.
nest::Mapping tesselForm(yaml::MapReader& top, const nest::Problem& p, const nest::Hardware& hw,
                         const Dataflow& df, const arch::Accelerator& acc) {
  nest::Mapping m;
  m.levels.resize(hw.levels.size());
  const std::vector<Keeps> keeps = defaultKeeps(hw, df);
  for (size_t l = 0; l < hw.levels.size(); ++l) m.levels[l].keeps = keeps[l];
  const yaml::Node spatial_node = top.require("spatial", "rows and cols: the dims unrolled across the array");
  yaml::MapReader spatial(spatial_node);
  if (auto rows = spatial.find("rows")) m.rows = factorsOf(*rows, p);
  if (auto cols = spatial.find("cols")) m.cols = factorsOf(*cols, p);
  spatial.finish();
  const yaml::Node levels_node = top.require("levels", "per level: factors, order, keeps");
  bool dram_factors = false;
  for (const auto& [key, value] : levels_node.entries()) {
    const size_t l = levelOf(key, hw, acc);
    yaml::MapReader r(value);
    if (auto f = r.find("factors")) {
      m.levels[l].factor = factorsOf(*f, p);
      dram_factors = dram_factors || l == 0;
    }
    if (auto par = r.find("parallel")) m.levels[l].spatial = parallelOf(*par, p, hw.levels[l]);
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
  if (!dram_factors) coverRest(m, p, hw);
  fillOrders(m);
  return m;
}

// The node to blame for what a check found: the entry the user wrote for that level and kind
// (a Timeloop map.yaml's), else `whole`.
using Locate = std::function<const yaml::Node&(const nest::Blame&)>;

// Refuses (where `locate` says) a mapping of the wrong shape, one the dataflow forbids or one
// that does not fit; `p` names the dims as the user's file does.
void check(const nest::Mapping& m, const nest::Problem& p, const nest::Hardware& hw,
           const Dataflow& df, const MapConstraints& constraints, const Locate& locate) {
  nest::Blame b;
  const std::string shape = nest::checkShape(m, p, hw, &b);
  if (!shape.empty()) locate(b).fail("this mapping does not fit " + p.describe() + ": " + shape);
  const std::string broken = nest::violation(m, df.nest, hw, p, &b);
  if (!broken.empty()) {
    locate(b).fail("dataflow '" + df.name + "' does not allow this mapping: " + broken);
  }
  const std::string room = nest::checkCapacity(p, m, hw, &b);
  if (!room.empty()) locate(b).fail("this mapping's tiles do not fit: " + room);
  if (constraints.whole_rows && m.tile(hw.local(), nest::Dim::K, hw.array()) < p.of(nest::Dim::K)) {
    locate({hw.local(), false})
        .fail("this op has a fused row-wise epilogue: its local tile must hold whole output rows (" +
              p.dimName(nest::Dim::K) + " = " + std::to_string(p.of(nest::Dim::K)) + ")");
  }
}

}  // namespace

MapResult pinnedMapping(const PinnedMapping& pin, const Problem& problem, const arch::Accelerator& acc,
                        const Dataflow& df, const MapConstraints& constraints) {
  yaml::MapReader top(pin.root);
  top.find("op");
  const nest::Problem p = viewOf(top, problem);
  auto hw = std::make_shared<const nest::Hardware>(nest::hardwareOf(acc));
  TimeloopEntries entries;
  const nest::Mapping m =
      pin.timeloop ? readTimeloopMapping(top, p, *hw, defaultKeeps(*hw, df), &entries)
                   : tesselForm(top, p, *hw, df, acc);
  top.finish();
  const yaml::Node whole = *top.find(pin.timeloop ? "mapping" : "levels");
  const Locate locate = [&](const nest::Blame& b) -> const yaml::Node& {
    if (!pin.timeloop || b.level < 0) return whole;
    const auto& first = b.spatial ? entries.spatial : entries.temporal;
    const auto& second = b.spatial ? entries.temporal : entries.spatial;
    const size_t l = static_cast<size_t>(b.level);
    if (first[l]) return *first[l];
    return second[l] ? *second[l] : whole;
  };
  nest::Problem named = p;
  named.timeloop_names = pin.timeloop;
  check(m, named, *hw, df, constraints, locate);
  MapResult r;
  r.ok = true;
  Mapping& out = r.mapping;
  out.dataflow = df.name;
  out.mapper = "pinned";
  out.array_rows = acc.array.rows;
  out.array_cols = acc.array.cols;
  out.tile_m = m.tile(hw->local(), nest::Dim::P, hw->array());
  out.tile_n = m.tile(hw->local(), nest::Dim::K, hw->array());
  out.tile_k = m.tile(hw->local(), nest::Dim::C, hw->array());
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
