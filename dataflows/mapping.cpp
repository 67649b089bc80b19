#include "dataflows/mapping.h"

#include <string>

namespace tessel::dataflows {

int64_t Mapping::tilesAlong(const Problem& p, Dim d) const {
  const int64_t t = tileOf(d);
  return t > 0 ? (p.extent(d) + t - 1) / t : 0;
}

static std::string orderString(const std::vector<Dim>& order) {
  std::string s;
  for (Dim d : order) s += nameOf(d);
  return s;
}

std::string Mapping::loopNest(const Problem& p) const {
  if (has_nest) return nest.loopNest(loops, *hw);
  std::string out;
  std::string indent;
  if (p.batch > 1) {
    out += "for b in [0, " + std::to_string(p.batch) + "):\n";
    indent += "  ";
  }
  for (Dim d : loop_order) {
    const std::string n(nameOf(d));
    out += indent + "for " + n + "0 in [0, " + std::to_string(p.extent(d)) + ") step " +
           std::to_string(tileOf(d)) + ":   # DRAM/L2 -> local memory\n";
    indent += "  ";
  }
  out += indent + "array " + std::to_string(array_rows) + "x" + std::to_string(array_cols) + " (" +
         dataflow + "): tile " + std::to_string(tile_m) + "x" + std::to_string(tile_n) + "x" +
         std::to_string(tile_k) + " (m x n x k)\n";
  return out;
}

std::vector<std::pair<std::string, std::string>> Mapping::flatten() const {
  if (has_nest) {
    std::vector<std::pair<std::string, std::string>> kv{{"dataflow", dataflow}, {"mapper", mapper}};
    for (auto& entry : nest.flatten(loops, *hw)) kv.push_back(entry);
    // The tile the local memories hold, in the problem's own dims ("m=80 n=96 k=736").
    std::string tile;
    const nest::Factors t = nest.tileAt(hw->local(), hw->array());
    const std::vector<nest::Dim> dims =
        loops.gemm ? std::vector<nest::Dim>{nest::Dim::G, nest::Dim::P, nest::Dim::K, nest::Dim::C}
                   : std::vector<nest::Dim>(nest::kAllDims.begin(), nest::kAllDims.end());
    for (nest::Dim d : dims) {
      if (loops.of(d) <= 1) continue;
      tile += (tile.empty() ? "" : " ") + loops.dimName(d) + "=" +
              std::to_string(std::min(t[nest::at(d)], loops.of(d)));
    }
    kv.emplace_back("local_tile", tile);
    if (evaluated > 0) {  // a search ran, or a pinned mapping was costed (1 of 1)
      kv.emplace_back("searched", std::to_string(evaluated) + " of " + std::to_string(space));
    }
    if (evaluated > 0 && bound.steps > 0) {  // only a search computes the bound
      // Against the dataflow's own bound, what the array's shape costs under it (that bound over
      // the bound on every PE) and the product of the two (latency over the bound on every PE).
      kv.emplace_back("gap_to_bound", std::to_string(gap));
      kv.emplace_back("array_shape_cost", std::to_string(bound.shapeCost()));
      kv.emplace_back("gap_to_ideal", std::to_string((1 + gap) * bound.shapeCost() - 1));
      kv.emplace_back("array_share", std::to_string(bound.share));
      kv.emplace_back("bound_spatial", bound.spatial);
    }
    return kv;
  }
  return {{"dataflow", dataflow},
          {"mapper", mapper},
          {"array", std::to_string(array_rows) + "x" + std::to_string(array_cols)},
          {"tile_m", std::to_string(tile_m)},
          {"tile_n", std::to_string(tile_n)},
          {"tile_k", std::to_string(tile_k)},
          {"loop_order", orderString(loop_order)},
          {"double_buffered", double_buffered ? "true" : "false"}};
}

std::string Mapping::brief() const {
  if (has_nest) return dataflow + " " + nest.brief(loops, *hw);
  return dataflow + " m=" + std::to_string(tile_m) + " n=" + std::to_string(tile_n) +
         " k=" + std::to_string(tile_k) + (double_buffered ? "" : " single-buffered");
}

}  // namespace tessel::dataflows
