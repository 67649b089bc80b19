#include "sweep/expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace tessel::sweep {
namespace {

struct Unit {
  std::string_view name;
  double scale;
};
constexpr Unit kUnits[] = {
    {"B/cycle", 1},       {"B", 1},           {"kB", 1e3},          {"MB", 1e6},
    {"GB", 1e9},          {"TB", 1e12},       {"KiB", 1024.0},      {"MiB", 1048576.0},
    {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}, {"Hz", 1},      {"kHz", 1e3},
    {"MHz", 1e6},         {"GHz", 1e9},       {"cycles", 1},        {"cycle", 1},
};

std::optional<double> unitScale(std::string_view name) {
  for (const Unit& u : kUnits) {
    if (u.name == name) return u.scale;
  }
  return std::nullopt;
}

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' ||
         c == ']';
}

// Recursive descent over the grammar in the header; one instance per evaluation.
class Parser {
 public:
  // With `names_only`, every key reads as 1 and a division by zero is not an error: the parse
  // only collects the identifiers.
  Parser(std::string_view text, const Lookup& lookup, const SourceLocation& where,
         bool names_only = false)
      : text_(text), lookup_(lookup), where_(where), names_only_(names_only) {}

  double parse() {
    const double v = logicOr();
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(text_.substr(pos_)) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ConfigError(where_, "in '" + std::string(text_) + "': " + what);
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view op) {
    skipSpace();
    if (text_.substr(pos_, op.size()) != op) return false;
    pos_ += op.size();
    return true;
  }
  double logicOr() {
    double v = logicAnd();
    while (accept("||")) {
      const double r = logicAnd();
      v = (v != 0 || r != 0) ? 1 : 0;
    }
    return v;
  }
  double logicAnd() {
    double v = comparison();
    while (accept("&&")) {
      const double r = comparison();
      v = (v != 0 && r != 0) ? 1 : 0;
    }
    return v;
  }
  double comparison() {
    const double a = sum();
    // Two-character operators first, so "<=" is not read as "<".
    for (std::string_view op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (!accept(op)) continue;
      const double b = sum();
      const double tol = 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
      if (op == "==") return std::fabs(a - b) <= tol;
      if (op == "!=") return std::fabs(a - b) > tol;
      if (op == "<=") return a <= b + tol;
      if (op == ">=") return a + tol >= b;
      if (op == "<") return a < b - tol;
      return a > b + tol;
    }
    return a;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (accept("+")) {
        v += product();
      } else if (accept("-")) {
        v -= product();
      } else {
        return v;
      }
    }
  }
  double product() {
    double v = unary();
    for (;;) {
      if (accept("*")) {
        v *= unary();
      } else if (accept("/")) {
        const double d = unary();
        if (d == 0 && !names_only_) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  double unary() {
    if (accept("-")) return -unary();
    if (accept("!") ) return unary() == 0 ? 1 : 0;
    return primary();
  }
  double primary() {
    skipSpace();
    if (pos_ >= text_.size()) fail("expected a number, a key or '('");
    if (accept("(")) {
      const double v = logicOr();
      if (!accept(")")) fail("expected ')'");
      return v;
    }
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return identifier();
    fail(std::string("unexpected '") + c + "'");
  }
  double number() {
    double v = 0;
    const char* begin = text_.data() + pos_;
    const auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), v);
    if (ec != std::errc()) fail("malformed number");
    pos_ += static_cast<size_t>(end - begin);
    // An optional unit, attached or after a space.
    const size_t save = pos_;
    skipSpace();
    size_t e = pos_;
    while (e < text_.size() && (isIdentChar(text_[e]) || text_[e] == '/')) ++e;
    if (auto scale = unitScale(text_.substr(pos_, e - pos_))) {
      pos_ = e;
      return v * *scale;
    }
    pos_ = save;
    return v;
  }
  double identifier() {
    size_t e = pos_;
    while (e < text_.size() && isIdentChar(text_[e])) ++e;
    const std::string name(text_.substr(pos_, e - pos_));
    pos_ = e;
    if (name == "min" || name == "max") {
      if (!accept("(")) fail("expected '(' after " + name);
      const double a = logicOr();
      if (!accept(",")) fail("expected ',' in " + name + "(a, b)");
      const double b = logicOr();
      if (!accept(")")) fail("expected ')'");
      return name == "min" ? std::min(a, b) : std::max(a, b);
    }
    if (name == "true") return 1;
    if (name == "false") return 0;
    return lookup_(name);
  }

  std::string_view text_;
  const Lookup& lookup_;
  const SourceLocation& where_;
  bool names_only_;
  size_t pos_ = 0;
};

}  // namespace

double evaluate(std::string_view expression, const Lookup& lookup, const SourceLocation& where) {
  const double v = Parser(expression, lookup, where).parse();
  if (!std::isfinite(v)) {
    throw ConfigError(where, "'" + std::string(expression) + "' is not a finite number");
  }
  return v;
}

std::vector<std::string> identifiers(std::string_view expression, const SourceLocation& where) {
  std::vector<std::string> names;
  const Lookup collect = [&](const std::string& key) {
    if (std::find(names.begin(), names.end(), key) == names.end()) names.push_back(key);
    return 1.0;
  };
  Parser(expression, collect, where, /*names_only=*/true).parse();
  return names;
}

std::optional<double> quantity(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || !std::isfinite(v)) return std::nullopt;
  std::string_view unit = text.substr(static_cast<size_t>(end - text.data()));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty()) return v;
  if (auto scale = unitScale(unit)) return v * *scale;
  return std::nullopt;
}

}  // namespace tessel::sweep
