// Accesses per nest level under the SystemC engine: the same counts as the analytical engine's,
// and they add up to the bytes the SystemC engine re-counts from its commands.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <tuple>

#include "sim/run.h"
#include "sim/systemc/systemc_engine.h"
#include "tests/sim/accesses_check.h"
#include "tests/systemc/engine/fixtures.h"
#include "tests/systemc/in_child.h"

namespace tessel::sim::systemc {
namespace {

// "" when equal, else the first difference.
std::string compare(const OpStats& a, const OpStats& s) {
  if (a.accesses.size() != s.accesses.size()) return a.name + ": level counts differ";
  for (size_t l = 0; l < a.accesses.size(); ++l) {
    const LevelAccesses &x = a.accesses[l], &y = s.accesses[l];
    if (x.level != y.level || x.instances != y.instances || x.reads != y.reads ||
        x.fills != y.fills || x.updates != y.updates || x.read_bytes != y.read_bytes ||
        x.fill_bytes != y.fill_bytes || x.update_bytes != y.update_bytes) {
      return a.name + ": " + x.level + " differs";
    }
  }
  if (a.networks.size() != s.networks.size()) return a.name + ": network counts differ";
  for (size_t n = 0; n < a.networks.size(); ++n) {
    if (a.networks[n].sent_bytes != s.networks[n].sent_bytes ||
        a.networks[n].delivered_bytes != s.networks[n].delivered_bytes) {
      return a.name + ": network " + a.networks[n].level + " differs";
    }
  }
  return "";
}

using Case = std::tuple<std::string, std::string>;
class SystemcAccesses : public ::testing::TestWithParam<Case> {};

TEST_P(SystemcAccesses, SameAsAnalyticalAndAddUpToTheCommandsBytes) {
  const auto [arch, workload] = GetParam();
  const auto r = testing::inChild([arch = arch, workload = workload] {
    registerEngine();
    const auto p = testing::planned(testing::shipped(arch), workload);
    RunOptions o;
    o.engine = "analytical";
    const RunStats a = evaluatePlans(*p.graph, p.acc, p.dataflow, p.plans, o);
    o.engine = "systemc";
    const RunStats s = evaluatePlans(*p.graph, p.acc, p.dataflow, p.plans, o);
    std::ostringstream out;
    int nests = 0;
    for (size_t i = 0; i < p.plans.size(); ++i) {
      out << compare(a.ops[i], s.ops[i]);
      if (s.ops[i].accesses.empty()) continue;
      ++nests;
      out << testing::accessMismatch(s.ops[i], *p.plans[i].mapping.hw);
    }
    return (nests > 0 ? std::string() : "no op with accesses") + out.str();
  });
  ASSERT_TRUE(r.ok) << r.output;
  EXPECT_EQ(r.output, "");
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, SystemcAccesses,
    ::testing::Combine(::testing::Values("gemmini-default", "eyeriss-like", "tpu-v1-like"),
                       ::testing::Values("gemm:M=100,K=72,N=56",
                                         "conv:H=14,W=14,C=32,K=48,R=3,S=3,pad=1")),
    [](const auto& info) {
      std::string n = std::get<0>(info.param) + "_" + std::get<1>(info.param);
      for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return n;
    });

}  // namespace
}  // namespace tessel::sim::systemc
