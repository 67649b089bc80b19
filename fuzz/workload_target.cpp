// Workload names and options, then the analytical engine on the shipped Gemmini default: every
// number a run reports must be possible (finite, non-negative, utilization <= 1, causes adding
// up to cycles). Input: lines "name", "seq", "batch", "phase", "image", "layers", "dtype".
#include <charconv>
#include <sstream>
#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "fuzz/fuzz_one.h"
#include "fuzz/run_checks.h"
#include "models/workload.h"
#include "sim/run.h"
#include "util/error.h"

namespace {

int64_t number(const std::string& s, int64_t fallback) {
  int64_t v = fallback;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
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
    tessel::fuzz::checkRun(tessel::sim::simulate(g, acc, ws, {}));
  } catch (const tessel::ConfigError&) {
  } catch (const tessel::InfeasibleError&) {
  }
  return 0;
}
