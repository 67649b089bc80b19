// The spec keys that judge results: metrics (and their alias), pareto, constraints over metrics.
#include <gtest/gtest.h>

#include "sweep/points.h"
#include "sweep/spec.h"
#include "tests/sweep/spec_helpers.h"

namespace tessel::sweep {
namespace {

using testing::gemminiPath;

Spec parse(const std::string& body) {
  return parseSpec("base: " + gemminiPath() + "\nworkloads: [gpt2-small]\n" + body,
                   "/tmp/spec.yaml");
}

std::string errorOf(const std::string& body) {
  try {
    parse(body);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

#define EXPECT_ERROR(body, text) \
  EXPECT_NE(errorOf(body).find(text), std::string::npos) << errorOf(body)

TEST(SweepSpecResults, SiliconMetricsAndTheStaticEnergyAlias) {
  const Spec spec = parse(
      "metrics: [cycles, area_mm2, power_w, static_energy, dynamic_energy_pj, tops_per_w,\n"
      "          tops_per_mm2, energy_per_mac_pj]\n");
  EXPECT_EQ(spec.metrics,
            (std::vector<std::string>{"cycles", "area_mm2", "power_w", "static_energy_pj",
                                      "dynamic_energy_pj", "tops_per_w", "tops_per_mm2",
                                      "energy_per_mac_pj"}));
  // Without `metrics:`, every metric, the new ones and the off-chip limit included.
  const Spec all = parse("");
  for (const char* m :
       {"area_mm2", "static_energy_pj", "tops", "offchip_limit", "offchip_bytes_per_cycle"}) {
    EXPECT_NE(std::find(all.metrics.begin(), all.metrics.end(), m), all.metrics.end()) << m;
  }
  EXPECT_ERROR("metrics: [area_mm]\n",
               "3:11: at 'metrics[0]': unknown metric 'area_mm'; did you mean 'area_mm2'?");
}

TEST(SweepSpecResults, ParetoTakesTwoOrThreeMetricsInTheirNaturalDirection) {
  const Spec spec = parse("pareto: [cycles, energy_pj, tops_per_w]\n");
  ASSERT_EQ(spec.pareto.size(), 3u);
  EXPECT_EQ(spec.pareto[0].metric, "cycles");
  EXPECT_FALSE(spec.pareto[0].maximize);
  EXPECT_TRUE(spec.pareto[2].maximize);  // larger TOPS/W is better
  const Spec given = parse("pareto: [{min: static_energy}, {max: tops}]\n");
  EXPECT_EQ(given.pareto[0].metric, "static_energy_pj");
  EXPECT_FALSE(given.pareto[0].maximize);
  EXPECT_TRUE(given.pareto[1].maximize);
  // A given direction may go against the natural one.
  EXPECT_FALSE(parse("pareto: [cycles, {min: utilization}]\n").pareto[1].maximize);
}

TEST(SweepSpecResults, BadParetoSpecsAreLocatedErrors) {
  EXPECT_ERROR("pareto: [cycles]\n", "spec.yaml:3:");
  EXPECT_ERROR("pareto: [cycles]\n",
               "at 'pareto': expected 2 or 3 metrics for a Pareto front, got 1");
  EXPECT_ERROR("pareto: [cycles, energy_pj, area_mm2, power_w]\n", "got 4");
  EXPECT_ERROR("pareto: cycles\n", "expected a list of 2 or 3 metrics, got 'cycles'");
  EXPECT_ERROR("pareto: [cycles, {maximum: tops}]\n",
               "at 'pareto[1].maximum': unknown direction 'maximum' (accepted: min, max)");
  EXPECT_ERROR("pareto: [cycles, {mx: tops}]\n", "unknown direction 'mx'; did you mean 'max'?");
  EXPECT_ERROR("pareto: [cycles, {max: tops, min: cycles}]\n", "got a mapping of 2 keys");
  EXPECT_ERROR("pareto: [cycles, energy]\n", "at 'pareto[1]': unknown metric 'energy'");
  EXPECT_ERROR("pareto: [cycles, tops_per_mw]\n", "did you mean 'tops_per_w'?");
  EXPECT_ERROR("pareto: [cycles, by_class]\n", "'by_class' is not a number");
  EXPECT_ERROR("pareto: [cycles, cycles]\n", "'cycles' is listed twice");
  EXPECT_ERROR("metrics: [cycles]\npareto: [cycles, area_mm2]\n",
               "'area_mm2' is not among the spec's metrics: add it to `metrics:`");
}

TEST(SweepSpecResults, AConstraintOnAMetricIsCheckedAfterTheRunNotBefore) {
  const Spec spec = parse(
      "grid:\n  scratchpad.capacity: [64KiB, 128KiB, 256KiB]\n"
      "constraints:\n  - scratchpad.capacity >= 128KiB\n  - area_mm2 <= 2\n"
      "  - static_energy < 1 || scratchpad.capacity < 1MiB\n");
  ASSERT_EQ(spec.constraints.size(), 3u);
  EXPECT_FALSE(spec.constraints[0].on_metrics);
  EXPECT_TRUE(spec.constraints[1].on_metrics);
  EXPECT_TRUE(spec.constraints[2].on_metrics);  // the alias is a metric too
  // Only the constraint over keys rules points out before they run: 64 KiB.
  const PointSet set = generatePoints(spec);
  EXPECT_EQ(set.points.size(), 2u);
  EXPECT_EQ(set.skipped, 1);
}

TEST(SweepSpecResults, ConstraintErrorsComeBeforeAnythingRuns) {
  // A parse error is found when the spec is read, not when the first point is checked.
  EXPECT_ERROR("constraints:\n  - area_mm2 <= (2\n",
               "4:5: at 'constraints[0]': in 'area_mm2 <= (2': expected ')'");
  EXPECT_ERROR("constraints:\n  - by_cause > 1\n",
               "'by_cause' is not a number a constraint can compare");
  // A key a metric constraint reads must have a value before the run.
  const Spec spec = parse("constraints:\n  - area_mm2 <= l2.capacity\n");
  EXPECT_THROW(generatePoints(spec), ConfigError);
}

}  // namespace
}  // namespace tessel::sweep
