#include "sweep/fronts.h"

#include <cmath>

#include "sweep/pareto.h"

namespace tessel::sweep {
namespace {

bool isWorkloadKey(const std::string& key) {
  return key == "workload" || key.rfind("workload.", 0) == 0;
}

// The variant's identity ("workload=...;workload.seq=...") and its workload options.
std::pair<std::string, nlohmann::ordered_json> variantOf(const ResultLine& line) {
  std::string id;
  nlohmann::ordered_json options = nlohmann::ordered_json::object();
  for (const auto& [k, v] : line.params.items()) {
    if (!isWorkloadKey(k)) continue;
    id += k + "=" + v.dump() + ";";
    if (k != "workload") options[k] = v;
  }
  return {id, options};
}

// The line's coordinates as costs (a maximized metric negated); empty when one is missing.
std::vector<double> costsOf(const ResultLine& line, const std::vector<Objective>& objectives) {
  std::vector<double> costs;
  for (const Objective& o : objectives) {
    const double v = metricNumber(line, o.metric);
    if (!std::isfinite(v)) return {};
    costs.push_back(o.maximize ? -v : v);
  }
  return costs;
}

struct Variant {
  ParetoFront front;
  std::vector<std::vector<double>> costs;
  std::vector<int64_t> index;  // of each candidate
};

}  // namespace

std::vector<ParetoFront> paretoFronts(const Spec& spec, const std::vector<ResultLine>& lines) {
  if (spec.pareto.empty()) return {};
  std::vector<std::string> ids;
  std::vector<Variant> variants;
  for (const ResultLine& line : lines) {
    if (!line.ok || line.violated) continue;
    std::vector<double> costs = costsOf(line, spec.pareto);
    if (costs.empty()) continue;
    auto [id, options] = variantOf(line);
    size_t at = 0;
    while (at < ids.size() && ids[at] != id) ++at;
    if (at == ids.size()) {
      ids.push_back(id);
      variants.push_back({{line.params.value("workload", std::string()), options, 0, {}}, {}, {}});
    }
    variants[at].costs.push_back(std::move(costs));
    variants[at].index.push_back(line.index);
  }
  std::vector<ParetoFront> fronts;
  for (Variant& v : variants) {
    v.front.candidates = static_cast<int64_t>(v.costs.size());
    for (const size_t i : paretoFront(v.costs)) v.front.indices.push_back(v.index[i]);
    fronts.push_back(std::move(v.front));
  }
  return fronts;
}

}  // namespace tessel::sweep
