// -p overrides: Document::override sets one value at a dotted path ("array.dataflows[1]=os"),
// rebuilding the containers on the way, and ensureMapping makes room for one.
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <iterator>
#include <string>
#include <vector>

#include "util/suggest.h"
#include "util/yaml.h"
#include "util/yaml_state.h"

namespace tessel::yaml {
namespace {

// One step of a dotted path: a mapping key, or a list index (index >= 0).
struct Step {
  std::string key;
  int index = -1;
};

// "array.dataflows[1]" -> array, dataflows, [1].
std::vector<Step> parseSteps(const std::string& path, const SourceLocation& where) {
  const ConfigError bad(where,
                        "malformed path " + inQuotes(path) +
                            " (expected e.g. 'accumulator.capacity' or 'array.dataflows[1]')");
  std::vector<Step> steps;
  size_t start = 0;
  for (;;) {
    const size_t dot = path.find('.', start);
    const std::string seg = path.substr(start, dot == std::string::npos ? dot : dot - start);
    size_t i = seg.find('[');
    const std::string key = seg.substr(0, i);
    if (key.empty() || key.find(']') != std::string::npos) throw bad;
    steps.push_back({key});
    while (i != std::string::npos) {  // one or more "[n]"
      const size_t close = seg.find(']', i);
      if (close == std::string::npos) throw bad;
      int index = -1;
      const char* first = seg.data() + i + 1;
      auto [p, ec] = std::from_chars(first, seg.data() + close, index);
      if (ec != std::errc() || p != seg.data() + close || index < 0) throw bad;
      steps.push_back({"", index});
      i = close + 1 == seg.size() ? std::string::npos : close + 1;
      if (i != std::string::npos && seg[i] != '[') throw bad;
    }
    if (dot == std::string::npos) return steps;
    start = dot + 1;
  }
}

std::string stepPath(const std::string& path, const Step& s) {
  return s.index >= 0 ? path + "[" + std::to_string(s.index) + "]" : joinPath(path, s.key);
}

std::string describeAt(const std::string& path) {
  return path.empty() ? "the top level" : inQuotes(path);
}

// The existing child of `cur` named by `s`; ConfigError with a suggestion if there is none.
YAML::Node childOf(const YAML::Node& cur, const Step& s, const std::string& path,
                   SourceLocation where) {
  where.yaml_path = stepPath(path, s);
  if (s.index >= 0) {
    if (!cur.IsSequence()) throw ConfigError(where, describeAt(path) + " is not a list");
    if (static_cast<size_t>(s.index) >= cur.size()) {
      throw ConfigError(where, "index " + std::to_string(s.index) +
                                   " is out of range: " + describeAt(path) + " has " +
                                   std::to_string(cur.size()) + " elements");
    }
    return cur[static_cast<size_t>(s.index)];
  }
  if (!cur.IsMap()) throw ConfigError(where, describeAt(path) + " is not a mapping");
  std::vector<std::string> keys;
  for (auto it = cur.begin(); it != cur.end(); ++it) {
    if (!it->first.IsScalar()) continue;
    if (it->first.Scalar() == s.key) return it->second;
    keys.push_back(it->first.Scalar());
  }
  std::string hint = didYouMean(s.key, keys);
  if (hint.empty()) {
    hint = " (a missing section can be given whole: -p '" + where.yaml_path + "={...}')";
  }
  throw ConfigError(where, "unknown key " + inQuotes(s.key) + " in " + describeAt(path) + hint);
}

std::string pathOf(const std::vector<Step>& steps, size_t count) {
  std::string path;
  for (size_t i = 0; i < count; ++i) path = stepPath(path, steps[i]);
  return path;
}

// A new container like `cur` whose child at `s` is `child` (appended when the key is new).
// The other children are shared, not copied, so they keep their marks.
YAML::Node withChild(const YAML::Node& cur, const Step& s, const YAML::Node& child) {
  if (s.index >= 0) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (size_t i = 0; i < cur.size(); ++i) {
      seq.push_back(i == static_cast<size_t>(s.index) ? child : cur[i]);
    }
    return seq;
  }
  // A null value removes the key: "-p sfu=null" takes the SFU out of a design.
  const bool remove = child.IsNull();
  YAML::Node map(YAML::NodeType::Map);
  bool replaced = false;
  for (auto it = cur.begin(); it != cur.end(); ++it) {
    const bool hit = it->first.IsScalar() && it->first.Scalar() == s.key;
    if (!(hit && remove)) map.force_insert(it->first, hit ? child : it->second);
    replaced |= hit;
  }
  if (!replaced && !remove) map.force_insert(s.key, child);
  return map;
}

// `root` with `value` at steps[i..]. Every container on the path is rebuilt rather than
// assigned into: with anchors and aliases ("bus_width: *bw") yaml-cpp shares one node between
// several keys, and writing into it would change every key that aliases it.
YAML::Node withValueAt(const YAML::Node& cur, const std::vector<Step>& steps, size_t i,
                       const std::string& at, const YAML::Node& value,
                       const SourceLocation& where) {
  const Step& s = steps[i];
  if (i + 1 == steps.size()) {
    if (s.index >= 0)
      childOf(cur, s, at, where);  // checks the index exists
    else if (!cur.IsMap())
      throw ConfigError(where, describeAt(at) + " is not a mapping");
    return withChild(cur, s, value);
  }
  const YAML::Node child = childOf(cur, s, at, where);
  return withChild(cur, s, withValueAt(child, steps, i + 1, stepPath(at, s), value, where));
}

YAML::Node parseValue(const std::string& text, const SourceLocation& where) {
  if (text.find_first_not_of(" \t") == std::string::npos) {
    throw ConfigError(where, "no value after '='");
  }
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(where, "invalid YAML in value: " + e.msg);
  }
}

}  // namespace

void Document::override(const std::string& assignment) {
  const std::string origin = "<-p " + assignment + ">";
  const size_t eq = assignment.find('=');
  std::string path = assignment.substr(0, eq);
  path.erase(0, path.find_first_not_of(" \t"));
  path.erase(path.find_last_not_of(" \t") + 1);
  SourceLocation where{origin, 0, 0, path};
  if (eq == std::string::npos) throw ConfigError(where, "expected key.path=value");
  if (path.empty()) throw ConfigError(where, "missing key path before '='");
  const std::vector<Step> steps = parseSteps(path, where);
  const YAML::Node value = parseValue(assignment.substr(eq + 1), where);

  state_->root = withValueAt(state_->root, steps, 0, "", value, where);
  const std::string at = steps.size() > 1 ? pathOf(steps, steps.size() - 1) : std::string();
  const Step& last = steps.back();
  // Values under the replaced one came from earlier overrides; they are gone now.
  const std::string target = stepPath(at, last);
  auto& marks = state_->overridden;
  for (auto it = marks.lower_bound(target); it != marks.end() && it->first.rfind(target, 0) == 0;) {
    const char next = it->first.size() > target.size() ? it->first[target.size()] : '.';
    it = (next == '.' || next == '[') ? marks.erase(it) : std::next(it);
  }
  marks[target] = origin;
}

void Document::ensureMapping(const std::string& path) {
  const std::vector<Step> steps = parseSteps(path, {state_->source, 0, 0, path});
  const YAML::Node& view = state_->root;  // const lookups never insert keys
  YAML::Node cur;
  cur.reset(view);
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    const YAML::Node& c = cur;
    if (!c.IsMap() || !c[steps[i].key]) return;
    cur.reset(c[steps[i].key]);
  }
  const YAML::Node& c = cur;
  if (!c.IsMap() || c[steps.back().key]) return;
  state_->root = withValueAt(state_->root, steps, 0, "", YAML::Node(YAML::NodeType::Map),
                             {state_->source, 0, 0, path});
}

}  // namespace tessel::yaml
