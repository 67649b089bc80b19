// Gemmini's tiled_matmul_auto heuristic: start from a square output tile sized to the usable
// accumulator, then grow n, m and k in turn (in array-sized blocks) while the double-buffered
// scratchpad and accumulator halves still hold one tile. Loop order m -> n -> k.
#include <algorithm>
#include <cmath>

#include "dataflows/mapper.h"

namespace tessel::dataflows {
namespace {

struct Blocks {
  int64_t m = 1, n = 1, k = 1;
};

class GemminiAutoMapper final : public Mapper {
 public:
  std::string_view name() const override { return "gemmini-auto"; }

  MapResult map(const Problem& p, const arch::Accelerator& acc, const Dataflow& df,
                const MapConstraints& constraints) const override {
    MapResult r;
    const int64_t rows = acc.array.rows, cols = acc.array.cols;
    const int64_t dim = std::max(rows, cols);  // Gemmini tiles in DIM-sized blocks
    const LocalCapacity cap = localCapacity(acc, /*double_buffered=*/true);
    const Blocks max{ceilDiv(p.m, dim), ceilDiv(p.n, dim), ceilDiv(p.k, dim)};
    auto fits = [&](const Blocks& b) { return fitsLocal(b, dim, p, acc, cap); };

    Blocks b;
    if (constraints.whole_rows) {
      b.n = max.n;
    } else {
      const int64_t acc_block = dim * dim * bytesOf(acc.array.accum_dtype);
      const int64_t out_bytes = cap.shared ? cap.input_weight_bytes / 3 : cap.output_bytes;
      const auto side = static_cast<int64_t>(std::sqrt(static_cast<double>(out_bytes / acc_block)));
      b.m = std::clamp<int64_t>(side, 1, max.m);
      b.n = std::clamp<int64_t>(side, 1, max.n);
    }
    if (!fits(b)) {
      r.reason = constraints.whole_rows ? "a whole output row (" + std::to_string(p.n) +
                                              " columns) does not fit "
                                              "the usable accumulator"
                                        : "one array tile does not fit the usable local memories";
      return r;
    }
    grow(b, max, fits, constraints.whole_rows);

    r.ok = true;
    r.mapping.dataflow = df.name;
    r.mapping.mapper = std::string(name());
    r.mapping.array_rows = rows;
    r.mapping.array_cols = cols;
    r.mapping.tile_m = std::min(p.m, b.m * dim);
    r.mapping.tile_n = std::min(p.n, b.n * dim);
    r.mapping.tile_k = std::min(p.k, b.k * dim);
    r.mapping.loop_order = {Dim::M, Dim::N, Dim::K};
    r.mapping.double_buffered = true;
    return r;
  }

 private:
  static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

  // Does a tile of b blocks fit the usable halves? Inputs+weights in the scratchpad, outputs
  // (at accumulation width) in the accumulator, or all three in a shared global buffer.
  static bool fitsLocal(const Blocks& b, int64_t dim, const Problem& p,
                        const arch::Accelerator& acc, const LocalCapacity& cap) {
    const int64_t block = dim * dim;
    const int64_t in = (b.m * b.k) * block * bytesOf(p.input_dtype);
    const int64_t w = (b.k * b.n) * block * bytesOf(p.weight_dtype);
    const int64_t out = (b.m * b.n) * block * bytesOf(acc.array.accum_dtype);
    if (cap.shared) return in + w + out <= cap.input_weight_bytes;
    return in + w <= cap.input_weight_bytes && out <= cap.output_bytes;
  }

  // Round-robin growth n, m, k (Gemmini grows J, then I, then K), one block at a time.
  template <typename Fits>
  static void grow(Blocks& b, const Blocks& max, Fits fits, bool whole_rows) {
    for (bool grew = true; grew;) {
      grew = false;
      for (int64_t Blocks::*dim : {&Blocks::n, &Blocks::m, &Blocks::k}) {
        if (whole_rows && dim == &Blocks::m) continue;  // tile_m stays 1 block (Gemmini)
        if (b.*dim >= max.*dim) continue;
        Blocks next = b;
        ++(next.*dim);
        if (fits(next)) {
          b = next;
          grew = true;
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Mapper> makeGemminiAutoMapper() { return std::make_unique<GemminiAutoMapper>(); }

}  // namespace tessel::dataflows
