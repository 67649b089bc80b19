// Precision plans (YAML or JSON), applied to a small GPT-2: the result must be a graph whose
// every op computes in the dtype the plan gives it.
#include <string>

#include "fuzz/fuzz_one.h"
#include "models/precision.h"
#include "models/workload.h"
#include "util/error.h"

int fuzzOne(const uint8_t* data, size_t size) {
  static const tessel::models::Graph graph = [] {
    tessel::models::WorkloadOptions o;
    o.seq = 8;
    o.layers = 1;
    return tessel::models::build("gpt2-small", o);
  }();
  try {
    const auto plan = tessel::models::parsePrecisionPlan(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    const tessel::models::Graph g = tessel::models::applyPrecision(graph, plan);
    for (const auto& op : graph.ops()) {
      const int id = g.findOp(op.name);
      if (id < 0) __builtin_trap();
      if (g.tensor(g.op(id).outputs.at(0)).dtype != plan.dtypeOf(op.name)) __builtin_trap();
    }
  } catch (const tessel::ConfigError&) {
  }
  return 0;
}
