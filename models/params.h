// Internal to models/: the KEY=VALUE lists of gemm:/conv: workload names.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace tessel::models::detail {

struct ParamSpec {
  std::string key;  // canonical spelling, matched case-insensitively
  bool required = true;
  int64_t min = 1;       // smallest allowed value
  int64_t fallback = 0;  // value when optional and absent
};

// Values by canonical key, every spec key present.
using Params = std::map<std::string, int64_t>;

// Parses "K1=V1,K2=V2" (spaces around tokens allowed). Throws ConfigError at yaml_path
// "workload", quoting `text` (the whole workload name) and `usage`, for an empty or malformed
// item, an unknown key (with a suggestion), a repeated key, a non-integer value, a value below
// its minimum, or a missing required key.
Params parseParams(const std::string& text, const std::string& params, const std::string& usage,
                   const std::vector<ParamSpec>& spec);

// Throws ConfigError when the product of `factors` (a MAC count) overflows int64.
void checkedProduct(const std::string& text, std::initializer_list<int64_t> factors);

}  // namespace tessel::models::detail
