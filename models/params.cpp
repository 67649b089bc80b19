#include "models/params.h"

#include <cctype>
#include <charconv>

#include "models/builders.h"
#include "models/suggest.h"

namespace tessel::models::detail {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool sameKey(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

[[noreturn]] void fail(const std::string& text, const std::string& usage, const std::string& why) {
  configError("workload", "'" + text + "': " + why + " (expected " + usage + ")");
}

const ParamSpec& findSpec(const std::string& key, const std::vector<ParamSpec>& spec,
                          const std::string& text, const std::string& usage) {
  std::vector<std::string> keys;
  for (const ParamSpec& s : spec) {
    if (sameKey(s.key, key)) return s;
    keys.push_back(s.key);
  }
  std::string hint = closest(key, keys);
  fail(text, usage,
       "unknown parameter '" + key + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
}

int64_t parseValue(const std::string& item, const std::string& value, const ParamSpec& s,
                   const std::string& text, const std::string& usage) {
  int64_t v = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, v);
  if (value.empty() || ec != std::errc() || ptr != end) {
    fail(text, usage, "'" + item + "': " + s.key + " must be an integer");
  }
  if (v < s.min) {
    fail(text, usage, "'" + item + "': " + s.key + " must be at least " + std::to_string(s.min));
  }
  return v;
}

}  // namespace

Params parseParams(const std::string& text, const std::string& params, const std::string& usage,
                   const std::vector<ParamSpec>& spec) {
  Params out;
  size_t start = 0;
  while (!params.empty() && start <= params.size()) {
    size_t comma = params.find(',', start);
    if (comma == std::string::npos) comma = params.size();
    const std::string item = trim(params.substr(start, comma - start));
    start = comma + 1;
    const size_t eq = item.find('=');
    if (item.empty() || eq == std::string::npos) {
      fail(text, usage, item.empty() ? "empty parameter" : "'" + item + "' is not KEY=VALUE");
    }
    const ParamSpec& s = findSpec(trim(item.substr(0, eq)), spec, text, usage);
    if (out.count(s.key)) fail(text, usage, s.key + " is given twice");
    out[s.key] = parseValue(item, trim(item.substr(eq + 1)), s, text, usage);
  }
  for (const ParamSpec& s : spec) {
    if (out.count(s.key)) continue;
    if (s.required) fail(text, usage, "missing " + s.key);
    out[s.key] = s.fallback;
  }
  return out;
}

void checkedProduct(const std::string& text, std::initializer_list<int64_t> factors) {
  int64_t product = 1;
  for (int64_t f : factors) {
    if (__builtin_mul_overflow(product, f, &product)) {
      configError("workload", "'" + text + "': too large (the MAC count overflows 64 bits)");
    }
  }
}

}  // namespace tessel::models::detail
