// Binding the graph inputs' symbolic dimensions: --dim NAME=VALUE, else --batch for a symbolic
// leading dimension; anything left is an error naming the dimension and the inputs using it.
#include "models/onnx/bind.h"

#include <algorithm>

#include "util/checked.h"
#include "util/error.h"

namespace tessel::models::onnx {
namespace {

std::string list(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

Bindings bindDims(const std::string& path, const std::vector<ValueInfo>& inputs,
                  const WorkloadOptions& o) {
  auto fail = [&](const std::string& why) { throw ConfigError({path, 0, 0, "workload"}, why); };
  std::map<std::string, std::vector<std::string>> users;  // symbol -> inputs using it
  std::map<std::string, bool> leading;
  for (const ValueInfo& in : inputs) {
    for (size_t i = 0; i < in.dims.size(); ++i) {
      const Dim& d = in.dims[i];
      if (d.known()) {
        if (*d.value < 0 || *d.value > checked::kMaxCount)
          fail("input '" + in.name + "' has a " + (*d.value < 0 ? "negative" : "too large") +
               " dimension " + std::to_string(*d.value));
        continue;
      }
      if (d.symbol.empty()) {
        fail("input '" + in.name + "' has an unnamed unknown dimension " + std::to_string(i) +
             "; give the model a concrete or named dimension (then --dim NAME=VALUE)");
      }
      auto& u = users[d.symbol];
      if (std::find(u.begin(), u.end(), in.name) == u.end()) u.push_back(in.name);
      if (i == 0) leading[d.symbol] = true;
    }
  }
  Bindings b;
  for (const auto& [name, value] : o.dims) {
    if (!users.count(name)) {
      std::vector<std::string> have;
      for (const auto& kv : users) have.push_back(kv.first);
      fail("--dim " + name + ": the model's inputs have no symbolic dimension '" + name + "'" +
           (have.empty() ? std::string(" (they have none)") : " (they have: " + list(have) + ")"));
    }
    if (value < 1 || value > checked::kMaxCount)
      fail("--dim " + name + "=" + std::to_string(value) + ": must be at least 1 and at most 2^62");
    b[name] = value;
  }
  bool batch_used = false;
  for (const auto& [name, who] : users) {
    if (b.count(name)) continue;
    if (leading.count(name)) {
      b[name] = o.batch;  // a symbolic leading dim is the batch
      batch_used = true;
      continue;
    }
    fail("symbolic dimension '" + name + "' of input" + (who.size() > 1 ? "s " : " ") + list(who) +
         " is not bound: pass --dim " + name + "=VALUE");
  }
  const bool batch_given = std::find(o.given.begin(), o.given.end(), "--batch") != o.given.end();
  if (batch_given && !batch_used) {
    fail("--batch " + std::to_string(o.batch) +
         " does not apply: no input has a symbolic leading dimension left to bind (the model's "
         "batch is fixed, or --dim names it)");
  }
  return b;
}

}  // namespace tessel::models::onnx
