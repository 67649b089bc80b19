// Internal to models/families/: typed, located access to the fields of a Hugging Face
// config.json. Every error is a ConfigError naming the source, the field path and, when the
// field can be found in the text, its line:column.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "util/error.h"

namespace tessel::models::hf {

class Fields {
 public:
  // Parses `text`; a syntax error is a ConfigError at the byte's line:column.
  static Fields parse(const std::string& text, const std::string& source);

  // Present and not null.
  bool has(const std::string& key) const;
  // Required positive integer.
  int64_t positive(const std::string& key) const;
  // Required positive integer that sizes the graph: `key` items of `bytes_each` bytes must fit
  // the memory budget (util/budget.h), else a ConfigError at the field naming `items`.
  // With a `fallback`, the field is optional.
  int64_t count(const std::string& key, int64_t bytes_each, const std::string& items,
                std::optional<int64_t> fallback = std::nullopt) const;
  // Optional positive integer: `fallback` when absent or null.
  int64_t positiveOr(const std::string& key, int64_t fallback) const;
  // Optional number (integer or float), `fallback` when absent or null.
  double number(const std::string& key, double fallback) const;
  bool flag(const std::string& key, bool fallback) const;
  std::string text(const std::string& key, const std::string& fallback) const;
  std::string requiredText(const std::string& key) const;
  // The strings of an array field (e.g. "architectures"); empty when absent.
  std::vector<std::string> texts(const std::string& key) const;
  // The non-negative integers of an array field (e.g. "mlp_only_layers"); empty when absent.
  std::vector<int64_t> indices(const std::string& key) const;
  // Elements of an object or array field; 0 when absent.
  int64_t size(const std::string& key) const;
  // A nested object (e.g. "rope_scaling"); nullopt when absent or null.
  std::optional<Fields> object(const std::string& key) const;

  // Marks a field as known (read or deliberately irrelevant) without reading it.
  void accept(const std::string& key) const;
  // Keys present and never read nor accepted.
  std::vector<std::string> unread() const;

  // Throws ConfigError at field `key` (a name under this object).
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  const std::string& source() const { return *source_; }

 private:
  Fields() = default;
  const nlohmann::json& at(const std::string& key) const;
  SourceLocation where(const std::string& key) const;
  std::string path(const std::string& key) const;

  std::shared_ptr<const nlohmann::json> root_;  // keeps the document alive for nested views
  const nlohmann::json* node_ = nullptr;
  std::shared_ptr<const std::string> source_, text_;
  std::string prefix_;  // "rope_scaling." for a nested object
  size_t start_ = 0;    // where this object's key appears in the text (to locate children)
  std::shared_ptr<std::set<std::string>> read_;
};

}  // namespace tessel::models::hf
