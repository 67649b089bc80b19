#include "sweep/pareto.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <numeric>

namespace tessel::sweep {
namespace {

using Point3 = std::array<double, 3>;

// The 2-D front of the (b, c) pairs added so far, as a staircase: b rising, c falling.
class Staircase {
 public:
  // Whether some pair added so far has b' <= b and c' <= c.
  bool covers(double b, double c) const {
    auto it = steps_.upper_bound(b);  // the first step with b' > b
    if (it == steps_.begin()) return false;
    return std::prev(it)->second <= c;  // the step with the largest b' <= b has the smallest c'
  }
  void add(double b, double c) {
    if (covers(b, c)) return;
    auto it = steps_.lower_bound(b);
    while (it != steps_.end() && it->second >= c) it = steps_.erase(it);
    steps_[b] = c;
  }

 private:
  std::map<double, double> steps_;
};

}  // namespace

std::vector<size_t> paretoFront(const std::vector<std::vector<double>>& points) {
  std::vector<Point3> p(points.size(), Point3{0, 0, 0});
  for (size_t i = 0; i < points.size(); ++i) {
    std::copy_n(points[i].begin(), std::min<size_t>(3, points[i].size()), p[i].begin());
  }
  std::vector<size_t> order(p.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] < p[b]; });
  // A point's dominators are lexicographically smaller, so they come before it in `order`;
  // and if any earlier point dominates it, an earlier front point does. Equal points arrive
  // together and are checked against the points before them only.
  std::vector<size_t> front;
  Staircase seen;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j < order.size() && p[order[j]] == p[order[i]]) ++j;
    const Point3& q = p[order[i]];
    if (!seen.covers(q[1], q[2])) {
      front.insert(front.end(), order.begin() + static_cast<std::ptrdiff_t>(i),
                   order.begin() + static_cast<std::ptrdiff_t>(j));
      seen.add(q[1], q[2]);
    }
    i = j;
  }
  std::sort(front.begin(), front.end());
  return front;
}

}  // namespace tessel::sweep
