#include "reports/html/pareto.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessel::reports::html {

std::vector<size_t> paretoFront(const std::vector<std::pair<double, double>>& points) {
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return points[a] < points[b]; });
  // Sorted by (x, y), a point is dominated exactly when an earlier point that differs from it
  // has y at most its own; equal points arrive together and share one verdict.
  std::vector<size_t> front;
  double best_y = INFINITY;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j < order.size() && points[order[j]] == points[order[i]]) ++j;
    const double y = points[order[i]].second;
    if (y < best_y) {
      for (size_t k = i; k < j; ++k) front.push_back(order[k]);
      best_y = y;
    }
    i = j;
  }
  std::sort(front.begin(), front.end());
  return front;
}

namespace {

// a is as good as b in every coordinate and better in one.
bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool strictly = false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) return false;
    strictly = strictly || a[i] < b[i];
  }
  return strictly;
}

}  // namespace

std::vector<size_t> paretoFront(const std::vector<std::vector<double>>& points) {
  std::vector<size_t> front;
  for (size_t i = 0; i < points.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < points.size() && !dominated; ++j) {
      dominated = dominates(points[j], points[i]);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

}  // namespace tessel::reports::html
