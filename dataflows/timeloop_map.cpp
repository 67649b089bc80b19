// Reading Timeloop's map.yaml form (timeloop_map.h); the writer is timeloop_map_write.cpp.
#include "dataflows/timeloop_map.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>

#include "util/suggest.h"

namespace tessel::dataflows {

using nest::at;

namespace {

const std::vector<std::string> kTensorNames{"Inputs", "Weights", "Outputs"};

nest::Dim dimNamed(const std::string& name, const yaml::Node& where) {
  for (nest::Dim d : nest::kAllDims) {
    if (name == nest::timeloopName(d)) return d;
  }
  const std::vector<std::string> names{"R", "S", "P", "Q", "C", "M", "N", "G"};
  where.fail("'" + name + "' is not a Timeloop dim (dims: " + joinNames(names, " ") + ")" +
             (name == "K" ? "; Timeloop names the output channels M" : didYouMean(name, names)));
}

// Factors as given: "R=3 S=3 C=4" (or a list of "R=3" items).
struct GivenFactors {
  nest::Factors f = nest::kOnes;
  std::array<bool, nest::kDims> given{};
};

std::string tokensOf(const yaml::Node& node, std::string_view what) {
  if (!node.isSequence()) return node.scalar(what);
  std::string text;
  for (const yaml::Node& item : node.items()) text += item.scalar(what) + " ";
  return text;
}

void setFactor(GivenFactors& g, const std::string& name, const std::string& value,
               const yaml::Node& node, const nest::Problem& p) {
  const nest::Dim d = dimNamed(name, node);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
    node.fail("expected " + name + "=<factor>, got " + name + "=" + value);
  }
  if (g.given[at(d)]) node.fail(name + " is given twice");
  if (v < 1) {
    node.fail("a factor must be at least 1, got " + name + "=" + value +
              (v == 0 ? " (Timeloop reads 0 as the whole dim: write its extent)" : ""));
  }
  if (v > p.of(d)) {
    node.fail(name + "=" + value + " exceeds the problem's " + name + "=" +
              std::to_string(p.of(d)));
  }
  g.f[at(d)] = v;
  g.given[at(d)] = true;
}

GivenFactors factorsOf(const yaml::Node& node, const nest::Problem& p) {
  const std::string text = tokensOf(node, "factors such as \"R=3 S=3 C=4\"");
  GivenFactors g;
  size_t i = 0;
  const auto skipSpaces = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  const auto take = [&](auto pred) {
    const size_t from = i;
    while (i < text.size() && pred(static_cast<unsigned char>(text[i]))) ++i;
    return text.substr(from, i - from);
  };
  for (skipSpaces(); i < text.size(); skipSpaces()) {
    const std::string name = take([](unsigned char c) { return std::isalpha(c) || c == '_'; });
    skipSpaces();
    if (name.empty() || i >= text.size() || text[i] != '=') {
      node.fail("expected factors such as \"R=3 S=3 C=4\", got \"" + text + "\"");
    }
    ++i;
    skipSpaces();
    const std::string value = take([](unsigned char c) { return !std::isspace(c); });
    setFactor(g, name, value, node, p);
  }
  return g;
}

// "SRQPCMN" (or a list of names), innermost first.
std::vector<nest::Dim> permutationOf(const yaml::Node& node) {
  std::vector<std::string> names;
  if (node.isSequence()) {
    for (const yaml::Node& item : node.items()) names.push_back(item.scalar("a dim name"));
  } else {
    for (char c : node.scalar("dims innermost first, such as \"SRQPCMN\"")) {
      if (!std::isspace(static_cast<unsigned char>(c))) names.emplace_back(1, c);
    }
  }
  std::vector<nest::Dim> dims;
  for (const std::string& name : names) {
    const nest::Dim d = dimNamed(name, node);
    if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
      node.fail(name + " is listed twice in the permutation");
    }
    dims.push_back(d);
  }
  return dims;
}

// What one level's directives said.
struct LevelEntries {
  std::optional<yaml::Node> temporal, spatial, fanout_spatial;  // the first of each, for errors
  std::array<bool, nest::kDims> given{};                        // temporal factors given
  std::optional<std::vector<nest::Dim>> permutation;            // innermost first
  std::optional<yaml::Node> permutation_node;
  std::array<std::optional<bool>, nest::kTensors> keeps;
};

struct Reading {
  const nest::Problem& p;
  const nest::Hardware& hw;
  std::map<std::string, int> targets;  // Timeloop name -> level
  nest::Mapping m;
  std::vector<LevelEntries> levels;
};

std::vector<std::string> levelNames(const nest::Hardware& hw) {
  std::vector<std::string> names;
  for (const nest::Level& l : hw.levels) names.push_back(l.name);
  return names;
}

int levelNamed(const std::string& name, const nest::Hardware& hw) {
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    if (hw.levels[l].name == name) return static_cast<int>(l);
  }
  return -1;
}

void readTargets(Reading& r, const yaml::Node& node) {
  const std::vector<std::string> names = levelNames(r.hw);
  for (const auto& [key, value] : node.entries()) {
    const std::string& level = value.scalar("a level name");
    const int l = levelNamed(level, r.hw);
    if (l < 0) {
      value.fail("no level '" + level + "' (levels: " + joinNames(names) + ")" +
                 didYouMean(level, names));
    }
    r.targets[key.scalar()] = l;
  }
}

int targetLevel(const Reading& r, const yaml::Node& target) {
  const std::string& name = target.scalar("a level name");
  if (const auto it = r.targets.find(name); it != r.targets.end()) return it->second;
  if (const int l = levelNamed(name, r.hw); l >= 0) return l;
  std::vector<std::string> names = levelNames(r.hw);
  for (const auto& [timeloop, level] : r.targets) names.push_back(timeloop);
  target.fail("no level '" + name + "' (levels: " + joinNames(levelNames(r.hw)) +
              (r.targets.empty() ? "; a top-level targets: map renames Timeloop's levels" : "") +
              ")" + didYouMean(name, names));
}

void claim(std::optional<yaml::Node>& first, const yaml::Node& entry, const std::string& what) {
  if (first) {
    entry.fail("a second " + what + " entry for this level (the first is at " +
               first->where().str() + ")");
  }
  first = entry;
}

void readTemporal(Reading& r, yaml::MapReader& e, int l) {
  LevelEntries& le = r.levels[size_t(l)];
  claim(le.temporal, e.node(), "temporal");
  if (const auto f = e.find("factors")) {
    const GivenFactors g = factorsOf(*f, r.p);
    r.m.levels[size_t(l)].factor = g.f;
    le.given = g.given;
  }
  if (const auto perm = e.find("permutation")) {
    le.permutation = permutationOf(*perm);
    le.permutation_node = *perm;
  }
}

// Spatial factors split into X (the first `split` dims of the permutation) and Y.
std::pair<nest::Factors, nest::Factors> spatialXY(yaml::MapReader& e, const nest::Problem& p) {
  const auto f = e.find("factors");
  const GivenFactors g = f ? factorsOf(*f, p) : GivenFactors{};
  const auto perm_node = e.find("permutation");
  const std::vector<nest::Dim> perm =
      perm_node ? permutationOf(*perm_node) : std::vector<nest::Dim>{};
  const auto split_node = e.find("split");
  const int split = split_node ? split_node->as<int>() : nest::kDims;
  if (split_node && (split < 0 || split > nest::kDims)) {
    split_node->fail("split must be within 0.." + std::to_string(nest::kDims));
  }
  nest::Factors x = nest::kOnes, y = nest::kOnes;
  for (nest::Dim d : nest::kAllDims) {
    if (g.f[at(d)] == 1) continue;
    const auto pos = std::find(perm.begin(), perm.end(), d);
    if (perm_node && pos == perm.end()) {
      perm_node->fail(std::string("the permutation leaves out ") + std::string(nest::timeloopName(d)) +
                      ", whose factor is " + std::to_string(g.f[at(d)]));
    }
    (pos - perm.begin() < split ? x : y)[at(d)] = g.f[at(d)];
  }
  return {x, y};
}

int64_t product(const nest::Factors& f) {
  int64_t n = 1;
  for (int64_t v : f) n *= v;
  return n;
}

void readSpatial(Reading& r, yaml::MapReader& e, int l) {
  const nest::Level& level = r.hw.levels[size_t(l)];
  const bool on_array = l == r.hw.array();
  const bool fanout = e.optional<bool>("fanout", !on_array, "over the level's own fan-out");
  if (!fanout && !on_array) e.node().fail("fanout: false applies to the array's level only");
  const auto [x, y] = spatialXY(e, r.p);
  LevelEntries& le = r.levels[size_t(l)];
  if (!fanout) {
    claim(le.spatial, e.node(), "spatial");
    if (r.hw.arrayPes() == 1) e.node().fail("level '" + level.name + "' has no fan-out");
    if (product(x) > r.hw.rows || product(y) > r.hw.cols) {
      e.node().fail("spatial factors " + std::to_string(product(x)) + " (X) x " +
                    std::to_string(product(y)) + " (Y) exceed the " + std::to_string(r.hw.rows) +
                    "x" + std::to_string(r.hw.cols) + " array");
    }
    r.m.rows = x;
    r.m.cols = y;
    return;
  }
  claim(le.fanout_spatial, e.node(), on_array ? "spatial fanout: true" : "spatial");
  if (level.fanout <= 1) {
    e.node().fail("level '" + level.name + "' has no fan-out" +
                  (on_array ? ""
                            : ": spatial entries go on levels with one, or on '" +
                                  r.hw.levels[size_t(r.hw.array())].name + "' (the array)"));
  }
  nest::Factors s = nest::kOnes;
  for (nest::Dim d : nest::kAllDims) s[at(d)] = x[at(d)] * y[at(d)];
  if (product(s) > level.fanout) {
    e.node().fail("spatial factors " + std::to_string(product(s)) + " exceed the fan-out of " +
                  std::to_string(level.fanout) + " below '" + level.name + "'");
  }
  r.m.levels[size_t(l)].spatial = s;
}

void readKeeps(Reading& r, yaml::MapReader& e, int l) {
  auto& keeps = r.levels[size_t(l)].keeps;
  for (const bool keep : {true, false}) {
    const auto list = e.find(keep ? "keep" : "bypass");
    if (!list) continue;
    for (const yaml::Node& item : list->items()) {
      const std::string& name = item.scalar("a tensor (Weights, Inputs, Outputs)");
      const auto it = std::find(kTensorNames.begin(), kTensorNames.end(), name);
      if (it == kTensorNames.end()) {
        item.fail("expected Weights, Inputs or Outputs, got '" + name + "'" +
                  didYouMean(name, kTensorNames));
      }
      auto& k = keeps[size_t(it - kTensorNames.begin())];
      if (k) item.fail(name + " is kept or bypassed twice at this level");
      k = keep;
    }
  }
}

void readEntry(Reading& r, const yaml::Node& entry) {
  yaml::MapReader e(entry);
  const int l = targetLevel(r, e.require("target", "the level the directive is for"));
  const char* const kTypes = "temporal, spatial, datatype, dataspace or bypass";
  const yaml::Node type_node = e.require("type", kTypes);
  const std::string& type = type_node.scalar(kTypes);
  if (type == "temporal") {
    readTemporal(r, e, l);
  } else if (type == "spatial") {
    readSpatial(r, e, l);
  } else if (type == "datatype" || type == "dataspace" || type == "bypass") {
    readKeeps(r, e, l);  // Timeloop's three names for one directive (its tutorial's: dataspace)
  } else {
    const std::vector<std::string> types{"temporal", "spatial", "datatype", "dataspace", "bypass"};
    type_node.fail("expected " + std::string(kTypes) + ", got '" + type + "'" +
                   didYouMean(type, types));
  }
  e.finish();
}

// The outermost level's factors left out cover what the inner levels leave; orders follow the
// permutations (innermost first there, outermost first here), else the dims in canonical order.
void finishLoops(Reading& r) {
  nest::LevelLoops& top = r.m.levels[0];
  for (nest::Dim d : nest::kAllDims) {
    if (r.levels[0].given[at(d)]) continue;
    top.factor[at(d)] = 1;
    const int64_t inner = r.m.tile(0, d, r.hw.array());
    top.factor[at(d)] = std::max<int64_t>(1, (r.p.of(d) + inner - 1) / inner);
  }
  for (size_t l = 0; l < r.levels.size(); ++l) {
    nest::LevelLoops& lv = r.m.levels[l];
    const LevelEntries& le = r.levels[l];
    lv.order.clear();
    if (!le.permutation) {
      for (nest::Dim d : nest::kAllDims) {
        if (lv.factor[at(d)] > 1) lv.order.push_back(d);
      }
      continue;
    }
    for (nest::Dim d : nest::kAllDims) {
      if (lv.factor[at(d)] > 1 &&
          std::count(le.permutation->begin(), le.permutation->end(), d) == 0) {
        le.permutation_node->fail(std::string("the permutation leaves out ") +
                                  std::string(nest::timeloopName(d)) + ", whose factor is " +
                                  std::to_string(lv.factor[at(d)]));
      }
    }
    for (auto it = le.permutation->rbegin(); it != le.permutation->rend(); ++it) {
      if (lv.factor[at(*it)] > 1) lv.order.push_back(*it);
    }
  }
}

nest::Mapping::Reload reloadOf(const yaml::Node& node) {
  const std::string& s = node.scalar("nest, every_tile or once");
  if (s == "nest") return nest::Mapping::Reload::Nest;
  if (s == "every_tile") return nest::Mapping::Reload::EveryTile;
  if (s == "once") return nest::Mapping::Reload::Once;
  node.fail("expected nest, every_tile or once, got '" + s + "'" +
            didYouMean(s, {"nest", "every_tile", "once"}));
}

void readOptions(Reading& r, yaml::MapReader& top) {
  r.m.double_buffered = top.optional<bool>("double_buffered", true, "loads overlap compute");
  if (const auto reload = top.find("reload")) {
    yaml::MapReader rr(*reload);
    if (const auto in = rr.find("inputs")) r.m.reload[0] = reloadOf(*in);
    if (const auto w = rr.find("weights")) r.m.reload[1] = reloadOf(*w);
    rr.finish();
  }
}

}  // namespace

std::string_view timeloopDimName(nest::Dim d) { return nest::timeloopName(d); }

nest::Mapping readTimeloopMapping(yaml::MapReader& top, const nest::Problem& p,
                                  const nest::Hardware& hw, const std::vector<Keeps>& keeps,
                                  TimeloopEntries* entries) {
  Reading r{p, hw, {}, {}, std::vector<LevelEntries>(hw.levels.size())};
  r.m.levels.resize(hw.levels.size());
  if (const auto targets = top.find("targets")) readTargets(r, *targets);
  const yaml::Node list = top.require("mapping", "Timeloop's directives: target, type, factors...");
  for (const yaml::Node& entry : list.items()) readEntry(r, entry);
  for (size_t l = 0; l < hw.levels.size(); ++l) {
    for (size_t t = 0; t < nest::kTensors; ++t) {
      const bool fallback = keeps.empty() ? hw.levels[l].can_hold[t] : keeps.at(l)[t];
      r.m.levels[l].keeps[t] = r.levels[l].keeps[t].value_or(fallback);
    }
  }
  finishLoops(r);
  readOptions(r, top);
  if (entries != nullptr) {
    for (const LevelEntries& le : r.levels) {
      entries->temporal.push_back(le.temporal);
      entries->spatial.push_back(le.spatial ? le.spatial : le.fanout_spatial);
    }
  }
  return r.m;
}

}  // namespace tessel::dataflows
