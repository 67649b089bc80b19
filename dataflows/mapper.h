// Mappers choose a Mapping for a Problem on an Accelerator under a Dataflow. A new mapper is
// one new file plus one line in mapper_registry.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "dataflows/mapping.h"

namespace tessel::dataflows {

// Extra requirements from the graph level.
struct MapConstraints {
  // A fused row-wise epilogue (softmax, layer norm) needs whole output rows in the
  // accumulator at once: tile_n = n.
  bool whole_rows = false;
  // Where inputs, weights and outputs live off chip (indices into Accelerator::levels).
  std::array<int, 3> homes{0, 0, 0};
};

// How a searching mapper searches (heuristic mappers ignore it).
struct MapperOptions {
  std::string objective = "latency";  // "latency" | "energy" | "edp"
  // Latency: mappings within this fraction of the fastest compete on energy (nest::SearchOptions).
  // 1 % by default (assumed): below what the analytical and SystemC engines agree to, so the
  // model cannot tell such mappings apart in time, while their energy may differ by a third
  // (Llama-3.1-8B's 8,192 x 14,336 -> 4,096 down projection on tpu-v4-like: +0.7 % cycles,
  // 3.61 GiB -> 448 MiB of DRAM, -35 % energy). 0 is the strict fastest.
  double tolerance = 0.01;
  int64_t budget = 20000;             // cost evaluations per distinct layer; <= 0 = exhaustive
  int threads = 0;                    // 0 = all cores
  bool ideal_memory = false;          // rank mappings as if off-chip transfers were free
};

// A mapping, or why there is none (infeasible is a result, not an exception).
struct MapResult {
  bool ok = false;
  // Why it failed; on success, how the mapping departs from the mapper's own first choice
  // (empty when it does not).
  std::string reason;
  Mapping mapping;
};

// One map() call to answer ahead of time.
struct MapRequest {
  Problem problem;
  MapConstraints constraints;
};

class Mapper {
 public:
  virtual ~Mapper() = default;
  virtual std::string_view name() const = 0;
  virtual MapResult map(const Problem& problem, const arch::Accelerator& acc,
                        const Dataflow& dataflow, const MapConstraints& constraints) const = 0;
  // Maps these ahead, in parallel where the mapper can, so that the same map() calls later
  // return at once. Results are those map() would give; a heuristic mapper does nothing.
  virtual void prefetch(const std::vector<MapRequest>& requests, const arch::Accelerator& acc,
                        const Dataflow& dataflow) const {
    (void)requests, (void)acc, (void)dataflow;
  }
};

// The registered mapper called `name`; throws ConfigError listing the names if unknown.
std::unique_ptr<Mapper> makeMapper(std::string_view name, const MapperOptions& options = {});
std::vector<std::string> mapperNames();

// Bytes of the local memories a mapper may fill with one tile (half of each when double
// buffered). Shared by mappers and the engines' capacity checks.
struct LocalCapacity {
  int64_t input_weight_bytes = 0;  // scratchpad or global buffer
  int64_t output_bytes = 0;        // accumulator; 0 when outputs share the global buffer
  bool shared = false;             // outputs share the input/weight buffer
  // The scratchpad does not hold weights (holds: [inputs]): they stream from off-chip straight
  // into the array through a FIFO and take no scratchpad space.
  bool weights_bypass = false;
};
LocalCapacity localCapacity(const arch::Accelerator& acc, bool double_buffered);

}  // namespace tessel::dataflows
