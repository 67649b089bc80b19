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
inline std::vector<FixturePoint> sweepPoints(const std::vector<std::string>& workloads,
                                             int failed = -1) {
  std::vector<FixturePoint> pts;
  int index = 0;
  for (const std::string& w : workloads) {
    for (const int sp : {16, 64, 256}) {
      for (const int acc : {64, 256}) {
        for (const int seq : {64, 128}) {
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
          if (index == failed) {
            j["status"] = "failed";
            j["error"] = "infeasible: no mapping for op 'h0.attn.qkv': scratchpad too small";
            j["error_kind"] = "infeasible";
          } else {
            const double cycles =
                (1e6 + 3e7 / sp + 1e7 / acc) * seq / 64.0 * (w == "bert" ? 1.5 : 1);
            const double sram = (sp + acc) * 1024.0;
            j["status"] = "ok";
            j["metrics"] = {{"cycles", cycles},
                            {"seconds", cycles / 1e9},
                            {"energy_pj", cycles * 2.5 + sram * 4},
                            {"utilization", 0.5},
                            {"sram_bytes", sram},
                            {"by_class", {{"MatMul", cycles * 0.75}, {"Softmax", cycles * 0.25}}}};
          }
          pts.push_back({j});
          ++index;
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
  const nlohmann::json meta = {
      {"schema", "tessel.sweep/1"},
      {"name", "sram"},
      {"spec", "configs/sweeps/x.yaml"},
      {"spec_hash", "abc"},
      {"base_arch", "configs/arch/gemmini-default.yaml"},
      {"engine", "analytical"},
      {"total_points", pts.size()},
      {"keys", {"scratchpad.capacity", "accumulator.capacity", "workload", "workload.seq"}},
      {"metrics", {"cycles", "seconds", "energy_pj", "utilization", "sram_bytes", "by_class"}}};
  std::ofstream(dir + "/sweep.json") << meta.dump(2) << "\n";
  std::ofstream out(dir + "/" + file);
  for (const FixturePoint& p : pts) out << p.line.dump() << "\n";
  out << tail;
}

}  // namespace tessel::reports::testing
