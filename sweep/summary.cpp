#include "sweep/summary.h"

#include <algorithm>
#include <filesystem>

#include "sweep/results_dir.h"

namespace tessel::sweep {
namespace {

using Json = nlohmann::ordered_json;

Json frontsJson(const Spec& spec, const std::vector<ParetoFront>& fronts) {
  Json objectives = Json::array();
  for (const Objective& o : spec.pareto) {
    objectives.push_back({{"metric", o.metric}, {"direction", o.maximize ? "max" : "min"}});
  }
  Json list = Json::array();
  for (const ParetoFront& f : fronts) {
    list.push_back({{"workload", f.workload},
                    {"options", f.options},
                    {"candidates", f.candidates},
                    {"indices", f.indices}});
  }
  return {{"objectives", objectives}, {"fronts", list}};
}

Json notesJson(const std::vector<AxisNote>& notes) {
  Json list = Json::array();
  for (const AxisNote& n : notes) {
    Json j = {{"key", n.key}, {"message", n.message}, {"groups", n.groups}};
    if (!n.offchip_limit.empty()) {
      j["offchip_limit"] = n.offchip_limit;
      j["offchip_bytes_per_cycle"] = n.offchip_bytes_per_cycle;
    }
    list.push_back(j);
  }
  return list;
}

}  // namespace

Summary summarize(const Spec& spec, const std::vector<std::string>& text,
                  const std::string& source) {
  std::vector<ResultLine> lines = parseResultLines(text, source);
  std::stable_sort(lines.begin(), lines.end(),
                   [](const ResultLine& a, const ResultLine& b) { return a.index < b.index; });
  Summary s;
  s.points = static_cast<int64_t>(lines.size());
  for (const ResultLine& l : lines) {
    s.ok += l.ok;
    s.failed += !l.ok;
    s.violated += l.violated;
  }
  s.fronts = paretoFronts(spec, lines);
  s.notes = flatAxes(spec, lines);
  return s;
}

std::string summaryJson(const Spec& spec, const Summary& s) {
  Json j = {{"schema", "tessel.sweep-summary/1"},
            {"points", s.points},
            {"ok", s.ok},
            {"failed", s.failed},
            {"violated", s.violated}};
  if (!spec.pareto.empty()) j["pareto"] = frontsJson(spec, s.fronts);
  j["notes"] = notesJson(s.notes);
  return j.dump(2) + "\n";
}

Summary writeSummary(const Spec& spec, const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string results = (fs::path(dir) / "results.jsonl").string();
  const Summary s = summarize(spec, readResultLines(results), results);
  replaceAtomically((fs::path(dir) / "summary.json").string(), summaryJson(spec, s));
  return s;
}

}  // namespace tessel::sweep
