// Writes sweep directories in the format `tessel sweep` produces (sweep.json + results.jsonl or
// points.jsonl), with metrics from a formula, so the report's numbers can be recomputed here.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tessel::reports::testing {

struct FixturePoint {
  nlohmann::json line;  // the whole JSON line
};

// scratchpad {16, 64, 256} KiB x accumulator {64, 256} KiB x seq {64, 128} x the workloads:
// cycles fall with both memories and grow with seq; SRAM bytes grow with both, so latency and
// SRAM trade off. The point with index `failed` (if any) is infeasible.
// With `dataflows` (e.g. {"ws", "os"}), every point is repeated per dataflow (the innermost
// key, a string): the i-th dataflow takes (1 + 0.2 i) x the cycles and (1 + 0.1 i) x the
// energy; the points record an area, 0.5 mm² + 1 mm² per MiB of SRAM, and energy falls with SRAM
// (less DRAM traffic), so latency, energy and area all trade off.
inline std::vector<FixturePoint> sweepPoints(const std::vector<std::string>& workloads,
                                             int failed = -1,
                                             const std::vector<std::string>& dataflows = {}) {
  std::vector<FixturePoint> pts;
  int index = 0;
  const std::vector<std::string> dfs = dataflows.empty() ? std::vector<std::string>{""} : dataflows;
  for (const std::string& w : workloads) {
    for (const int sp : {16, 64, 256}) {
      for (const int acc : {64, 256}) {
        for (const int seq : {64, 128}) {
          for (size_t df = 0; df < dfs.size(); ++df) {
            nlohmann::json j;
            j["index"] = index;
            j["id"] = "id" + std::to_string(index);
            j["params"] = {{"scratchpad.capacity", std::to_string(sp) + "KiB"},
                           {"accumulator.capacity", std::to_string(acc) + "KiB"},
                           {"workload", w},
                           {"workload.seq", seq}};
            j["numeric"] = {{"scratchpad.capacity", sp * 1024},
                            {"accumulator.capacity", acc * 1024},
                            {"workload.seq", seq}};
            if (!dfs[df].empty()) j["params"]["dataflow"] = dfs[df];
            if (index == failed) {
              j["status"] = "failed";
              j["error"] = "infeasible: no mapping for op 'h0.attn.qkv': scratchpad too small";
              j["error_kind"] = "infeasible";
            } else {
              const double cycles =
                  (1e6 + 3e7 / sp + 1e7 / acc) * seq / 64.0 * (w == "bert" ? 1.5 : 1);
              const double sram = (sp + acc) * 1024.0;
              j["status"] = "ok";
              j["metrics"] = {
                  {"cycles", cycles},
                  {"seconds", cycles / 1e9},
                  {"energy_pj", cycles * 2.5 + sram * 4},
                  {"utilization", 0.5},
                  {"sram_bytes", sram},
                  {"by_class", {{"MatMul", cycles * 0.75}, {"Softmax", cycles * 0.25}}}};
              if (!dfs[df].empty()) {
                const double c = cycles * (1 + 0.2 * static_cast<double>(df));
                j["metrics"]["cycles"] = c;
                j["metrics"]["seconds"] = c / 1e9;
                j["metrics"]["energy_pj"] =
                    (1e9 + 4e11 / (sp + acc) + cycles) * (1 + 0.1 * static_cast<double>(df));
                j["metrics"]["area_mm2"] = 0.5 + sram / (1024.0 * 1024.0);
                j["metrics"]["by_class"] = {{"MatMul", c * 0.75}, {"Softmax", c * 0.25}};
              }
            }
            pts.push_back({j});
            ++index;
          }
        }
      }
    }
  }
  return pts;
}

inline void writeSweep(const std::string& dir, const std::vector<FixturePoint>& pts,
                       const std::string& file = "results.jsonl", const std::string& tail = "") {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  nlohmann::json meta = {
      {"schema", "tessel.sweep/1"},
      {"name", "sram"},
      {"spec", "configs/sweeps/x.yaml"},
      {"spec_hash", "abc"},
      {"base_arch", "configs/arch/gemmini-default.yaml"},
      {"engine", "analytical"},
      {"total_points", pts.size()},
      {"keys", {"scratchpad.capacity", "accumulator.capacity", "workload", "workload.seq"}},
      {"metrics", {"cycles", "seconds", "energy_pj", "utilization", "sram_bytes", "by_class"}}};
  if (!pts.empty() && pts[0].line["params"].contains("dataflow")) {
    meta["keys"].push_back("dataflow");
    meta["metrics"].push_back("area_mm2");
  }
  std::ofstream(dir + "/sweep.json") << meta.dump(2) << "\n";
  std::ofstream out(dir + "/" + file);
  for (const FixturePoint& p : pts) out << p.line.dump() << "\n";
  out << tail;
}

}  // namespace tessel::reports::testing
