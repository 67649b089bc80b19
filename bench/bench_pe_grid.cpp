// Speed of the clocked systolic grid: one 16×16 weight-stationary GEMM (default M=512, K=256,
// N=256: 256 back-to-back array tiles, ~131k cycles), timed with std::chrono, checked against a
// naive INT32 GEMM. One simulation per process (SystemC elaborates once), so no benchmark loop.
//   bench_pe_grid [M K N [ws|os]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <systemc>
#include <vector>

#include "sim/systemc/pe_grid/pe_grid.h"

using namespace tessel::sim::pe_grid;

namespace {
// SystemC prints its banner before sc_main runs unless this is set.
const bool kQuietSystemc = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

int sc_main(int argc, char** argv) {
  GemmShape s{512, 256, 256};
  if (argc >= 4) s = {std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])};
  GridConfig cfg;  // 16×16, WS, double-buffered weights
  if (argc >= 5 && std::strcmp(argv[4], "os") == 0) cfg.dataflow = Dataflow::OutputStationary;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> a(size_t(s.m) * size_t(s.k)), b(size_t(s.k) * size_t(s.n));
  for (auto& x : a) x = int8_t(d(rng));
  for (auto& x : b) x = int8_t(d(rng));

  const auto t0 = std::chrono::steady_clock::now();
  const GridResult r = runSystolicGemm(cfg, s, a, b);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  long bad = 0;
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      int32_t ref = 0;
      for (int k = 0; k < s.k; ++k) ref += int32_t(a[size_t(i * s.k + k)]) * b[size_t(k * s.n + j)];
      bad += r.c[size_t(i * s.n + j)] != ref;
    }
  }
  std::printf(
      "pe_grid %dx%d %s M=%d K=%d N=%d: %zu tiles, %lld cycles in %.3f s wall = %.0f "
      "simulated cycles/s (%.1f M PE-cycles/s), %ld mismatches\n",
      cfg.rows, cfg.cols, cfg.dataflow == Dataflow::WeightStationary ? "WS" : "OS", s.m, s.k, s.n,
      r.tile_cycles.size(), static_cast<long long>(r.cycles), wall, double(r.cycles) / wall,
      double(r.cycles) * cfg.rows * cfg.cols / wall / 1e6, bad);
  return r.complete && bad == 0 ? 0 : 1;
}
