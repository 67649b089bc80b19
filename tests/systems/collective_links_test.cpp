// Where a collective's bytes go, against references built apart from the routing code: the
// bytes times links crossed from breadth-first shortest paths on the explicit link graph, and
// each link's load from routes walked coordinate by coordinate here.
#include <gtest/gtest.h>

#include <map>
#include <queue>

#include "systems/collective.h"
#include "systems/steps.h"

namespace tessel::systems {
namespace {

Topology grid(DimKind kind, std::vector<int> sizes) {
  Topology t;
  t.kind = "test";
  for (int s : sizes) t.dims.push_back({kind, s, {25e9, 2e-6, 5}, 0});
  return t;
}

// The neighbours of every rank: one link per direction along each dimension (a ring's ends
// joined when it has more than two ranks).
std::vector<std::vector<int>> neighbours(const std::vector<int>& sizes, bool wrap) {
  int n = 1;
  for (int s : sizes) n *= s;
  std::vector<std::vector<int>> adj(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    int stride = 1;
    for (int s : sizes) {
      const int c = (r / stride) % s;
      for (int step : {-1, 1}) {
        int d = c + step;
        if (d < 0 || d >= s) {
          if (!wrap || s <= 2) continue;
          d = (d + s) % s;
        }
        adj[static_cast<size_t>(r)].push_back(r + (d - c) * stride);
      }
      stride *= s;
    }
  }
  return adj;
}

int distance(const std::vector<std::vector<int>>& adj, int a, int b) {
  std::vector<int> dist(adj.size(), -1);
  std::queue<int> q;
  dist[static_cast<size_t>(a)] = 0;
  q.push(a);
  while (!q.empty()) {
    const int x = q.front();
    q.pop();
    for (int y : adj[static_cast<size_t>(x)]) {
      if (dist[static_cast<size_t>(y)] < 0) dist[static_cast<size_t>(y)] = dist[static_cast<size_t>(x)] + 1, q.push(y);
    }
  }
  return dist[static_cast<size_t>(b)];
}

// Each directed link's load when every rank sends `share` to every other, walking x first then
// y ..., the shorter way round (ties forward) on a torus.
double busiestLink(const std::vector<int>& sizes, bool wrap, double share) {
  int n = 1;
  for (int s : sizes) n *= s;
  std::map<std::pair<int, int>, double> load;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      int at = a, stride = 1;
      for (int s : sizes) {
        const int from = (at / stride) % s, to = (b / stride) % s;
        int fwd = (to - from + s) % s, dir = to > from ? 1 : -1, hops = std::abs(to - from);
        if (wrap && s > 2) dir = fwd <= s - fwd ? 1 : -1, hops = fwd <= s - fwd ? fwd : s - fwd;
        int c = from;
        for (int h = 0; h < hops; ++h) {
          const int next = (c + dir + s) % s;
          const int x = at + (c - from) * stride, y = at + (next - from) * stride;
          load[{x, y}] += share;
          c = next;
        }
        at += (to - from) * stride;
        stride *= s;
      }
    }
  }
  double most = 0;
  for (const auto& [link, bytes] : load) most = std::max(most, bytes);
  return most;
}

TEST(CollectiveLinks, DirectAllToAllMatchesShortestPathsAndWalkedRoutes) {
  struct Case {
    std::vector<int> sizes;
    bool torus;
  };
  for (const Case& k : {Case{{5}, true}, Case{{3, 3}, true}, Case{{4, 4}, true}, Case{{2, 3}, false},
                        Case{{4, 2, 3}, false}, Case{{3, 4, 2}, true}}) {
    const Topology t = grid(k.torus ? DimKind::Ring : DimKind::Line, k.sizes);
    const Network net(t);
    const int n = net.ranks();
    const double s = 1 << 20, share = s / n;
    const CollectiveCost c = costCollective({Collective::AllToAll, s, "direct"}, net, 0);
    const auto adj = neighbours(k.sizes, k.torus);
    double crossed = 0;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) crossed += a == b ? 0 : share * distance(adj, a, b);
    EXPECT_NEAR(c.link_bytes, crossed, 1e-9 * crossed) << n;  // summed in another order
    const double most = busiestLink(k.sizes, k.torus, share);
    EXPECT_DOUBLE_EQ(c.bytes_per_link, most) << n;
    // One step: the busiest link's bytes, then the longest route's latency.
    int longest = 0;
    for (int b = 1; b < n; ++b)
      for (int a = 0; a < n; ++a) longest = std::max(longest, distance(adj, a, b));
    EXPECT_NEAR(c.seconds, most / 25e9 + longest * 2e-6, 1e-15) << n;
  }
}

TEST(CollectiveLinks, AGroupTakesWholeInnerDimensionsThenPartOfOne) {
  const Topology t = grid(DimKind::Ring, {4, 4, 4});
  std::string why;
  const Topology g = t.group(8, why);
  ASSERT_TRUE(why.empty()) << why;
  ASSERT_EQ(g.dims.size(), 2u);
  EXPECT_EQ(g.dims[0].kind, DimKind::Ring);
  EXPECT_EQ(g.dims[1].size, 2);
  EXPECT_EQ(g.dims[1].kind, DimKind::Line);  // part of a ring: no wraparound inside the group
  EXPECT_EQ(t.group(64, why).ranks(), 64);
  t.group(6, why);
  EXPECT_NE(why.find("groups here are 1, 2, 3, 4, 8, 12"), std::string::npos) << why;
}

TEST(CollectiveLinks, TwoMessagesOnOneLinkShareItsBandwidth) {
  // A line of three: 0 -> 2 and 1 -> 2 in one step both cross link 1 -> 2.
  const Network net(grid(DimKind::Line, {3}));
  CollectiveCost c;
  StepCoster sc(net);
  sc.add({{0, 2, 1000}, {1, 2, 1000}}, 1, c);
  EXPECT_DOUBLE_EQ(c.bytes_per_link, 2000);
  EXPECT_NEAR(c.bandwidth_s, 2000 / 25e9, 1e-18);
  EXPECT_NEAR(c.latency_s, 2 * 2e-6, 1e-18);
}

}  // namespace
}  // namespace tessel::systems
