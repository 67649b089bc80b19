// Pareto fronts of points where both coordinates are costs (lower is better).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace tessel::reports::html {

// The indices of the points no other point dominates (as good in both coordinates and
// strictly better in one), in input order. Equal points are all on the front. O(n log n).
std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>>& points);
// The same over points of any number of coordinates (all of one size). O(n^2 d).
std::vector<size_t> paretoFront(const std::vector<std::vector<double>>& points);

}  // namespace tessel::reports::html
