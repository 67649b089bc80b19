#include "models/families/fields.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "util/budget.h"
#include "util/error.h"

namespace tessel::models::hf {
namespace {

using nlohmann::json;

// 1-based line:column of byte offset `pos` in `text`.
std::pair<int, int> lineColumn(const std::string& text, size_t pos) {
  int line = 1, column = 1;
  for (size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// Offset of `"key"` used as an object key (followed by ':') at or after `from`; npos if none.
size_t findKey(const std::string& text, const std::string& key, size_t from) {
  const std::string quoted = "\"" + key + "\"";
  for (size_t at = text.find(quoted, from); at != std::string::npos;
       at = text.find(quoted, at + 1)) {
    size_t next = text.find_first_not_of(" \t\r\n", at + quoted.size());
    if (next != std::string::npos && text[next] == ':') return at;
  }
  return std::string::npos;
}

const char* typeName(const json& v) { return v.type_name(); }

}  // namespace

Fields Fields::parse(const std::string& text, const std::string& source) {
  Fields f;
  f.source_ = std::make_shared<const std::string>(source);
  f.text_ = std::make_shared<const std::string>(text);
  f.read_ = std::make_shared<std::set<std::string>>();
  try {
    f.root_ = std::make_shared<const json>(json::parse(text));
  } catch (const json::parse_error& e) {
    // e.byte is the 1-based offset of the character that broke the parse.
    auto [line, column] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    throw ConfigError({source, line, column, ""}, std::string("malformed JSON: ") + e.what());
  } catch (const json::out_of_range& e) {  // a number beyond a double (1e999), not a parse_error
    throw ConfigError({source, 0, 0, ""}, std::string("malformed JSON: ") + e.what());
  }
  if (!f.root_->is_object()) {
    throw ConfigError({source, 1, 1, ""}, "a config.json must be a JSON object");
  }
  f.node_ = f.root_.get();
  return f;
}

std::string Fields::path(const std::string& key) const { return prefix_ + key; }

SourceLocation Fields::where(const std::string& key) const {
  SourceLocation where{*source_, 0, 0, path(key)};
  size_t at = findKey(*text_, key, start_);
  if (at != std::string::npos) std::tie(where.line, where.column) = lineColumn(*text_, at);
  return where;
}

void Fields::fail(const std::string& key, const std::string& message) const {
  throw ConfigError(where(key), message);
}

int64_t Fields::count(const std::string& key, int64_t bytes_each, const std::string& items,
                      std::optional<int64_t> fallback) const {
  if (fallback && !has(key)) return positiveOr(key, *fallback);  // marks it read
  const int64_t n = positive(key);
  budget::checkCount(n, bytes_each, items, where(key));
  return n;
}

bool Fields::has(const std::string& key) const {
  auto it = node_->find(key);
  return it != node_->end() && !it->is_null();
}

const json& Fields::at(const std::string& key) const {
  read_->insert(path(key));
  auto it = node_->find(key);
  if (it == node_->end() || it->is_null())
    fail(key, "required field '" + path(key) + "' is missing");
  return *it;
}

void Fields::accept(const std::string& key) const { read_->insert(path(key)); }

int64_t Fields::positive(const std::string& key) const {
  const json& v = at(key);
  if (!v.is_number_integer()) {
    fail(key, "'" + path(key) + "' must be an integer (got " +
                  (v.is_number() ? v.dump() : std::string(typeName(v))) + ")");
  }
  // Non-negative literals parse as unsigned; 2^62 keeps every product of two fields in range.
  const bool ok = v.is_number_unsigned()
                      ? v.get<uint64_t>() >= 1 && v.get<uint64_t>() <= uint64_t{1} << 62
                      : v.get<int64_t>() >= 1;
  if (!ok) {
    fail(key, "'" + path(key) + "' must be a positive integer (got " + v.dump() + ")");
  }
  return v.get<int64_t>();
}

int64_t Fields::positiveOr(const std::string& key, int64_t fallback) const {
  accept(key);
  return has(key) ? positive(key) : fallback;
}

double Fields::number(const std::string& key, double fallback) const {
  accept(key);
  if (!has(key)) return fallback;
  const json& v = at(key);
  if (!v.is_number()) fail(key, "'" + path(key) + "' must be a number (got " + typeName(v) + ")");
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(key, "'" + path(key) + "' must be finite");
  return d;
}

bool Fields::flag(const std::string& key, bool fallback) const {
  accept(key);
  if (!has(key)) return fallback;
  const json& v = at(key);
  if (!v.is_boolean())
    fail(key, "'" + path(key) + "' must be true or false (got " + v.dump() + ")");
  return v.get<bool>();
}

std::string Fields::text(const std::string& key, const std::string& fallback) const {
  accept(key);
  return has(key) ? requiredText(key) : fallback;
}

std::string Fields::requiredText(const std::string& key) const {
  const json& v = at(key);
  if (!v.is_string()) fail(key, "'" + path(key) + "' must be a string (got " + typeName(v) + ")");
  return v.get<std::string>();
}

std::vector<std::string> Fields::texts(const std::string& key) const {
  accept(key);
  std::vector<std::string> out;
  if (!has(key)) return out;
  const json& v = at(key);
  if (!v.is_array()) fail(key, "'" + path(key) + "' must be an array (got " + typeName(v) + ")");
  for (const json& e : v) {
    if (!e.is_string()) fail(key, "'" + path(key) + "' must hold strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

std::vector<int64_t> Fields::indices(const std::string& key) const {
  accept(key);
  std::vector<int64_t> out;
  if (!has(key)) return out;
  const json& v = at(key);
  if (!v.is_array()) fail(key, "'" + path(key) + "' must be an array (got " + typeName(v) + ")");
  for (const json& e : v) {
    if (!e.is_number_unsigned() || e.get<uint64_t>() > uint64_t{1} << 62) {
      fail(key, "'" + path(key) + "' must hold non-negative integers (got " + e.dump() + ")");
    }
    out.push_back(e.get<int64_t>());
  }
  return out;
}

int64_t Fields::size(const std::string& key) const {
  accept(key);
  return has(key) ? static_cast<int64_t>(at(key).size()) : 0;
}

std::optional<Fields> Fields::object(const std::string& key) const {
  accept(key);
  if (!has(key)) return std::nullopt;
  const json& v = at(key);
  if (!v.is_object()) fail(key, "'" + path(key) + "' must be an object (got " + typeName(v) + ")");
  Fields sub = *this;
  sub.node_ = &v;
  sub.prefix_ = path(key) + ".";
  size_t at_key = findKey(*text_, key, start_);
  sub.start_ = at_key == std::string::npos ? start_ : at_key;
  return sub;
}

std::vector<std::string> Fields::unread() const {
  std::vector<std::string> out;
  for (auto it = node_->begin(); it != node_->end(); ++it) {
    if (!read_->count(path(it.key()))) out.push_back(path(it.key()));
  }
  return out;
}

}  // namespace tessel::models::hf
