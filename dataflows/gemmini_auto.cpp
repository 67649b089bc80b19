// Gemmini's tiled_matmul_auto heuristic: start from a square output tile sized to the usable
// accumulator, then grow n, m and k in turn (in array-sized blocks) while the double-buffered
// scratchpad and accumulator halves still hold one tile. Loop order m -> n -> k.
//
// Any array shape maps: blocks follow the array (rows along the dataflow's row dim, cols along
// its column dim), a tile is clipped to the problem before its bytes are counted, and when not
// even one block fits double-buffered the mapper falls back to a single-buffered block, then to
// a partial block (fewer rows or columns of the array in use). Growth is computed in whole
// rounds, so the work does not grow with the capacities or the problem's extents.
#include <algorithm>
#include <array>
#include <cmath>

#include "dataflows/mapper.h"
#include "dataflows/nest/hardware.h"
#include "dataflows/tile_as_nest.h"
#include "util/units.h"

namespace tessel::dataflows {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

// Per dim (indexed by Dim): a count of blocks, or elements.
using Triple = std::array<int64_t, 3>;
size_t at(Dim d) { return static_cast<size_t>(d); }

struct Tiling {
  const Problem& p;
  const arch::Accelerator& acc;
  Triple block{};   // elements per block along m, n, k
  Triple extent{};  // the problem's m, n, k

  // Elements of the tile `blocks` describes, clipped to the problem.
  Triple tile(const Triple& blocks) const {
    Triple t{};
    for (size_t d = 0; d < 3; ++d) {
      // blocks <= ceil(extent / block), so blocks * block stays within extent + block.
      t[d] = std::min(extent[d], blocks[d] * block[d]);
    }
    return t;
  }

  // Does a tile of these elements fit? Inputs + weights in the scratchpad, outputs (at
  // accumulation width) in the accumulator, or all three in a shared global buffer. In doubles:
  // the products may exceed int64 and the capacities are far below 2^53.
  bool fits(const Triple& t, const LocalCapacity& cap) const {
    const double m = static_cast<double>(t[at(Dim::M)]), n = static_cast<double>(t[at(Dim::N)]);
    const double k = static_cast<double>(t[at(Dim::K)]);
    const double in = m * k * bytesOf(p.input_dtype);
    const double w = cap.weights_bypass ? 0.0 : k * n * bytesOf(p.weight_dtype);
    const double out = m * n * bytesOf(acc.array.accum_dtype);
    if (cap.shared) return in + w + out <= static_cast<double>(cap.input_weight_bytes);
    return in + w <= static_cast<double>(cap.input_weight_bytes) &&
           out <= static_cast<double>(cap.output_bytes);
  }
};

// Round-robin growth n, m, k (Gemmini grows J, then I, then K), one block at a time. A dim that
// fails to grow never grows again (the fit is monotone), so whole rounds in which every live dim
// grows are taken at once by binary search: at most four searches whatever the sizes.
template <typename Fits>
void grow(Triple& b, const Triple& max, Fits fits, bool whole_rows) {
  const std::array<Dim, 3> order{Dim::N, Dim::M, Dim::K};
  std::array<bool, 3> live{};
  for (size_t i = 0; i < 3; ++i) {
    const size_t d = at(order[i]);
    live[i] = b[d] < max[d] && !(whole_rows && order[i] == Dim::M);  // tile_m stays 1 block
  }
  for (;;) {
    int64_t lo = 0, hi = 0;  // the largest r such that r whole rounds fit
    bool any = false;
    for (size_t i = 0; i < 3; ++i) {
      if (!live[i]) continue;
      const size_t d = at(order[i]);
      hi = any ? std::min(hi, max[d] - b[d]) : max[d] - b[d];
      any = true;
    }
    if (!any) return;
    auto after = [&](int64_t rounds) {
      Triple next = b;
      for (size_t i = 0; i < 3; ++i) {
        if (live[i]) next[at(order[i])] += rounds;
      }
      return next;
    };
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo + 1) / 2;
      if (fits(after(mid)))
        lo = mid;
      else
        hi = mid - 1;
    }
    b = after(lo);
    // One more round, dim by dim: the dims that cannot grow (or are full) drop out.
    for (size_t i = 0; i < 3; ++i) {
      if (!live[i]) continue;
      const size_t d = at(order[i]);
      Triple next = b;
      ++next[d];
      if (b[d] < max[d] && fits(next))
        b = next;
      else
        live[i] = false;
    }
  }
}

// The largest tile within one block that fits: halve the largest dim until it does. Logarithmic.
bool shrinkToFit(Triple& t, const Tiling& tiling, const LocalCapacity& cap) {
  while (!tiling.fits(t, cap)) {
    size_t d = 0;
    for (size_t i = 1; i < 3; ++i) {
      if (t[i] > t[d]) d = i;
    }
    if (t[d] <= 1) return false;
    t[d] = (t[d] + 1) / 2;
  }
  return true;
}

class GemminiAutoMapper final : public Mapper {
 public:
  std::string_view name() const override { return "gemmini-auto"; }

  MapResult map(const Problem& p, const arch::Accelerator& acc, const Dataflow& df,
                const MapConstraints& constraints) const override {
    MapResult r;
    if (!df.gemm_view) {
      r.reason = "gemmini-auto tiles GEMMs by a stationary operand, and dataflow '" + df.name +
                 "' has none; use --mapper search";
      return r;
    }
    const int64_t rows = acc.array.rows, cols = acc.array.cols;
    Tiling tiling{p, acc};
    tiling.block[at(df.row_dim)] = rows;
    tiling.block[at(df.col_dim)] = cols;
    tiling.block[at(df.stream_dim)] = std::max(rows, cols);  // Gemmini tiles in DIM-sized blocks
    tiling.extent = {p.m, p.n, p.k};
    Triple max{};
    for (size_t d = 0; d < 3; ++d)
      max[d] = ceilDiv(std::max<int64_t>(1, tiling.extent[d]), tiling.block[d]);

    for (bool double_buffered : {true, false}) {
      const LocalCapacity cap = localCapacity(acc, double_buffered);
      auto fits = [&](const Triple& b) { return tiling.fits(tiling.tile(b), cap); };
      Triple b = start(p, acc, tiling, max, cap, constraints);
      if (!fits(b)) b[at(Dim::K)] = 1;  // only off Gemmini's geometry (non-square blocks)
      if (!fits(b)) continue;
      grow(b, max, fits, constraints.whole_rows);
      return accept(r, df, acc, p, tiling.tile(b), double_buffered);
    }
    if (constraints.whole_rows) {
      r.reason = "a whole output row (" + std::to_string(p.n) +
                 " columns) does not fit the usable accumulator";
      return r;
    }
    // Not one full block: a partial block (fewer array rows/columns or stream steps in use).
    for (bool double_buffered : {true, false}) {
      const LocalCapacity cap = localCapacity(acc, double_buffered);
      Triple t = tiling.tile({1, 1, 1});
      if (shrinkToFit(t, tiling, cap)) return accept(r, df, acc, p, t, double_buffered);
    }
    const LocalCapacity cap = localCapacity(acc, false);
    r.reason = "not even a 1x1x1 tile fits the local memories (" +
               units::formatBytes(static_cast<uint64_t>(cap.input_weight_bytes)) +
               (cap.shared ? " shared"
                           : " for inputs and weights, " +
                                 units::formatBytes(static_cast<uint64_t>(cap.output_bytes)) +
                                 " for outputs") +
               ")";
    return r;
  }

 private:
  // Gemmini's first tile (tiled_matmul_auto in gemmini.h): a square of output blocks sized to
  // the usable accumulator, tile_I = tile_J = sqrt(ACC_ROWS / 2 / DIM), and tile_K = (the
  // scratchpad's input blocks in half the usable scratchpad) / tile_I, i.e. db_max_tile_k =
  // (BANK_NUM x BANK_ROWS / 2 / 2 / DIM) / db_max_tile_i_j, each clipped to the problem. The
  // first tile then holds A and B in the usable scratchpad in equal parts.
  static Triple start(const Problem& p, const arch::Accelerator& acc, const Tiling& tiling,
                      const Triple& max, const LocalCapacity& cap,
                      const MapConstraints& constraints) {
    Triple b{1, 1, 1};
    if (constraints.whole_rows) {
      b[at(Dim::N)] = max[at(Dim::N)];
      return b;
    }
    const double out_block = static_cast<double>(tiling.block[at(Dim::M)]) *
                             static_cast<double>(tiling.block[at(Dim::N)]) *
                             bytesOf(acc.array.accum_dtype);
    const double out_bytes =
        static_cast<double>(cap.shared ? cap.input_weight_bytes / 3 : cap.output_bytes);
    const auto side = static_cast<int64_t>(std::sqrt(out_bytes / out_block));
    b[at(Dim::M)] = std::clamp<int64_t>(side, 1, max[at(Dim::M)]);
    b[at(Dim::N)] = std::clamp<int64_t>(side, 1, max[at(Dim::N)]);
    if (!cap.shared && !cap.weights_bypass && side > 0) {
      const double in_block = static_cast<double>(tiling.block[at(Dim::M)]) *
                              static_cast<double>(tiling.block[at(Dim::K)]) * bytesOf(p.input_dtype);
      const auto mats = static_cast<int64_t>(static_cast<double>(cap.input_weight_bytes) / 2 / in_block);
      b[at(Dim::K)] = std::clamp<int64_t>(mats / side, 1, max[at(Dim::K)]);
    }
    return b;
  }

  // Gemmini's tile, as a loop nest the engines can cost. Where the nest's capacity check is
  // stricter than the heuristic's own (a tile clipped to a problem narrower than the array's
  // wide blocks), the tile's largest dimension halves until it passes.
  MapResult& accept(MapResult& r, const Dataflow& df, const arch::Accelerator& acc,
                    const Problem& p, const Triple& tile, bool double_buffered) const {
    Triple t = tile;
    for (int tries = 0; tries < 192; ++tries) {
      acceptAs(r, df, acc, p, t, double_buffered);
      if (r.mapping.has_nest) break;
      const auto largest = std::max_element(t.begin(), t.end());
      if (*largest <= 1) break;
      *largest = (*largest + 1) / 2;
    }
    if (t != tile && r.mapping.has_nest)
      r.reason = "Gemmini's tile halved until the loop nest's capacity check passed";
    return r;
  }

  MapResult& acceptAs(MapResult& r, const Dataflow& df, const arch::Accelerator& acc,
                      const Problem& p, const Triple& t, bool double_buffered) const {
    r.ok = true;
    r.mapping.has_nest = false;
    r.mapping.dataflow = df.name;
    r.mapping.mapper = std::string(name());
    r.mapping.array_rows = acc.array.rows;
    r.mapping.array_cols = acc.array.cols;
    r.mapping.tile_m = std::max<int64_t>(1, t[at(Dim::M)]);
    r.mapping.tile_n = std::max<int64_t>(1, t[at(Dim::N)]);
    r.mapping.tile_k = std::max<int64_t>(1, t[at(Dim::K)]);
    r.mapping.loop_order = {Dim::M, Dim::N, Dim::K};
    r.mapping.double_buffered = double_buffered;
    // The tile as a loop nest over the GEMM Gemmini's im2col presents: the engines cost every
    // mapping with the one loop-nest model, whichever mapper chose it.
    Problem gemm = p;
    gemm.loops = gemmView(p);
    auto hw = std::make_shared<const nest::Hardware>(nest::hardwareOf(acc));
    if (auto m = tileAsNest(r.mapping, gemm, *hw, df)) {
      r.mapping.has_nest = true;
      r.mapping.nest = *m;
      // gemmini.h, tiled_matmul_outer: every gemmini_loop_ws call (one tile, i0 -> j0 -> k0)
      // moves its A and B blocks in, except that a weight-stationary run keeps A when
      // I0 x K0 <= 2 (a_reuse) and B when J0 x K0 <= 2 (b_reuse).
      auto count = [](int64_t e, int64_t t) { return (e + t - 1) / t; };
      const int64_t i0 = count(std::max<int64_t>(1, p.m), r.mapping.tile_m);
      const int64_t j0 = count(std::max<int64_t>(1, p.n), r.mapping.tile_n);
      const int64_t k0 = count(std::max<int64_t>(1, p.k), r.mapping.tile_k);
      const bool ws = df.name == "ws";
      using Reload = nest::Mapping::Reload;
      r.mapping.nest.reload = {ws && i0 * k0 <= 2 ? Reload::Once : Reload::EveryTile,
                               ws && j0 * k0 <= 2 ? Reload::Once : Reload::EveryTile};
      r.mapping.loops = gemm.loops;
      r.mapping.hw = std::move(hw);
    }
    return r;
  }
};

}  // namespace

std::unique_ptr<Mapper> makeGemminiAutoMapper(const MapperOptions& /*options*/) {
  return std::make_unique<GemminiAutoMapper>();
}

}  // namespace tessel::dataflows
