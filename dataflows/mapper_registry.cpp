// The one place mappers are registered: a new mapper adds one line to kMappers.
#include <functional>
#include <utility>

#include "dataflows/mapper.h"
#include "util/error.h"

namespace tessel::dataflows {

std::unique_ptr<Mapper> makeGemminiAutoMapper(const MapperOptions& options);
std::unique_ptr<Mapper> makeSearchMapper(const MapperOptions& options);

namespace {
using Factory = std::unique_ptr<Mapper> (*)(const MapperOptions&);
const std::vector<std::pair<std::string, Factory>>& registry() {
  static const std::vector<std::pair<std::string, Factory>> kMappers = {
      {"search", &makeSearchMapper},
      {"gemmini-auto", &makeGemminiAutoMapper},
  };
  return kMappers;
}
}  // namespace

std::unique_ptr<Mapper> makeMapper(std::string_view name, const MapperOptions& options) {
  for (const auto& [n, factory] : registry()) {
    if (n == name) return factory(options);
  }
  std::string known;
  for (const auto& entry : registry()) known += (known.empty() ? "" : ", ") + entry.first;
  throw ConfigError({"", 0, 0, "--mapper"},
                    "unknown mapper '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> mapperNames() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.first);
  return names;
}

LocalCapacity localCapacity(const arch::Accelerator& acc, bool double_buffered) {
  const int64_t div = double_buffered ? 2 : 1;
  LocalCapacity cap;
  const auto* sp = acc.level(arch::LevelKind::Scratchpad);
  const auto* accum = acc.level(arch::LevelKind::Accumulator);
  const auto* gb = acc.level(arch::LevelKind::GlobalBuffer);
  // A buffer split per tensor: only what fits its smallest pool is sure to fit each tensor's
  // own. The fused groups and Gemmini's tiling, which size one budget for the tensors a buffer
  // shares, take that (the loop-nest mapper fills each pool on its own).
  if (sp && accum) {
    cap.input_weight_bytes = static_cast<int64_t>(sp->sharedBytes()) / div;
    cap.output_bytes = static_cast<int64_t>(accum->capacity_bytes) / div;
    cap.weights_bypass = !sp->holds.weights;
  } else if (gb) {
    cap.input_weight_bytes = static_cast<int64_t>(gb->sharedBytes()) / div;
    cap.shared = true;
  } else if (sp) {
    cap.input_weight_bytes = static_cast<int64_t>(sp->sharedBytes()) / div;
    cap.shared = true;
  }
  return cap;
}

}  // namespace tessel::dataflows
