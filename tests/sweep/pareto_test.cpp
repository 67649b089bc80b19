// sweep::paretoFront against the definition, checked point by point in O(n^2).
#include "sweep/pareto.h"

#include <gtest/gtest.h>

#include <random>

namespace tessel::sweep {
namespace {

using Points = std::vector<std::vector<double>>;

// The definition: a point is on the front unless another is <= in every coordinate and < in one.
std::vector<size_t> bruteForce(const Points& p) {
  std::vector<size_t> front;
  for (size_t i = 0; i < p.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < p.size() && !dominated; ++j) {
      bool all_le = true, one_lt = false;
      for (size_t d = 0; d < p[i].size(); ++d) {
        all_le = all_le && p[j][d] <= p[i][d];
        one_lt = one_lt || p[j][d] < p[i][d];
      }
      dominated = all_le && one_lt;
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

// `n` points of `dims` coordinates: from {0..levels-1} when levels > 0 (many ties and equal
// points), else uniform in [0, 1).
Points randomPoints(std::mt19937& rng, size_t n, size_t dims, int levels) {
  std::uniform_int_distribution<int> level(0, std::max(0, levels - 1));
  std::uniform_real_distribution<double> real(0.0, 1.0);
  Points p(n, std::vector<double>(dims));
  for (auto& point : p) {
    for (double& v : point) v = levels > 0 ? level(rng) : real(rng);
  }
  return p;
}

TEST(SweepPareto, SmallCasesByHand) {
  // (2, 2) is dominated by (1, 2); (1, 2) and (2, 1) trade off.
  EXPECT_EQ(paretoFront({{1, 2}, {2, 1}, {2, 2}}), (std::vector<size_t>{0, 1}));
  // Equal points share a verdict: both copies of (1, 1) are on the front, (1, 2) is not.
  EXPECT_EQ(paretoFront({{1, 1}, {1, 2}, {1, 1}}), (std::vector<size_t>{0, 2}));
  // A tie in one coordinate: (1, 5, 1) is dominated by (1, 5, 0) (equal, equal, smaller).
  EXPECT_EQ(paretoFront({{1, 5, 1}, {1, 5, 0}, {0, 9, 9}}), (std::vector<size_t>{1, 2}));
  // In 3-D a point can be best in one coordinate only and still be on the front.
  EXPECT_EQ(paretoFront({{0, 9, 9}, {9, 0, 9}, {9, 9, 0}, {5, 5, 5}, {6, 6, 6}}),
            (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_TRUE(paretoFront({}).empty());
  EXPECT_EQ(paretoFront({{3, 4}}), (std::vector<size_t>{0}));
}

TEST(SweepPareto, MatchesTheDefinitionOnRandomPointsWithTies) {
  std::mt19937 rng(12345);
  for (size_t dims : {2u, 3u}) {
    for (int levels : {0, 2, 4, 16}) {
      for (size_t n : {1u, 2u, 5u, 30u, 300u}) {
        for (int trial = 0; trial < 20; ++trial) {
          const Points p = randomPoints(rng, n, dims, levels);
          ASSERT_EQ(paretoFront(p), bruteForce(p))
              << dims << " dims, " << levels << " levels, n " << n;
        }
      }
    }
  }
}

TEST(SweepPareto, AnticorrelatedPointsAreAllOnTheFront) {
  // On the plane x + y + z = 1 no point is <= another in every coordinate.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Points p;
  for (int i = 0; i < 200; ++i) {
    const double x = u(rng), y = u(rng) * (1 - x);
    p.push_back({x, y, 1 - x - y});
  }
  EXPECT_EQ(paretoFront(p).size(), 200u);
  EXPECT_EQ(paretoFront(p), bruteForce(p));
}

}  // namespace
}  // namespace tessel::sweep
