// Workload names and options, then the analytical engine on the shipped Gemmini default: every
// number a run reports must be possible (finite, non-negative, utilization <= 1, causes adding
// up to cycles). Input: lines "name", "seq", "batch", "phase", "image", "layers", "dtype".
#include <charconv>
#include <cmath>
#include <sstream>
#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "fuzz/fuzz_one.h"
#include "models/workload.h"
#include "sim/run.h"
#include "util/error.h"

namespace {

int64_t number(const std::string& s, int64_t fallback) {
  int64_t v = fallback;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

void require(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

int fuzzOne(const uint8_t* data, size_t size) {
  static const tessel::arch::Accelerator acc =
      tessel::arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  static const tessel::dataflows::Dataflow ws = tessel::dataflows::loadDataflow("ws");
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string name, seq, batch, phase, image, layers, dtype;
  std::getline(in, name);
  std::getline(in, seq);
  std::getline(in, batch);
  std::getline(in, phase);
  std::getline(in, image);
  std::getline(in, layers);
  std::getline(in, dtype);
  tessel::models::WorkloadOptions o;
  o.seq = number(seq, 64);
  o.batch = number(batch, 1);
  if (!phase.empty()) o.phase = phase;
  o.image = number(image, 64);
  o.layers = number(layers, 1);
  if (auto d = tessel::parseDType(dtype)) o.dtype = *d;
  try {
    const tessel::models::Graph g = tessel::models::build(name, o);
    const tessel::sim::RunStats run = tessel::sim::simulate(g, acc, ws, {});
    double total = 0;
    for (const auto& op : run.ops) {
      require(std::isfinite(op.cycles) && op.cycles >= 0);
      require(op.utilization >= 0 && op.utilization <= 1);
      double causes = 0;
      for (double c : op.cycles_by_cause) causes += c;
      require(std::abs(causes - op.cycles) <= 1e-6 * op.cycles + 1e-9);
      for (const auto& t : op.traffic) {
        for (int x = 0; x < 3; ++x) require(t.read_bytes[x] >= 0 && t.write_bytes[x] >= 0);
      }
      for (const auto& [component, pj] : op.energy_pj) require(std::isfinite(pj) && pj >= 0);
      total += op.cycles;
    }
    require(run.utilization() >= 0 && run.utilization() <= 1);
    require(std::isfinite(total));
  } catch (const tessel::ConfigError&) {
  } catch (const tessel::InfeasibleError&) {
  }
  return 0;
}
