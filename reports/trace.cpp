#include "reports/trace.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace tessel::reports {

std::string chromeTraceString(const std::vector<sim::TraceSlice>& slices, double clock_hz,
                              const sim::RunStats& run) {
  const double us_per_cycle = 1e6 / clock_hz;
  // Tracks in a fixed order, so every trace of a design lists its blocks alike. Slices on one
  // track that overlap in time (transfers at two levels, say) go to a second lane of it, since
  // trace viewers nest the slices of a thread and cannot show a partial overlap.
  static const char* const kOrder[] = {"host", "dma", "array", "sfu"};
  std::vector<std::string> names;
  std::map<std::string, std::vector<std::pair<int, double>>> lanes;  // track -> (tid, busy until)
  for (const char* t : kOrder) {
    names.push_back(t);
    lanes[t].emplace_back(static_cast<int>(names.size()), 0.0);
  }
  std::vector<size_t> order(slices.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return slices[a].start < slices[b].start; });
  nlohmann::json events = nlohmann::json::array();
  for (size_t i : order) {
    const sim::TraceSlice& s = slices[i];
    auto& track = lanes[s.track];
    int tid = -1;
    for (auto& [id, until] : track) {
      if (until <= s.start + 1e-9) {
        tid = id;
        until = s.start + s.duration;
        break;
      }
    }
    if (tid < 0) {
      names.push_back(s.track + (track.empty() ? "" : " " + std::to_string(track.size() + 1)));
      tid = static_cast<int>(names.size());
      track.emplace_back(tid, s.start + s.duration);
    }
    events.push_back({{"name", s.name},
                      {"cat", s.track},
                      {"ph", "X"},
                      {"pid", 1},
                      {"tid", tid},
                      {"ts", s.start * us_per_cycle},
                      {"dur", s.duration * us_per_cycle},
                      {"args",
                       {{"op", s.op},
                        {"tensor", s.tensor},
                        {"bytes", s.bytes},
                        {"start_cycle", s.start},
                        {"cycles", s.duration}}}});
  }
  events.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", 1},
                    {"args", {{"name", run.arch_name + " / " + run.workload}}}});
  for (size_t k = 0; k < names.size(); ++k) {
    const int id = static_cast<int>(k + 1);
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", id},
                      {"args", {{"name", names[k]}}}});
    events.push_back({{"name", "thread_sort_index"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", id},
                      {"args", {{"sort_index", id}}}});
  }
  nlohmann::json doc = {{"traceEvents", events},
                        {"displayTimeUnit", "ns"},
                        {"otherData",
                         {{"tool_version", run.tool_version},
                          {"arch", run.arch_name},
                          {"workload", run.workload},
                          {"engine", run.engine},
                          {"clock_hz", clock_hz}}}};
  return doc.dump(1) + "\n";
}

}  // namespace tessel::reports
