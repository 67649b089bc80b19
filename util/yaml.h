// A thin reader over yaml-cpp that remembers where every value came from: file, 1-based
// line and column, and the dotted YAML path ("accumulator.capacity", "levels[2].banks"), so
// that semantic errors can name them. yaml-cpp stays behind a pimpl: including this header
// does not pull in yaml-cpp.
//
//   auto doc = yaml::Document::fromFile("configs/arch/gemmini-default.yaml");
//   doc.override("accumulator.capacity=256KiB");            // a -p option
//   yaml::MapReader top(doc.root());
//   yaml::MapReader acc(top.require("accumulator", "the output memory"));
//   int banks = acc.optional<int>("banks", 1, "independently addressed banks");
//   acc.finish();                                             // unknown keys -> ConfigError
//   top.finish();
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.h"

namespace tessel::yaml {

// One value of a parsed tree with its location. Cheap to copy; shares the document.
class Node {
 public:
  enum class Type { Null, Scalar, Sequence, Map };

  Type type() const;
  bool isNull() const { return type() == Type::Null; }
  bool isScalar() const { return type() == Type::Scalar; }
  bool isSequence() const { return type() == Type::Sequence; }
  bool isMap() const { return type() == Type::Map; }

  // File, line, column (1-based; 0 for values given by -p) and YAML path ("" = the root).
  const SourceLocation& where() const;
  const std::string& path() const { return where().yaml_path; }
  // "'sixteen'", "a mapping", "a list" or "nothing": for "expected X, got Y" messages.
  std::string describe() const;

  // The scalar's text; ConfigError "expected <what>, got a mapping" if not a scalar.
  const std::string& scalar(std::string_view what = "a scalar value") const;
  // A sequence's elements, paths "key[0]", "key[1]", ...; ConfigError if not a sequence.
  std::vector<Node> items() const;
  // A mapping's (key, value) pairs in file order; keys are scalar nodes located at the key.
  std::vector<std::pair<Node, Node>> entries() const;

  // Typed value: bool (true/false only), int, int64_t, double (finite), std::string,
  // std::vector<std::string> (a list of scalars). ConfigError "expected an integer, got
  // 'sixteen'" and the like on a mismatch.
  template <class T>
  T as() const;

  // Throws ConfigError(where(), message).
  [[noreturn]] void fail(const std::string& message) const;

  struct Impl;
  explicit Node(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

// The supported conversions (defined in yaml.cpp).
template <>
std::string Node::as<std::string>() const;
template <>
bool Node::as<bool>() const;
template <>
int Node::as<int>() const;
template <>
int64_t Node::as<int64_t>() const;
template <>
double Node::as<double>() const;
template <>
std::vector<std::string> Node::as<std::vector<std::string>>() const;

// A parsed YAML document plus the -p overrides applied to it.
class Document {
 public:
  // ConfigError if the file cannot be read or is not valid YAML (with yaml-cpp's line/column).
  static Document fromFile(const std::string& path);
  // `source_name` stands in for the file name in locations.
  static Document fromString(const std::string& text, const std::string& source_name);

  // Applies one "-p dotted.path=value" override. The value is parsed as YAML, so
  // "dataflows=[ws]" sets a list and "sfu={ops: [gelu]}" a whole mapping. Every step of the
  // path but the last must exist ("array.dataflows[1]" indexes a list); the last key may be
  // new, and the schema reading the document then decides whether it is known. A null value
  // ("sfu=null", "sfu=~") removes the key, e.g. a whole optional section. Values set
  // here are located at "<-p dotted.path=value>". ConfigError (with a did-you-mean) if the
  // path does not exist or the assignment is malformed.
  void override(const std::string& assignment);

  // Adds an empty mapping at dotted `path` when its parent is a mapping and `path` is
  // absent, so that -p can reach into sections a schema treats as present by default.
  void ensureMapping(const std::string& path);

  Node root() const;
  const std::string& source() const;

  struct State;

 private:
  explicit Document(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

// Declarative reading of one mapping. Every key asked about (present or not) becomes known;
// finish() rejects the keys nobody asked about.
class MapReader {
 public:
  // ConfigError unless `node` is a mapping with scalar, unique keys.
  explicit MapReader(Node node);

  // The value under `key`; a missing key is a ConfigError located at this mapping, naming the
  // key and its description.
  Node require(const std::string& key, std::string_view description);
  // The value under `key`, if present.
  std::optional<Node> find(const std::string& key);

  template <class T>
  T required(const std::string& key, std::string_view description) {
    return require(key, description).as<T>();
  }
  template <class T>
  T optional(const std::string& key, T fallback, std::string_view description) {
    auto value = find(key);
    return value ? value->as<T>() : fallback;
  }

  // ConfigError "unknown key 'capcity' in 'scratchpad'; did you mean 'capacity'?" for the
  // first key in file order that was never asked about, located at that key.
  void finish() const;

  const Node& node() const { return node_; }
  // Keys asked about so far, in order of asking.
  const std::vector<std::string>& knownKeys() const { return known_; }

 private:
  void markKnown(const std::string& key);

  Node node_;
  std::vector<std::pair<Node, Node>> entries_;
  std::vector<std::string> known_;
};

// "accumulator.capacity" -> "accumulator", "levels[2]" -> "levels", "name" -> "".
std::string parentPath(const std::string& path);
// The child path: joinPath("", "name") = "name", joinPath("dram", "latency") = "dram.latency".
std::string joinPath(const std::string& parent, const std::string& key);

}  // namespace tessel::yaml
