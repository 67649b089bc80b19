// Pareto fronts over two or three costs (lower is better; negate a metric where higher is).
#pragma once

#include <cstddef>
#include <vector>

namespace tessel::sweep {

// The indices of the points no other point dominates — as good in every coordinate and
// strictly better in one — in input order. Equal points share one verdict: all on the front or
// none. Every point has 2 or 3 coordinates, all finite. O(n log n): a lexicographic sort, then
// a staircase of the front's last two coordinates.
std::vector<size_t> paretoFront(const std::vector<std::vector<double>>& points);

}  // namespace tessel::sweep
