// Residency and reuse: how many elements of a tensor cross a cut in the loop nest over the whole
// op, given which loops leave a tile in place (temporal reuse), which PEs share one transfer
// (multicast, reduction) and how a convolution's input windows overlap (halos). The building block
// the transfer counts (transfers.cpp) and the timing (timing.cpp) are made of. Internal to the
// cost model.
#pragma once

#include <cstddef>
#include <array>
#include <cstdint>

#include "dataflows/nest/hardware.h"
#include "dataflows/nest/mapping.h"
#include "dataflows/nest/problem.h"
#include "dataflows/nest/small_vector.h"

namespace tessel::dataflows::nest {

struct Loop {
  Dim d = Dim::G;
  int64_t f = 1;
  int level = 0;
  bool spatial = false;
  int fan = -1;  // a spatial loop's fan-out: fanBit(level, array?)
};

// Fan-outs as bits of a mask: the fan-out below level l is bit 2l, the array's (below
// Hardware::array()) bit 2l + 1.
inline uint64_t fanBit(int level, bool array) { return uint64_t{1} << (2 * level + (array ? 1 : 0)); }

// How the spatial loops above a cut count: every PE's copy (All), or one transfer per distinct
// value when the NoC multicasts inputs / reduces partial sums (Collapse, every fan-out).
enum class Space : uint8_t { All, Collapse };

// The mapping flattened into one list of loops, outermost first: each level's temporal loops in
// its order, and after the local level's, the spatial loops over rows then columns.
class Nest {
 public:
  Nest(const Problem& p, const Mapping& m, const Hardware& hw);

  size_t size() const { return loops_.size(); }

  // Loops above the tile of `level`: the spatial ones count above the PEs only.
  size_t cut(int level) const;

  // Elements of tensor t moved across a cut, summed over every time the tile below it changes.
  // With `reuse`, trailing loops the tensor does not depend on leave the tile in place, and for
  // the input the innermost relevant loop, when it slides a window (p, q, r, s), brings in only
  // the rows and columns its holder does not already have; so do the loops of the same axis right
  // outside it, with no other temporal loop between (the next tile is the adjacent one). Under Collapse, PEs that need the same
  // value at the same time take one transfer; a value one PE already holds is not credited to
  // another. Exact, partial tiles included (see windowElements).
  // `collapse`: the fan-outs (fanBit) whose copies share one transfer per distinct value; the
  // spatial loops of the others count every copy.
  double volume(Operand t, size_t cut, bool reuse, uint64_t collapse) const;
  double volume(Operand t, size_t cut, bool reuse, Space space) const {
    return volume(t, cut, reuse, space == Space::All ? uint64_t{0} : ~uint64_t{0});
  }

  // Distinct tiles of the level below a cut over time, one PE's view (spatial loops excluded).
  double fills(Operand t, size_t cut) const;


 private:
  int innermostRelevant(Operand t, size_t cut) const;
  // The positions along d that start a non-empty tile: combinations of d's enumerated loops
  // (the others at 0) whose coordinate lies within the extent.
  // `enumerated` has bit i set for loop i.
  double positions(Dim d, uint64_t enumerated) const;

  const Problem& p_;
  const Hardware& hw_;
  SmallVector<Loop, 64> loops_;  // at most 64: one bit each in the masks
  // Per dim, its loops in loops_ (bit i for loop i).
  std::array<uint64_t, kDims> of_dim_{};
};

// One window axis of a convolution's input: output positions (p or q) and filter taps (r or s)
// that together address input rows (or columns) out * stride + win * dilation.
struct WindowAxis {
  int64_t out = 1, win = 1;
  int64_t stride = 1, dilation = 1;
  int64_t input = 0;  // the input's rows without padding (padding split evenly); 0 = unpadded
};

// What one loop of the axis does at a cut:
//   Outer   above the cut, each iteration moves its whole tile again
//   Run     above the cut, a sliding loop (the innermost relevant one, and the loops of its axis
//           right outside it, no other temporal loop between): each step moves what the holder
//           lacks
//   PeSum   a spatial loop above the cut whose PEs each count (no sharing)
//   PeUnion a spatial loop above the cut whose PEs share one transfer per distinct value
//   Inner   below the cut: part of the tile
enum class WindowRole : uint8_t { Outer, Run, PeSum, PeUnion, Inner };

struct WindowLoop {
  int64_t f = 1;
  bool out = true;  // a loop over output positions (else over filter taps)
  WindowRole role = WindowRole::Inner;
};

// Input rows (or columns) moved along one axis, summed over the axis' tiles and their moves:
// a tile holds the distinct rows out * stride + win * dilation of its positions (rows a stride
// skips are not moved), padding rows are never moved, partial tiles hold what is left. Loops
// are outermost first. Enumerates the axis (memoized per thread: the search meets each loop
// structure many times).
double windowElements(const WindowAxis& axis, const SmallVector<WindowLoop, 16>& loops);

}  // namespace tessel::dataflows::nest
