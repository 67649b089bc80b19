// The searching mapper: enumerates the mappings a dataflow and the capacities allow — spatial
// splits over the array, register-file tiles, local-memory tiles (factors that need not divide),
// loop orders per level, double or single buffering — and keeps the best by latency, energy or
// energy-delay product. Deterministic: candidates are ranked by (objective, enumeration index),
// so any thread count returns the same mapping. Bounded by an evaluation budget; reports how much
// of the space it evaluated and the gap to a lower bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataflows/nest/constraints.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/nest/problem.h"

namespace tessel::dataflows::nest {

enum class Objective : uint8_t { Latency, Energy, Edp };
// "latency" | "energy" | "edp"; nullopt otherwise.
std::optional<Objective> parseObjective(std::string_view s);
std::string_view nameOf(Objective o);

struct SearchOptions {
  Objective objective = Objective::Latency;
  int64_t budget = 20000; // cost evaluations per problem; <= 0 = the whole space
  int threads = 0;        // 0 = all cores
  bool whole_rows = false;  // the local tile must hold whole output rows (fused row-wise epilogue)
  // Latency: among the evaluated mappings within this fraction of the fastest, the one that
  // spends the least energy wins. 0 (this struct's default; the mappers pass
  // MapperOptions::tolerance, 1 %): the fastest, near-ties (a few hundredths of a percent,
  // score()) to the cheaper, so more memory never buys a slower mapping.
  double tolerance = 0;
  CostOptions cost;
  std::vector<Mapping> seeds;  // mappings to beat (e.g. a heuristic's); evaluated first
};

struct SearchResult {
  bool ok = false;
  std::string reason;  // why nothing maps
  Mapping mapping;
  Cost cost;
  int64_t space = 0;      // candidates in the space the constraints allow
  int64_t evaluated = 0;  // cost evaluations done
  double gap = 0;         // best / lower bound - 1 on the objective's cycles (latency)
};

SearchResult search(const Problem& p, const Hardware& hw, const Constraints& c,
                    const SearchOptions& o);

// The score the search's walk minimizes (lower is better).
double score(const Cost& c, Objective o);

// Which of two evaluated mappings the search returns: under latency, the one within
// `tolerance` of the faster that spends less energy (tolerance 0: the lower score); under energy, the cheaper, then the faster;
// under edp, the lower product. Never one the other dominates in both cycles and energy.
bool preferred(const Cost& a, const Cost& b, Objective o, double tolerance);

}  // namespace tessel::dataflows::nest
