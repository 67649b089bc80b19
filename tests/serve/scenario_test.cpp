// Seeds and jitter, scenario validation, the registry, and SystemC's one run per process.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "serve/timeline/register.h"
#include "tests/serve/run_timeline.h"
#include "util/error.h"

namespace tessel::serve {
namespace {

using tessel::testing::inChild;
using testing::closedLoop;
using testing::decode;
using testing::near;
using testing::simulateText;

Scenario jittered(uint64_t seed) {
  Scenario s = closedLoop("jitter", 2, 1e-3, 2e-3, 1e-3, 100'000);
  s.cores = 2;
  s.jitter = 0.3;
  s.seed = seed;
  return s;
}

TEST(ServeJitter, SameSeedSameResultsOtherSeedOthers) {
  const std::string a = simulateText({jittered(5)});
  const std::string b = simulateText({jittered(5)});
  const std::string c = simulateText({jittered(6)});
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(ServeJitter, AScenarioRunsTheSameAloneOrBesideOthers) {
  // Each job draws its factors from the seed and its index, not from the order the simulation
  // happens to interleave scenarios in: the same lines come back either way.
  Scenario open = jittered(9);
  open.label = "open";
  open.arrivals = Arrivals::Poisson;
  open.rate = 600;
  open.requests = 20'000;
  const std::string alone = simulateText({open});
  const std::string beside = simulateText({jittered(3), open, jittered(4)});
  ASSERT_FALSE(alone.empty());
  EXPECT_NE(beside.find(alone), std::string::npos);
}

TEST(ServeJitter, FactorsKeepTheMean) {
  // Two workers, two cores (job the same however many run), own CPUs: they never wait for each
  // other, so a request takes pre + job + post, each times an independent factor of mean 1.
  // Mean latency 4 ms; the sample mean over 100,000 requests is within 0.1% (the CV of a sum
  // of three factors with CV 0.3 is about 0.18, over sqrt(1e5)). The spread is real: p99 well
  // above the mean.
  const auto r = decode(simulateText({jittered(5)}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(near(r[0].latency_mean, 4e-3, 0.01));
  EXPECT_TRUE(near(r[0].throughput, 2 / 4e-3, 0.01));
  EXPECT_GT(r[0].latency_p99, 1.3 * r[0].latency_mean);
  EXPECT_LT(r[0].latency_p50, r[0].latency_mean);  // lognormal factors: skewed right
}

// What simulate() throws for `s`, run in a child: "ConfigError: <what>", or how it went.
std::string rejection(const Scenario& s) {
  const auto child = inChild([&]() -> std::string {
    try {
      simulate({s});
      return "accepted";
    } catch (const ConfigError& e) {
      return std::string("ConfigError: ") + e.what();
    }
  });
  return child.output;
}

TEST(ServeScenario, EachBadFieldIsAConfigErrorNamingIt) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<std::string, std::function<void(Scenario&)>>> bad = {
      {"workers", [](Scenario& s) { s.workers = 0; }},
      {"batch", [](Scenario& s) { s.batch = 0; }},
      {"cores", [](Scenario& s) { s.cores = 0; }},
      {"submit_capacity", [](Scenario& s) { s.submit_capacity = 0; }},
      {"receive_capacity", [](Scenario& s) { s.receive_capacity = 0; }},
      {"host_cpus", [](Scenario& s) { s.host_cpus = -1; }},
      {"requests", [](Scenario& s) { s.requests = 0; }},
      {"requests", [](Scenario& s) { s.requests = 100'000'001; }},
      {"jitter", [](Scenario& s) { s.jitter = -0.1; }},
      {"jitter", [](Scenario& s) { s.jitter = 10.5; }},
      {"jitter", [](Scenario& s) { s.jitter = std::nan(""); }},
      {"rate", [](Scenario& s) { s.arrivals = Arrivals::Poisson; }},
      {"rate", [inf](Scenario& s) { s.arrivals = Arrivals::Uniform, s.rate = inf; }},
      {"times.pre", [](Scenario& s) { s.times.pre = -1; }},
      {"times.post", [inf](Scenario& s) { s.times.post = inf; }},
      {"times.job_host", [](Scenario& s) { s.times.job_host = std::nan(""); }},
      {"times.job", [](Scenario& s) { s.times.job.clear(); }},
      {"times.job[1]",
       [](Scenario& s) {
         s.times.job = {1e-3, 0};
       }},
      {"times", [](Scenario& s) { s.times.job = {1e3}, s.requests = 10'000; }},
  };
  for (const auto& [field, spoil] : bad) {
    Scenario s = closedLoop("bad-one", 1, 0, 1e-3, 0, 10);
    spoil(s);
    const std::string got = rejection(s);
    EXPECT_EQ(got.rfind("ConfigError: ", 0), 0u) << field << ": " << got;
    EXPECT_NE(got.find("'bad-one'"), std::string::npos) << got;
    EXPECT_NE(got.find(": " + field + " "), std::string::npos) << field << ": " << got;
  }
  EXPECT_EQ(rejection(closedLoop("good", 1, 0, 1e-3, 0, 10)), "accepted");
}

TEST(ServeScenario, TheRegistryReachesTheSystemcTimeline) {
  const auto child = inChild([] {
    std::string out;
    try {
      timeline();
    } catch (const ConfigError&) {
      out = "none registered; ";
    }
    systemc::registerTimeline();
    const auto r = timeline()({closedLoop("via_registry", 1, 0, 1e-3, 0, 3)});
    return out + r.at(0).label + " " + std::to_string(r.at(0).completed);
  });
  EXPECT_TRUE(child.ok);
  EXPECT_EQ(child.output, "none registered; via_registry 3");
}

TEST(ServeScenario, ASecondRunInOneProcessIsRefused) {
  const auto child = inChild([] {
    simulate({closedLoop("first", 1, 0, 1e-3, 0, 3)});
    try {
      simulate({closedLoop("second", 1, 0, 1e-3, 0, 3)});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("ran twice");
  });
  EXPECT_TRUE(child.ok);
  EXPECT_NE(child.output.find("once per process"), std::string::npos) << child.output;
}

TEST(ServeScenario, NoScenariosNoSimulation) {
  const auto child = inChild([] {
    const bool empty = simulate({}).empty();
    // Nothing was elaborated: a real run may follow.
    return std::to_string(empty) + " " +
           std::to_string(simulate({closedLoop("after", 1, 0, 1e-3, 0, 2)}).at(0).completed);
  });
  EXPECT_EQ(child.output, "1 2");
}

}  // namespace
}  // namespace tessel::serve
