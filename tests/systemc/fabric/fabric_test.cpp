// Collectives executed on the SystemC fabric against the step model (systems/collective.h): the
// same steps, messages queued on real links. Without contention (no link carries two messages
// in a step) they agree to the kernel's picosecond. With it they part: the fabric can never beat
// the busiest links' bytes (the step model's transfer term, a bound), and it waits where a route's
// links are not all free at once (all-to-all on a torus: slower), but the last message over a
// shared link may have a shorter route than the step's longest (halving-doubling round a ring:
// a little faster than the step model, which adds the longest latency to the busiest link).
#include <gtest/gtest.h>

#include <sstream>

#include "sim/systemc/modules/fabric.h"
#include "systems/collective.h"
#include "tests/systemc/in_child.h"

namespace tessel::systems {
namespace {

Topology topo(DimKind kind, std::vector<int> sizes, std::string name = "test") {
  Topology t;
  t.kind = std::move(name);
  for (int s : sizes) t.dims.push_back({kind, s, {50e9, 1e-6, 10}, 0});
  return t;
}

struct Case {
  std::string what;
  Topology topology;
  Collective op;
  std::string algorithm;
  double bytes;
};

// "model fabric" per case, each line.
std::string both(const std::vector<Case>& cases) {
  sim::systemc::registerFabric();
  std::ostringstream out;
  out.precision(17);
  for (const Case& c : cases) {
    const Network net(c.topology);
    const CollectiveQuery q{c.op, c.bytes, c.algorithm};
    const CollectiveCost model = costCollective(q, net, 10e-6);
    out << model.seconds << " " << executeCollective(q, net, 10e-6).value() << " "
        << model.overhead_s + model.bandwidth_s << "\n";
  }
  return out.str();
}

struct Times {
  double model, fabric, bound;
};

std::vector<Times> parse(const std::string& text) {
  std::vector<Times> r;
  std::istringstream in(text);
  Times t;
  while (in >> t.model >> t.fabric >> t.bound) r.push_back(t);
  return r;
}

TEST(SystemcFabric, WithoutContentionItIsTheStepModel) {
  Topology hier = topo(DimKind::Switch, {8, 2}, "hierarchical");
  hier.dims[1].link = {12.5e9, 5e-6, 30};
  const std::vector<Case> cases = {
      {"ring all-reduce, ring of 8", topo(DimKind::Ring, {8}), Collective::AllReduce, "ring", 3 << 20},
      {"dimension-ordered, 4x4 torus", topo(DimKind::Ring, {4, 4}), Collective::AllReduce, "dimension-ordered", 8 << 20},
      {"rotated, 4x4x4 torus", topo(DimKind::Ring, {4, 4, 4}), Collective::AllReduce, "rotated-dimensions", 16 << 20},
      {"hierarchical, 8 x 2 switches", hier, Collective::AllReduce, "hierarchical", 64 << 20},
      {"halving-doubling, switch of 8", topo(DimKind::Switch, {8}), Collective::ReduceScatter, "halving-doubling", 1 << 20},
      {"chain broadcast, line of 6", topo(DimKind::Line, {6}), Collective::Broadcast, "ring", 4 << 20},
      {"direct all-to-all, fully connected 6", topo(DimKind::FullyConnected, {6}), Collective::AllToAll, "direct", 6 << 20},
      {"send-recv across a line", topo(DimKind::Line, {5}), Collective::SendRecv, "direct", 1 << 20},
  };
  const testing::ChildResult r = testing::inChild([&] { return both(cases); });
  ASSERT_TRUE(r.ok) << r.output;
  const auto times = parse(r.output);
  ASSERT_EQ(times.size(), cases.size()) << r.output;
  for (size_t i = 0; i < cases.size(); ++i) {
    // The kernel keeps whole picoseconds: a step's time may round by one.
    EXPECT_NEAR(times[i].fabric, times[i].model, 1e-12 * 200) << cases[i].what;
    EXPECT_NEAR(times[i].fabric / times[i].model, 1.0, 0.05) << cases[i].what;
  }
}

TEST(SystemcFabric, WithContentionTheyPartWithinTheBusiestLinkBound) {
  const std::vector<Case> cases = {
      // Every rank to every other at once on a 4x4 torus: routes of up to four links share them.
      {"direct all-to-all, 4x4 torus", topo(DimKind::Ring, {4, 4}), Collective::AllToAll, "direct", 16 << 20},
      {"halving-doubling round a ring of 8", topo(DimKind::Ring, {8}), Collective::AllReduce, "halving-doubling", 8 << 20},
  };
  const testing::ChildResult r = testing::inChild([&] { return both(cases); });
  ASSERT_TRUE(r.ok) << r.output;
  const auto times = parse(r.output);
  ASSERT_EQ(times.size(), cases.size()) << r.output;
  for (size_t i = 0; i < cases.size(); ++i) EXPECT_GE(times[i].fabric, times[i].bound - 1e-12) << cases[i].what;
  EXPECT_GT(times[0].fabric, 1.05 * times[0].model);                    // waits for whole routes
  EXPECT_NEAR(times[1].fabric / times[1].model, 1.0, 0.10);             // shorter last routes
}

}  // namespace
}  // namespace tessel::systems
