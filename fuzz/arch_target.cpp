// The accelerator loader with -p overrides: a YAML document, then optionally a line
// "#--overrides" and one override per line. Bad input must be a ConfigError; a loaded design
// must satisfy the invariants every engine relies on.
#include <cmath>
#include <string>
#include <vector>

#include "arch/cores.h"
#include "arch/load.h"
#include "fuzz/fuzz_one.h"
#include "util/error.h"

namespace {

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void checkInvariants(const tessel::arch::Accelerator& a) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  require(positive(a.clock_hz));
  require(!a.levels.empty());
  for (const auto& l : a.levels) {
    require(positive(l.bandwidth));
    require(std::isfinite(l.latency) && l.latency >= 0);
    require(l.capacity_bytes <= (uint64_t{1} << 50));
    require(l.banks >= 1 && l.ports >= 1);
  }
  require(a.array.rows >= 1 && a.array.cols >= 1);
  require(a.array.macRate(a.array.input_dtype) > 0);
  require(positive(a.dma.bus_bytes_per_cycle) && a.dma.max_inflight >= 1);
  require(a.cores.count >= 1 && a.cores.count <= 64);
  require(std::isfinite(a.cores.fused_sync_cycles) && a.cores.fused_sync_cycles >= 0);
  require(a.levels.at(0).efficiency > 0 && a.levels.at(0).efficiency <= 1);
  require(std::isfinite(a.controller.launch_cycles) && a.controller.launch_cycles >= 0);
  require(std::isfinite(a.host.step_overhead) && a.host.step_overhead >= 0);
  require(std::isfinite(a.host.sequence_overhead) && a.host.sequence_overhead >= 0);
  require(a.layout.channel_align >= 1 && a.layout.device_lowering_align >= 0);
  for (const auto& w : a.warnings) require(!w.empty());
}

}  // namespace

int fuzzOne(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n#--overrides\n";
  const size_t cut = text.find(marker);
  std::vector<std::string> overrides;
  if (cut != std::string::npos) {
    size_t start = cut + marker.size();
    while (start <= text.size()) {
      const size_t end = std::min(text.find('\n', start), text.size());
      if (end > start) overrides.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }
  try {
    const tessel::arch::Accelerator a =
        tessel::arch::loadString(text.substr(0, cut), "fuzz.yaml", overrides);
    checkInvariants(a);
    checkInvariants(tessel::arch::fusedDevice(a));  // the cores fused: a device like any other
  } catch (const tessel::ConfigError&) {
  }
  return 0;
}
