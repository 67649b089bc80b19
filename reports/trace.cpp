#include "reports/trace.h"

#include <map>

#include <nlohmann/json.hpp>

namespace tessel::reports {

std::string chromeTraceString(const std::vector<sim::TraceSlice>& slices, double clock_hz,
                              const sim::RunStats& run) {
  const double us_per_cycle = 1e6 / clock_hz;
  // Tracks in a fixed order, so every trace of a design lists its blocks alike.
  static const char* const kOrder[] = {"host", "dma", "array", "sfu"};
  std::map<std::string, int> tid;
  for (const char* t : kOrder) tid.emplace(t, static_cast<int>(tid.size()) + 1);
  nlohmann::json events = nlohmann::json::array();
  for (const sim::TraceSlice& s : slices) {
    if (!tid.count(s.track)) tid.emplace(s.track, static_cast<int>(tid.size()) + 1);
    events.push_back({{"name", s.name},
                      {"cat", s.track},
                      {"ph", "X"},
                      {"pid", 1},
                      {"tid", tid[s.track]},
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
  for (const auto& [name, id] : tid) {
    events.push_back(
        {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", id}, {"args", {{"name", name}}}});
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
