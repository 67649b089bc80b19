// The YAML reader: located nodes, typed values, documents (one per file, no tags) and
// MapReader. The -p overrides are in yaml_override.cpp.
#include "util/yaml.h"

#include "util/input_file.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "util/budget.h"
#include "util/suggest.h"
#include "util/yaml_state.h"

namespace tessel::yaml {

struct Node::Impl {
  YAML::Node node;
  SourceLocation where;
  bool from_override = false;  // the value (or an ancestor) was set by -p
  std::shared_ptr<const Document::State> doc;
};

namespace {

// Locates `n` at `path`: a -p value, else inside one, else its own mark, else `fallback`.
// yaml-cpp marks a null at the next token and a block mapping at its first key, so when
// `at_fallback` those (and lists) are located at `fallback`, the key that owns them.
Node makeNode(YAML::Node n, const std::string& path, const Node::Impl* parent,
              const SourceLocation& fallback, std::shared_ptr<const Document::State> doc,
              bool at_fallback = false) {
  auto impl = std::make_shared<Node::Impl>();
  impl->where.yaml_path = path;
  auto it = doc->overridden.find(path);
  if (it != doc->overridden.end() || (parent && parent->from_override)) {
    impl->where.file = it != doc->overridden.end() ? it->second : parent->where.file;
    impl->from_override = true;
  } else if (n.Mark().is_null() || n.IsNull() || (at_fallback && !n.IsScalar())) {
    impl->where = fallback;
    impl->where.yaml_path = path;
  } else {
    impl->where = {doc->source, n.Mark().line + 1, n.Mark().column + 1, path};
  }
  impl->node.reset(n);
  impl->doc = std::move(doc);
  return Node(std::move(impl));
}

std::string indexPath(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

}  // namespace

// ---- paths ---------------------------------------------------------------------------------

std::string joinPath(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string parentPath(const std::string& path) {
  const auto cut = path.find_last_of(".[");
  return cut == std::string::npos ? std::string() : path.substr(0, cut);
}

// ---- Node ----------------------------------------------------------------------------------

Node::Type Node::type() const {
  switch (impl_->node.Type()) {
    case YAML::NodeType::Scalar:
      return Type::Scalar;
    case YAML::NodeType::Sequence:
      return Type::Sequence;
    case YAML::NodeType::Map:
      return Type::Map;
    default:
      return Type::Null;
  }
}

const SourceLocation& Node::where() const { return impl_->where; }

std::string Node::describe() const {
  switch (type()) {
    case Type::Scalar:
      return inQuotes(impl_->node.Scalar());
    case Type::Sequence:
      return "a list";
    case Type::Map:
      return "a mapping";
    case Type::Null:
      break;
  }
  return "nothing";
}

void Node::fail(const std::string& message) const { throw ConfigError(where(), message); }

const std::string& Node::scalar(std::string_view what) const {
  if (!isScalar()) fail("expected " + std::string(what) + ", got " + describe());
  return impl_->node.Scalar();
}

std::vector<Node> Node::items() const {
  if (!isSequence()) fail("expected a list, got " + describe());
  std::vector<Node> out;
  for (size_t i = 0; i < impl_->node.size(); ++i) {
    out.push_back(makeNode(impl_->node[i], indexPath(path(), i), impl_.get(), where(), impl_->doc));
  }
  return out;
}

std::vector<std::pair<Node, Node>> Node::entries() const {
  if (!isMap()) fail("expected a mapping, got " + describe());
  std::vector<std::pair<Node, Node>> out;
  for (auto it = impl_->node.begin(); it != impl_->node.end(); ++it) {
    const YAML::Node k = it->first;  // a copy: `it->` points into a temporary proxy
    const std::string text = k.IsScalar() ? k.Scalar() : std::string();
    Node key = makeNode(k, joinPath(path(), text), impl_.get(), where(), impl_->doc);
    if (!k.IsScalar()) key.fail("keys must be plain names, got " + key.describe());
    Node value = makeNode(it->second, key.path(), impl_.get(), key.where(), impl_->doc, true);
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

// ---- typed values --------------------------------------------------------------------------

template <>
std::string Node::as<std::string>() const {
  return scalar("a string");
}

template <>
bool Node::as<bool>() const {
  // YAML 1.2 core schema booleans only: "yes"/"on" are not silently accepted.
  const std::string& s = scalar("true or false");
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  fail("expected true or false, got " + inQuotes(s));
}

template <>
int64_t Node::as<int64_t>() const {
  const std::string& s = scalar("an integer");
  int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) fail("integer " + inQuotes(s) + " is out of range");
  if (ec != std::errc() || end != s.data() + s.size()) {
    fail("expected an integer, got " + inQuotes(s));
  }
  return value;
}

template <>
int Node::as<int>() const {
  const int64_t value = as<int64_t>();
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    fail("integer " + inQuotes(scalar()) + " is out of range");
  }
  return static_cast<int>(value);
}

template <>
double Node::as<double>() const {
  const std::string& s = scalar("a number");
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) {
    fail("expected a number, got " + inQuotes(s));
  }
  return value;
}

template <>
std::vector<std::string> Node::as<std::vector<std::string>>() const {
  std::vector<std::string> out;
  for (const Node& item : items()) out.push_back(item.scalar("a string"));
  return out;
}

// ---- Document ------------------------------------------------------------------------------

namespace {

// yaml-cpp reports a tab in indentation as "illegal map value" or the like; name the tab.
std::optional<SourceLocation> firstIndentTab(const std::string& text, const std::string& source,
                                             int up_to_line) {
  int line = 1;
  for (size_t start = 0; start <= text.size() && line <= up_to_line; ++line) {
    const size_t end = std::min(text.find('\n', start), text.size());
    for (size_t i = start; i < end && (text[i] == ' ' || text[i] == '\t'); ++i) {
      if (text[i] == '\t') return SourceLocation{source, line, static_cast<int>(i - start) + 1, ""};
    }
    start = end + 1;
  }
  return std::nullopt;
}

// Where a second document (or anything after the first) starts, if the text has one. yaml-cpp's
// Load returns the first document and drops the rest, and its LoadAll loops forever on some
// malformed inputs (a lone ","), so the parser is asked for exactly one document more.
class FirstEvent : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> mark;
  void OnDocumentStart(const YAML::Mark& m) override { note(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    note(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& m) {
    if (!mark) mark = m;
  }
};

std::optional<YAML::Mark> secondDocument(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  FirstEvent first, second;
  if (!parser.HandleNextDocument(first)) return std::nullopt;
  if (!parser.HandleNextDocument(second)) return std::nullopt;
  return second.mark ? *second.mark : YAML::Mark();
}

// Tags ("!!str", "!custom") change how a value is meant to be read; tessel reads every value by
// its schema, so a tag would be silently ignored. Reject it where it is written.
void rejectTags(const YAML::Node& n, const std::string& source) {
  const std::string& tag = n.Tag();
  if (!tag.empty() && tag != "?" && tag != "!") {
    throw ConfigError({source, n.Mark().line + 1, n.Mark().column + 1, ""},
                      "YAML tags are not supported (found '" + tag +
                          "'); write the plain value, its meaning comes from its key");
  }
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      rejectTags(it->first, source);
      rejectTags(it->second, source);
    }
  } else if (n.IsSequence()) {
    for (size_t i = 0; i < n.size(); ++i) rejectTags(n[i], source);
  }
}

}  // namespace

Document Document::fromString(const std::string& text, const std::string& source_name) {
  // yaml-cpp keeps about 470 bytes and takes about 6 us per node (measured: a 14 MB flow list
  // of 7,000,000 items needs 3.2 GB and 39 s). Every node but the first follows a ',', a ':', a
  // line break or an opening bracket: their count bounds the nodes before yaml-cpp makes any.
  const auto nodes = std::count_if(text.begin(), text.end(), [](char c) {
    return c == ',' || c == ':' || c == '\n' || c == '[' || c == '{';
  });
  budget::checkCount(nodes + 1, 470, "YAML nodes", {source_name, 0, 0, ""});
  auto state = std::make_shared<State>();
  state->source = source_name;
  try {
    state->root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    if (auto tab = firstIndentTab(text, source_name, e.mark.line + 1)) {
      throw ConfigError(*tab, "tab in indentation: YAML indents with spaces only");
    }
    // yaml-cpp marks are 0-based; ours are 1-based.
    throw ConfigError({source_name, e.mark.line + 1, e.mark.column + 1, ""},
                      "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError({source_name, 0, 0, ""}, "invalid YAML: " + e.msg);
  }
  std::optional<YAML::Mark> second;
  try {
    second = secondDocument(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError({source_name, e.mark.line + 1, e.mark.column + 1, ""},
                      "invalid YAML after the first document: " + e.msg);
  }
  if (second) {
    const bool known = !second->is_null();
    throw ConfigError(
        {source_name, known ? second->line + 1 : 0, known ? second->column + 1 : 0, ""},
        "a second YAML document (or text after the first) starts here; give one "
        "document per file");
  }
  rejectTags(state->root, source_name);
  return Document(std::move(state));
}

Document Document::fromFile(const std::string& path) {
  // A description is a few KiB; reading stops at a bound, so /dev/zero is an error, not a hang.
  const std::string text = readInputFile(path, "a YAML file", size_t{16} << 20);
  return fromString(text, path);
}

Node Document::root() const {
  return makeNode(state_->root, "", nullptr, {state_->source, 1, 1, ""}, state_);
}

const std::string& Document::source() const { return state_->source; }

// ---- MapReader -----------------------------------------------------------------------------

MapReader::MapReader(Node node) : node_(std::move(node)), entries_(node_.entries()) {
  std::map<std::string, int> first_line;
  for (const auto& [key, value] : entries_) {
    const std::string& name = key.scalar();
    auto [it, fresh] = first_line.emplace(name, key.where().line);
    if (!fresh) {
      key.fail("duplicate key " + inQuotes(name) + " (first given on line " +
               std::to_string(it->second) + ")");
    }
  }
}

void MapReader::markKnown(const std::string& key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.push_back(key);
}

std::optional<Node> MapReader::find(const std::string& key) {
  markKnown(key);
  for (const auto& [k, value] : entries_) {
    if (k.scalar() == key) return value;
  }
  return std::nullopt;
}

static std::string inMapping(const std::string& path) {
  return path.empty() ? "at top level" : "in " + inQuotes(path);
}

Node MapReader::require(const std::string& key, std::string_view description) {
  if (auto value = find(key)) return *value;
  SourceLocation where = node_.where();
  where.yaml_path = joinPath(node_.path(), key);
  throw ConfigError(where, "missing required key " + inQuotes(key) + " " + inMapping(node_.path()) +
                               " (" + std::string(description) + ")");
}

void MapReader::finish() const {
  for (const auto& [key, value] : entries_) {
    const std::string& name = key.scalar();
    if (std::find(known_.begin(), known_.end(), name) != known_.end()) continue;
    key.fail("unknown key " + inQuotes(name) + " " + inMapping(node_.path()) +
             didYouMean(name, known_));
  }
}

}  // namespace tessel::yaml
