// Float results that do not depend on the CPU: Eigen's GEMM blocking (sized from the caches it
// detects) and the portable transcendental functions. The whole-executor check across ISA paths
// is tests/executor/test_isa_paths.cpp.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/gemm/float.h"
#include "kernels/gemm/isa/ceiling.h"
#include "kernels/numeric/portable_math.h"

namespace tk = tessel::kernels;

namespace {

constexpr int64_t kM = 48, kK = 3072, kN = 96;  // K as in GPT-2's FFN down projection

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

uint64_t hashOf(const float* x, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    uint32_t b;
    std::memcpy(&b, x + i, 4);
    h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

// Runs `fn` in a child process (so the child's first product sees only its own settings) and
// returns the hash it computed.
template <class Fn>
uint64_t inChild(Fn fn) {
  int fd[2];
  if (pipe(fd) != 0) return 0;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const uint64_t h = fn();
    const ssize_t n = write(fd[1], &h, sizeof h);
    _exit(n == sizeof h ? 0 : 1);
  }
  close(fd[1]);
  uint64_t h = 0;
  const ssize_t got = read(fd[0], &h, sizeof h);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return got == sizeof h && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? h : 0;
}

// The executor's float GEMM, on a CPU whose caches Eigen sees as (l1, l2, l3).
uint64_t executorGemmWithCaches(std::ptrdiff_t l1, std::ptrdiff_t l2, std::ptrdiff_t l3) {
  return inChild([=] {
    Eigen::setCpuCacheSizes(l1, l2, l3);  // what Eigen would detect on that CPU
    const tk::Tensor a = tk::Tensor::fromFloats({kM, kK}, randomFloats(kM * kK, 1));
    const tk::FloatWeights w(tk::Tensor::fromFloats({kK, kN}, randomFloats(kK * kN, 2)));
    const tk::Tensor c = tk::matmul(a, w);
    return hashOf(c.f32(), static_cast<size_t>(c.numel()));
  });
}

// Eigen alone, with no pinning: the same product under the same cache sizes.
uint64_t plainEigenWithCaches(std::ptrdiff_t l1, std::ptrdiff_t l2, std::ptrdiff_t l3) {
  return inChild([=] {
    Eigen::setCpuCacheSizes(l1, l2, l3);
    using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const std::vector<float> av = randomFloats(kM * kK, 1), bv = randomFloats(kK * kN, 2);
    const Mat a = Eigen::Map<const Mat>(av.data(), kM, kK);
    const Mat b = Eigen::Map<const Mat>(bv.data(), kK, kN);
    const Mat c = a * b;
    return hashOf(c.data(), static_cast<size_t>(c.size()));
  });
}

TEST(FloatGemmBlocking, EigenAloneDependsOnTheCachesItDetects) {
  // The mechanism the pinning removes: K is split into panels sized from L1, and the split
  // changes the order of the float sums (a 16 KiB and a 64 KiB L1 give other bits).
  const uint64_t small = plainEigenWithCaches(16 * 1024, 256 * 1024, 4 << 20);
  const uint64_t large = plainEigenWithCaches(64 * 1024, 2 << 20, 64 << 20);
  ASSERT_NE(small, 0u);
  ASSERT_NE(large, 0u);
  EXPECT_NE(small, large);
}

TEST(FloatGemmBlocking, ExecutorGivesTheSameBitsWhateverCachesTheCpuHas) {
  const uint64_t here =
      executorGemmWithCaches(Eigen::l1CacheSize(), Eigen::l2CacheSize(), Eigen::l3CacheSize());
  ASSERT_NE(here, 0u);
  const std::ptrdiff_t caches[][3] = {{16 * 1024, 256 * 1024, 4 << 20},
                                      {32 * 1024, 1 << 20, 32 << 20},
                                      {48 * 1024, 2 << 20, 512 << 20},
                                      {64 * 1024, 512 * 1024, 16 << 20}};
  for (const auto& c : caches)
    EXPECT_EQ(executorGemmWithCaches(c[0], c[1], c[2]), here) << "L1 " << c[0] << " L2 " << c[1];
}

TEST(IsaCeiling, ForcedLevelsStayWithinTheCpu) {
  const tk::IsaLevel was = tk::isaCeiling();
  tk::setIsaCeiling(tk::IsaLevel::Portable);
  EXPECT_EQ(tk::isaCeiling(), tk::IsaLevel::Portable);
  EXPECT_FALSE(tk::detail::useAvx2());
  tk::setIsaCeiling(tk::IsaLevel::Avx512);
  const tk::IsaLevel top = tk::detail::cpuHas(tk::IsaLevel::Avx512) ? tk::IsaLevel::Avx512
                           : tk::detail::cpuHas(tk::IsaLevel::Avx2) ? tk::IsaLevel::Avx2
                                                                    : tk::IsaLevel::Portable;
  EXPECT_EQ(tk::isaCeiling(), top);
  tk::setIsaCeiling(was);
}

// Max error in units of the last place of the double result.
double ulpError(double got, double want) {
  if (got == want) return 0.0;
  return std::fabs(got - want) / std::fabs(std::nextafter(want, 2 * want) - want);
}

template <class F, class G>
double maxUlp(F mine, G libm, double lo, double hi, int n) {
  double worst = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double x = lo + (hi - lo) * i / n;
    worst = std::max(worst, ulpError(mine(x), libm(x)));
  }
  return worst;
}

TEST(PortableMath, WithinAFewUlpOfLibm) {
  // libm itself is within 1 ulp, so 3 ulp against it bounds ours by 4 ulp of the exact value.
  EXPECT_LE(maxUlp(
                tk::portable::exp, [](double x) { return std::exp(x); }, -700, 700, 200001),
            3);
  EXPECT_LE(maxUlp(
                tk::portable::log, [](double x) { return std::log(x); }, 1e-300, 1e300, 200001),
            3);
  EXPECT_LE(maxUlp(
                tk::portable::log, [](double x) { return std::log(x); }, 0.5, 2.0, 200001),
            3);
  EXPECT_LE(maxUlp(
                tk::portable::sin, [](double x) { return std::sin(x); }, -2e5, 2e5, 200001),
            3);
  EXPECT_LE(maxUlp(
                tk::portable::cos, [](double x) { return std::cos(x); }, -2e5, 2e5, 200001),
            3);
  EXPECT_LE(maxUlp(
                tk::portable::tanh, [](double x) { return std::tanh(x); }, -30, 30, 200001),
            4);
}

TEST(PortableMath, FloatResultsMatchLibmAfterRounding) {
  // The executor rounds erf, pow, exp and tanh to float: compare there, relative 2^-23.
  for (int i = -40000; i <= 40000; ++i) {
    const double x = i * 1e-4;
    EXPECT_NEAR(tk::portable::erf(x), std::erf(x), 1e-15 + 1.2e-7 * std::fabs(std::erf(x))) << x;
  }
  for (double b : {0.5, 2.0, 10000.0, 500000.0})  // |y log x| < 9: error < 2e-15 relative
    for (double e : {-1.0, -0.5, -0.0625, 0.37, 2.0, 3.0})
      EXPECT_NEAR(tk::portable::pow(b, e), std::pow(b, e), 2e-15 * std::pow(b, e)) << b << "^" << e;
  EXPECT_EQ(tk::portable::pow(-2.0, 3.0), -8.0);
  EXPECT_TRUE(std::isnan(tk::portable::pow(-2.0, 0.5)));
  EXPECT_EQ(tk::portable::exp(-1000.0), 0.0);
  EXPECT_TRUE(std::isinf(tk::portable::exp(1000.0)));
  EXPECT_EQ(tk::portable::log(0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(tk::portable::log(-1.0)));
  EXPECT_EQ(tk::portable::erf(8.0), 1.0);
  // Far outside the accurate range: finite, within [-1, 1], no integer overflow on the way.
  for (double x : {1e30, -1e300, 9.2e18}) {
    EXPECT_LE(std::fabs(tk::portable::sin(x)), 1.0 + 1e-12) << x;
    EXPECT_LE(std::fabs(tk::portable::cos(x)), 1.0 + 1e-12) << x;
  }
}

}  // namespace
