#include "ops_fixture.h"

#include <cmath>
#include <cstdio>

#include "kernels/reference/reference.h"

namespace tessel::kernels::testing {

WeightStore& opsStore() {
  static WeightStore store;
  return store;
}

int emitOp(Builder& b, const std::string& name, models::OpKind kind, std::vector<int> inputs,
           std::vector<int64_t> out_shape, const std::function<void(models::Op&)>& set) {
  models::Op op = models::detail::makeOp(name, kind, std::move(inputs));
  if (set) set(op);
  return b.emit(std::move(op), std::move(out_shape));
}

double expectMatchesDouble(const models::Graph& g, double tol, bool fuse, double max_tol) {
  if (max_tol <= 0.0) max_tol = tol;
  const RefValues exact = runDoubleReference(g, opsStore());
  ExecutorOptions o;
  o.fuse = fuse;
  Executor exec(g, opsStore(), o);
  double worst = 0.0;
  int compared = 0;
  exec.run([&](const models::Op& op, const std::shared_ptr<const Tensor>& got) {
    const std::string& name = g.tensor(op.outputs.at(0)).name;
    const std::vector<double>& want = exact.at(name);
    ASSERT_EQ(static_cast<int64_t>(want.size()), got->numel()) << name;
    double ee = 0, rr = 0, max_err = 0, max_ref = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      const float v = got->f32()[i];
      if (std::isinf(want[i])) {
        EXPECT_TRUE(std::isinf(v) && (v < 0) == (want[i] < 0)) << name << " " << i;
        continue;
      }
      const double e = v - want[i];
      ee += e * e;
      rr += want[i] * want[i];
      max_err = std::max(max_err, std::fabs(e));
      max_ref = std::max(max_ref, std::fabs(want[i]));
    }
    const double rel = rr > 0 ? std::sqrt(ee / rr) : std::sqrt(ee);
    worst = std::max(worst, rel);
    ++compared;
    EXPECT_LE(rel, tol) << name;
    EXPECT_LE(max_err, max_tol * std::max(max_ref, 1e-30)) << name;
  });
  EXPECT_GT(compared, 0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", worst);
  ::testing::Test::RecordProperty("worst_rel_l2", buf);
  return worst;
}

std::vector<float> runValues(const models::Graph& g, const std::string& name) {
  Executor exec(g, opsStore());
  std::vector<float> out;
  exec.run([&](const models::Op& op, const std::shared_ptr<const Tensor>& t) {
    if (g.tensor(op.outputs.at(0)).name == name) out.assign(t->f32(), t->f32() + t->numel());
  });
  return out;
}

}  // namespace tessel::kernels::testing
