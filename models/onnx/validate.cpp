#include "models/onnx/validate.h"

#include <set>

#include "util/error.h"

namespace tessel::models::onnx {
namespace {

constexpr int64_t kMaxWindow = int64_t{1} << 31;

const std::set<std::string>& windowOps() {
  static const std::set<std::string> ops = {"Conv",        "ConvTranspose", "ConvInteger",
                                            "QLinearConv", "MaxPool",       "AveragePool",
                                            "LpPool",      "MaxUnpool"};
  return ops;
}

// Rank of a value the file states (graph inputs, initializers), or -1.
int64_t staticRank(const OnnxModel& m, const std::string& name) {
  for (const ValueInfo& v : m.inputs)
    if (v.name == name) return v.has_shape ? static_cast<int64_t>(v.dims.size()) : -1;
  for (const Initializer& i : m.initializers)
    if (i.name == name) return static_cast<int64_t>(i.dims.size());
  return -1;
}

void checkWindow(const OnnxModel& m, const Node& n) {
  auto fail = [&](const std::string& why) {
    throw ConfigError({m.path, 0, 0, "workload"},
                      "node '" + n.name + "' (" + n.op_type + "): " + why);
  };
  size_t spatial = 0;
  for (const char* name : {"kernel_shape", "strides", "dilations", "output_padding"}) {
    auto it = n.attributes.find(name);
    if (it == n.attributes.end()) continue;
    const auto& v = it->second.ints;
    const int64_t lo = std::string(name) == "output_padding" ? 0 : 1;
    for (int64_t x : v)
      if (x < lo || x > kMaxWindow)
        fail(std::string(name) + " has an out-of-range value " + std::to_string(x));
    if (spatial && v.size() != spatial)
      fail(std::string(name) + " differs in length from the others");
    spatial = v.size();
  }
  auto pads = n.attributes.find("pads");
  if (pads != n.attributes.end()) {
    for (int64_t x : pads->second.ints)
      if (x < 0 || x > kMaxWindow) fail("pads has an out-of-range value " + std::to_string(x));
    if (spatial && pads->second.ints.size() != 2 * spatial)
      fail("pads must have 2 entries per spatial axis");
  }
  auto group = n.attributes.find("group");
  if (group != n.attributes.end() && (group->second.i < 1 || group->second.i > kMaxWindow))
    fail("group must be at least 1");
  const size_t wi = n.op_type == "QLinearConv" ? 3 : 1;
  const bool conv = n.op_type.find("Conv") != std::string::npos;
  if (!conv || n.inputs.empty() || n.inputs.size() <= wi) return;
  const int64_t x = staticRank(m, n.inputs[0]), w = staticRank(m, n.inputs[wi]);
  if ((x >= 0 && x < 3) || (w >= 0 && w < 3) || (x >= 0 && w >= 0 && x != w))
    fail("input and weight must have the same rank, at least 3");
  if (spatial && x >= 0 && static_cast<size_t>(x) != spatial + 2)
    fail("the attributes do not match the input's rank");
}

}  // namespace

void checkBeforeInference(const OnnxModel& m) {
  for (const Node& n : m.nodes) {
    if (!n.domain.empty()) continue;
    if (windowOps().count(n.op_type)) checkWindow(m, n);
    if (n.op_type == "SpaceToDepth" || n.op_type == "DepthToSpace") {
      auto b = n.attributes.find("blocksize");
      if (b != n.attributes.end() && b->second.i < 1)
        throw ConfigError({m.path, 0, 0, "workload"}, "node '" + n.name + "' (" + n.op_type +
                                                          "): blocksize must be at least 1");
    }
  }
}

}  // namespace tessel::models::onnx
