// The searching mapper: the optimum of an independent brute-force enumeration on small layers,
// the same mapping for any thread count, never worse than gemmini-auto's tiling under the same
// cost model, never slower nor heavier on DRAM than a fold-after-fold schedule, never dominated
// in cycles and energy or DRAM bytes by one under any dataflow, energy within a latency tolerance,
// and depthwise layers with their groups across a spatial array.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "dataflows/host_conversions.h"
#include "dataflows/mapper.h"
#include "dataflows/nest/baselines.h"
#include "dataflows/nest/candidates.h"
#include "dataflows/nest/cost.h"
#include "dataflows/nest/search.h"
#include "dataflows/plan.h"
#include "dataflows/tile_as_nest.h"
#include "models/fuse.h"
#include "models/workload.h"
#include "tests/dataflows/nest_fixtures.h"

namespace tessel {
namespace {

using namespace testing;
using dataflows::nest::CostOptions;
using dataflows::nest::evaluate;
using dataflows::nest::Problem;
using dataflows::nest::score;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Every weight-stationary mapping of a GEMM on a small systolic array, by plain nested loops:
// spatial factors, every local factor (dividing or not), the whole stream in the PE, every DRAM
// loop order, both local orders, single and double buffering. Returns the (cycles, energy) of
// the mapping the latency objective's rule picks from them all, written out independently of the
// search: the least energy among those within `tolerance` of the fastest, then the fastest; with
// no tolerance, the least score.
std::pair<double, double> bruteForce(const Problem& p, const Hardware& hw, const CostOptions& o,
                                     double tolerance) {
  std::vector<std::pair<double, double>> all;
  double score_best = INFINITY;
  const int64_t M = p.of(Dim::P), N = p.of(Dim::K), K = p.of(Dim::C);
  for (int64_t sr = 1; sr <= std::min<int64_t>(hw.rows, K); ++sr) {
    for (int64_t sc = 1; sc <= std::min<int64_t>(hw.cols, N); ++sc) {
      for (int64_t pe = 1; pe <= M; ++pe) {
        for (int64_t ln = 1; ln <= ceilDiv(N, sc); ++ln) {
          for (int64_t lk = 1; lk <= ceilDiv(K, sr); ++lk) {
            const Factors dram = dims({{Dim::P, ceilDiv(M, pe)}, {Dim::K, ceilDiv(N, sc * ln)},
                                       {Dim::C, ceilDiv(K, sr * lk)}});
            std::vector<Dim> active;
            for (Dim d : {Dim::K, Dim::C, Dim::P}) {
              if (dram[static_cast<size_t>(d)] > 1) active.push_back(d);
            }
            std::sort(active.begin(), active.end());
            do {
              for (bool k_first : {true, false}) {
                for (bool db : {true, false}) {
                  const Factors local = dims({{Dim::K, ln}, {Dim::C, lk}});
                  std::vector<Dim> lo;
                  for (Dim d : k_first ? std::vector<Dim>{Dim::K, Dim::C} : std::vector<Dim>{Dim::C, Dim::K}) {
                    if (local[static_cast<size_t>(d)] > 1) lo.push_back(d);
                  }
                  Mapping m = nestMapping(hw, dram, active, local, lo, dims({{Dim::P, pe}}),
                                          pe > 1 ? std::vector<Dim>{Dim::P} : std::vector<Dim>{},
                                          dims({{Dim::C, sr}}), dims({{Dim::K, sc}}));
                  m.levels[2].keeps = {false, true, false};
                  m.double_buffered = db;
                  if (!checkShape(m, p, hw).empty()) continue;
                  const auto c = evaluate(p, m, hw, o);
                  if (c.ok && tolerance <= 0) {
                    const double sc = score(c, dataflows::nest::Objective::Latency);
                    if (all.empty() || sc < score_best) all.assign(1, {c.cycles, c.energy}), score_best = sc;
                  } else if (c.ok) {
                    all.emplace_back(c.cycles, c.energy);
                  }
                }
              }
            } while (std::next_permutation(active.begin(), active.end()));
          }
        }
      }
    }
  }
  double fastest = INFINITY;
  for (const auto& [cycles, energy] : all) fastest = std::min(fastest, cycles);
  std::pair<double, double> pick{INFINITY, INFINITY};
  for (const auto& [cycles, energy] : all) {
    if (cycles > fastest * (1 + tolerance + 1e-9)) continue;
    if (energy < pick.second || (energy == pick.second && cycles < pick.first)) pick = {cycles, energy};
  }
  return pick;
}

// Tile sizes: the smallest tile of every distinct pass count. 8 units take 1, 2, 3, 4 or 8
// passes with tiles of 8, 4, 3, 2, 1 (5 to 7 passes are not possible: a tile of 2 makes 4). The
// tile of 3 lies above sqrt(8) and below 8 / 2: the search once skipped it, and with it the
// brute-force optimum of the 8x6x4 GEMM below (M streamed in 3 passes of 3, 3, 2 rows).
// In steps of 16 (an array's width), 100 elements are 7 units: 7, 4, 3, 2 or 1 passes of 1, 2,
// 3, 4 and 7 units, the last capped at the extent.
TEST(NestSearch, TileSizesOfferEveryPassCount) {
  using dataflows::nest::tileSizes;
  EXPECT_EQ(tileSizes(8, 1, SIZE_MAX), (std::vector<int64_t>{1, 2, 3, 4, 8}));
  EXPECT_EQ(tileSizes(100, 16, SIZE_MAX), (std::vector<int64_t>{16, 32, 48, 64, 100}));
  EXPECT_EQ(tileSizes(1, 1, SIZE_MAX), (std::vector<int64_t>{1}));
}

TEST(NestSearch, ExhaustiveSearchFindsTheBruteForceOptimum) {
  const auto ws = dataflows::loadDataflow("ws");
  for (const auto& [m, n, k, buffer] :
       std::vector<std::tuple<int, int, int, double>>{{8, 6, 4, 48}, {5, 7, 3, 40}, {12, 4, 6, 64}, {3, 3, 9, 30}}) {
    Hardware hw = tinyNest(2, 2, true, buffer);
    hw.levels[0].bandwidth = {4, 4, 4};
    hw.offchip_bandwidth = 4;
    hw.offchip_latency = 10;
    const Problem p = dataflows::nest::gemmProblem(1, m, n, k);
    dataflows::nest::SearchOptions so;
    so.budget = 0;
    so.threads = 1;
    for (double tolerance : {0.0, 0.02, 0.10}) {
      so.tolerance = tolerance;
      const auto r = dataflows::nest::search(p, hw, ws.nest, so);
      ASSERT_TRUE(r.ok) << r.reason;
      const auto [cycles, energy] = bruteForce(p, hw, so.cost, tolerance);
      EXPECT_NEAR(r.cost.cycles, cycles, 1e-9 * cycles) << m << "x" << n << "x" << k << " tolerance " << tolerance;
      EXPECT_NEAR(r.cost.energy, energy, 1e-9 * energy) << m << "x" << n << "x" << k << " tolerance " << tolerance;
    }
  }
}

arch::Accelerator shipped(const std::string& name) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml");
}

TEST(NestSearch, SameMappingForAnyThreadCount) {
  const arch::Accelerator acc = shipped("gemmini-default");
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  Problem p;  // ResNet-50 layer2's 3x3 convolution
  for (auto [d, v] : {std::pair{Dim::K, 128}, {Dim::C, 128}, {Dim::P, 28}, {Dim::Q, 28}, {Dim::R, 3}, {Dim::S, 3}}) {
    p.extent[static_cast<size_t>(d)] = v;
  }
  p.input_h = p.input_w = 30;
  const auto ws = dataflows::loadDataflow("ws");
  dataflows::nest::SearchOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const auto a = dataflows::nest::search(p, hw, ws.nest, one);
  const auto b = dataflows::nest::search(p, hw, ws.nest, two);
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.mapping.brief(p, hw), b.mapping.brief(p, hw));
  EXPECT_EQ(a.cost.cycles, b.cost.cycles);
  EXPECT_EQ(a.evaluated, b.evaluated);
}

// Every GEMM-like op of a workload, planned with `mapper` under the strict latency objective (no
// tolerance: these tests hold the search to the fastest mapping it can find).
std::vector<dataflows::OpPlan> planned(const models::Graph& g, const arch::Accelerator& acc,
                                       const std::string& mapper) {
  dataflows::PlanOptions o;
  o.mapper = mapper;
  o.mapper_options.budget = 3000;
  o.mapper_options.tolerance = 0;
  return dataflows::plan(g, acc, dataflows::loadDataflow("ws"), o);
}

CostOptions costOptions(const dataflows::OpPlan& p, const arch::Accelerator& acc, const Hardware& hw) {
  CostOptions o;
  o.mac_rate = acc.array.macRate(p.problem.input_dtype);
  for (size_t t = 0; t < 3; ++t) {
    const int home = t == 0 ? p.input_home : t == 1 ? p.weight_home : p.output_home;
    o.home[t] = acc.levels[static_cast<size_t>(home)].kind == arch::LevelKind::L2 ? hw.l2 : hw.dram;
  }
  return o;
}

models::Graph workload(const std::string& name) {
  models::WorkloadOptions o;
  o.seq = 128;
  return models::build(name, o);
}

// gemmini-auto's tile, costed by the same loop-nest model, is never better than the search: never
// faster, and at equal cycles never cheaper.
TEST(NestSearch, NeverWorseThanGemminiAutoOnGemminiConfigs) {
  for (const char* config : {"gemmini-default", "gemmini-survey-model"}) {
    const arch::Accelerator acc = shipped(config);
    const Hardware hw = dataflows::nest::hardwareOf(acc);
    for (const char* w : {"gpt2-small", "bert-base", "resnet50"}) {
      // Host ops get their conversions first, as sim::simulate does.
      const models::Graph g = dataflows::withHostConversions(workload(w), acc);
      const auto search = planned(g, acc, "search");
      const auto heuristic = planned(g, acc, "gemmini-auto");
      int compared = 0;
      for (size_t i = 0; i < search.size(); ++i) {
        const auto& s = search[i];
        if (!s.op->isGemmLike() || s.placement != dataflows::Placement::Array) continue;
        const auto& h = heuristic[i];
        // gemmini-auto hands its tile over as a loop nest (the im2col GEMM of a convolution).
        ASSERT_TRUE(h.mapping.has_nest) << s.op->name;
        const CostOptions o = costOptions(s, acc, hw);
        const auto hc = evaluate(h.mapping.loops, h.mapping.nest, hw, o);
        const auto sc = evaluate(s.mapping.loops, s.mapping.nest, hw, o);
        ASSERT_TRUE(hc.ok && sc.ok) << s.op->name;
        EXPECT_LE(sc.cycles, hc.cycles * (1 + 1e-9)) << config << " " << w << " " << s.op->name;
        if (sc.cycles > hc.cycles) {
          EXPECT_LE(sc.energy, hc.energy) << config << " " << w << " " << s.op->name;
        }
        ++compared;
      }
      EXPECT_GT(compared, 10) << w;
    }
  }
}

// The fold-after-fold schedule of output-stationary-free systolic simulators (SCALE-Sim's WS
// model): for each R x C block of weights (a fold), preload it (R cycles), stream all M rows
// through with their skew (M + R + C - 2), no overlap of folds nor of memory with compute. DRAM:
// each weight once, each input strip once per column fold, each output once if one fold's
// partial sums (M x C at accumulator width) fit the accumulator, else spilled and re-read for
// every further row fold. Memory time is bytes over the off-chip rate plus one latency: no
// schedule receives its first byte sooner.
struct FoldBaseline {
  double cycles = 0;
  double dram_bytes = 0;
};

FoldBaseline foldBaseline(const dataflows::Problem& p, const arch::Accelerator& acc,
                          const Hardware& hw) {
  const double offchip = hw.offchip_bandwidth;
  const double R = acc.array.rows, C = acc.array.cols;
  const double M = static_cast<double>(p.m) * static_cast<double>(p.batch);
  const double N = static_cast<double>(p.n), K = static_cast<double>(p.k);
  const double row_folds = std::ceil(K / R), col_folds = std::ceil(N / C);
  const double in_b = bytesOf(p.input_dtype), w_b = bytesOf(p.weight_dtype), out_b = bytesOf(p.output_dtype);
  const double acc_b = bytesOf(acc.array.accum_dtype);
  FoldBaseline b;
  b.dram_bytes = w_b * K * N * static_cast<double>(p.batch) + in_b * M * K * col_folds + out_b * M * N;
  const auto* accum = acc.level(arch::LevelKind::Accumulator);
  if (accum && M * C * acc_b > static_cast<double>(accum->capacity_bytes)) {
    b.dram_bytes += 2 * acc_b * M * N * (row_folds - 1);
  }
  b.cycles = row_folds * col_folds * (2 * R + C + M - 2) + b.dram_bytes / offchip +
             hw.offchip_latency;
  return b;
}

// Every array op of `g` searched on `acc` with all tensors in DRAM, as the fold-after-fold
// baseline has them, against that baseline: never slower, never more DRAM bytes. Returns the ops
// compared. The search must see the homes it is judged under: the plan homes activations in the
// L2 when there is one, and a compute-bound layer may then re-read them (and the weights) many
// times at no cost in time; costed from DRAM afterwards, those re-reads become DRAM bytes.
int expectNoWorseThanFolds(const models::Graph& g, const arch::Accelerator& acc,
                           const std::string& label) {
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const dataflows::Dataflow ws = dataflows::loadDataflow("ws");
  dataflows::MapperOptions mo;
  mo.budget = 3000;
  const auto mapper = dataflows::makeMapper("search", mo);
  int compared = 0;
  for (const auto& s : planned(g, acc, "search")) {
    if (!s.op->isGemmLike() || s.placement != dataflows::Placement::Array) continue;
    // A fused row-wise epilogue kept in the plan needs whole output rows here too.
    bool whole = false;
    for (int id : s.epilogue) whole = whole || models::isRowwise(g.op(id).kind);
    const auto r = mapper->map(s.problem, acc, ws, dataflows::MapConstraints{whole, {0, 0, 0}});
    EXPECT_TRUE(r.ok) << label << " " << s.op->name << ": " << r.reason;
    if (!r.ok) continue;
    CostOptions o = costOptions(s, acc, hw);
    o.home = {hw.dram, hw.dram, hw.dram};
    const auto c = evaluate(r.mapping.loops, r.mapping.nest, hw, o);
    const FoldBaseline b = foldBaseline(s.problem, acc, hw);
    EXPECT_LE(c.cycles, b.cycles) << label << " " << s.op->name;
    EXPECT_LE(c.dramBytes(), b.dram_bytes) << label << " " << s.op->name;
    ++compared;
  }
  return compared;
}

TEST(NestSearch, NeverSlowerNorHeavierThanFoldAfterFold) {
  for (const char* config : {"gemmini-default", "gemmini-survey-model"}) {
    const arch::Accelerator acc = shipped(config);
    for (const char* w : {"gpt2-small", "resnet50"}) {
      EXPECT_GT(
          expectNoWorseThanFolds(dataflows::withHostConversions(workload(w), acc), acc, config), 10)
          << w;
    }
  }
}

// Decode's matrix-vector products (M = 1) are bound by streaming the weights: the search reads
// every weight and writes every output exactly once (no partial sum leaves the accumulator), and
// re-reads of the 768 B input vector may not add 1% to the compulsory traffic. GPT-2's fc at
// M = 1: 768 B of input + 768 x 3072 B of weights + 3072 B of output = 2,363,136 B.
TEST(NestSearch, DecodeReadsEachOperandOnce) {
  const arch::Accelerator acc = shipped("gemmini-default");
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const models::Graph g = models::build("gemm:M=1,K=768,N=3072", {});
  const auto plans = planned(g, acc, "search");
  ASSERT_EQ(plans.size(), 1u);
  CostOptions o = costOptions(plans[0], acc, hw);
  const auto c = evaluate(plans[0].mapping.loops, plans[0].mapping.nest, hw, o);
  EXPECT_EQ(c.reads[0][1], 768 * 3072);
  EXPECT_EQ(c.reads[0][2], 0);
  EXPECT_EQ(c.writes[0][2], 3072);
  EXPECT_LE(c.dramBytes(), 2363136 * 1.01);
  // Weight streaming sets the time: 2,363,136 B at 10.24 B/cycle = 230,775 cycles, the bound.
  EXPECT_LE(c.cycles, 2363136 / 10.24 * 1.01 + hw.offchip_latency + 2 * 64);
}

// The same property on arrays the shipped configs do not have — wider, taller, non-square, a
// 128x128 array with Gemmini's 64 KiB accumulator — and on decode (M = 1) and odd layers.
TEST(NestSearch, NeverSlowerNorHeavierThanFoldAfterFoldOnOtherArrays) {
  const std::vector<std::vector<std::string>> arrays = {
      {"array.rows=32", "array.cols=32"},
      {"array.rows=128", "array.cols=128"},
      {"array.rows=16", "array.cols=64"},
      {"array.rows=48", "array.cols=16"},
      {"array.rows=128", "array.cols=128", "accumulator.capacity=256KiB"}};
  std::vector<std::pair<std::string, models::WorkloadOptions>> loads;
  models::WorkloadOptions prefill, decode, small;
  prefill.seq = 128;
  decode.seq = 300;
  decode.phase = "decode";
  small.image = 64;
  loads = {{"gpt2-small", prefill}, {"gpt2-small", decode}, {"resnet50", small},
           {"gemm:M=37,K=1000,N=129", {}}, {"gemm:M=1,K=768,N=2304", {}},
           {"conv:H=13,W=13,C=96,K=200,R=5,S=5,stride=2,pad=2", {}}};
  for (const auto& overrides : arrays) {
    const arch::Accelerator acc = arch::loadFile(
        std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml", overrides);
    for (const auto& [name, options] : loads) {
      const std::string label = overrides[0] + " " + overrides[1];
      const models::Graph g = dataflows::withHostConversions(models::build(name, options), acc);
      EXPECT_GT(expectNoWorseThanFolds(g, acc, label), 0) << name;
    }
  }
}

// On random layers, under WS and OS on a systolic array and WS, OS and IS on a spatial one, no
// fold-after-fold schedule of the same dataflow beats the search's mapping in cycles and energy,
// nor in cycles and DRAM bytes (one at least as good in both and better in one would).
TEST(NestSearch, NeverDominatedByFoldAfterFoldUnderAnyDataflow) {
  std::mt19937 rng(19);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<Problem> layers;
  for (int i = 0; i < 6; ++i) {
    layers.push_back(dataflows::nest::gemmProblem(1, pick(1, 300), pick(1, 300), pick(1, 300)));
    Problem conv;
    conv.extent[at(Dim::K)] = pick(1, 96);
    conv.extent[at(Dim::C)] = pick(1, 64);
    conv.extent[at(Dim::P)] = conv.extent[at(Dim::Q)] = pick(1, 28);
    conv.extent[at(Dim::R)] = conv.extent[at(Dim::S)] = pick(1, 3);
    conv.stride_h = conv.stride_w = pick(1, 2);
    layers.push_back(conv);
  }
  int folds = 0;
  for (const auto& [config, flows] :
       std::vector<std::pair<std::string, std::vector<std::string>>>{{"gemmini-default", {"ws", "os"}},
                                                                     {"eyeriss-like", {"ws", "os", "is"}}}) {
    const arch::Accelerator acc = shipped(config);
    const Hardware hw = dataflows::nest::hardwareOf(acc);
    for (const std::string& flow : flows) {
      const auto df = dataflows::loadDataflow(flow);
      for (Problem p : layers) {
        p.input_dtype = p.weight_dtype = p.output_dtype = acc.array.input_dtype;
        dataflows::nest::SearchOptions so;
        so.budget = 1500;
        so.cost.mac_rate = acc.array.macRate(p.input_dtype);
        const auto r = dataflows::nest::search(p, hw, df.nest, so);
        ASSERT_TRUE(r.ok) << config << " " << flow << " " << p.describe() << ": " << r.reason;
        for (const auto& fold : dataflows::nest::foldAfterFold(p, hw, df.nest)) {
          const auto f = evaluate(p, fold, hw, so.cost);
          ++folds;
          const std::string label = config + " " + flow + " " + p.describe() + "\n" + fold.loopNest(p, hw);
          auto dominated = [&](double fb, double sb) {
            return f.cycles <= r.cost.cycles && fb <= sb && (f.cycles < r.cost.cycles || fb < sb);
          };
          EXPECT_FALSE(dominated(f.energy, r.cost.energy)) << label;
          EXPECT_FALSE(dominated(f.dramBytes(), r.cost.dramBytes())) << label;
        }
      }
    }
  }
  EXPECT_GT(folds, 100);  // the schedule exists for most layers (it needs its stream to fit)
}

// With a stated tolerance the latency objective spends it on energy: the 2048x4096x4096 GEMM with
// a 128 MiB L2 (all three tensors, 8 + 16 + 8 MiB, fit there). The walk is the same whatever the
// tolerance (it follows score()), so the mapping chosen without one is in the band the tolerance
// opens and the choice with it spends at most its energy, at most 10% above the fastest. The
// energies are pinned where an L2 byte costs 1/33 of a DRAM byte (the Eyeriss ratios of a 0.2 pJ
// MAC), so that the energy to buy is DRAM traffic.
TEST(NestSearch, ALatencyToleranceBuysLessEnergy) {
  const arch::Accelerator acc = arch::loadFile(
      std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-survey-model.yaml",
      {"l2.capacity=128MiB", "dram.read_energy=40pJ/B", "dram.write_energy=40pJ/B", "l2.read_energy=1.2pJ/B",
       "l2.write_energy=1.2pJ/B", "scratchpad.read_energy=1.2pJ/B", "scratchpad.write_energy=1.2pJ/B",
       "accumulator.read_energy=1.2pJ/B", "accumulator.write_energy=1.2pJ/B", "array.mac_energy=0.2pJ",
       "array.register_file_energy=0.2pJ/B", "noc.energy=0.4pJ/B"});
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  const Problem p = dataflows::nest::gemmProblem(1, 2048, 4096, 4096);
  dataflows::nest::SearchOptions so;
  so.cost.mac_rate = acc.array.macRate(p.input_dtype);
  const auto ws = dataflows::loadDataflow("ws");
  const auto fastest = dataflows::nest::search(p, hw, ws.nest, so);
  so.tolerance = 0.10;
  const auto cheaper = dataflows::nest::search(p, hw, ws.nest, so);
  ASSERT_TRUE(fastest.ok && cheaper.ok);
  EXPECT_LE(cheaper.cost.energy, fastest.cost.energy);
  EXPECT_LE(cheaper.cost.cycles, fastest.cost.cycles * 1.10);
  EXPECT_LT(cheaper.cost.dramBytes(), fastest.cost.dramBytes());
}

// A 112x112x96 stride-2 depthwise layer (pad 1: 56x56 outputs, 3x3 taps) on the ShiDianNao-like
// 8x8 output-stationary mesh. OS puts only K on columns and a group has one output channel; the
// groups now go across the array, where the mesh feeds each PE its own channel. Its compulsory
// traffic is 112 x 112 x 96 x 2 B of input (2,408,448) + 96 x 9 x 2 B of weights (1,728) +
// 56 x 56 x 96 x 2 B of output (602,112) = 3,012,288 B, 376,536 cycles at 8 B/cycle; its 2,709,504
// MACs take 42,336 cycles on 64 PEs. The search must move the input once (each halo column it
// re-reads would add 56 x 96 x 2 B) and stay within 1% of the memory bound.
TEST(NestSearch, DepthwiseGroupsGoAcrossASpatialArray) {
  const arch::Accelerator acc = shipped("shidiannao-like");
  const Hardware hw = dataflows::nest::hardwareOf(acc);
  models::WorkloadOptions wo;
  wo.dtype = DType::Int16;  // the mesh's 16-bit PEs
  models::Graph g = models::build("conv:H=112,W=112,C=96,K=96,R=3,S=3,stride=2,pad=1,groups=96", wo);
  dataflows::PlanOptions o;
  o.mapper = "search";
  const auto plans = dataflows::plan(g, acc, dataflows::loadDataflow("os"), o);
  ASSERT_EQ(plans.size(), 1u);
  const auto& m = plans[0].mapping;
  ASSERT_TRUE(m.has_nest);
  EXPECT_GT(m.nest.spatial(Dim::G), 1) << m.nest.brief(m.loops, hw);
  CostOptions co = costOptions(plans[0], acc, hw);
  const auto c = evaluate(m.loops, m.nest, hw, co);
  EXPECT_EQ(c.dramBytes(), 3012288);
  EXPECT_LE(c.cycles, 376536 * 1.01);
}

// More memory never makes the search's answer worse: with the whole space searched, a larger
// buffer (or register file) only adds tilings, so the score the search minimizes never rises,
// and latency never rises by more than the near-tie share score() trades for energy (a few
// hundredths of a percent). Small GEMMs and convolutions on systolic and spatial arrays.
TEST(NestSearch, MoreCapacityIsNeverWorseOnTheWholeSpace) {
  const auto ws = dataflows::loadDataflow("ws");
  const auto os = dataflows::loadDataflow("os");
  Problem conv;
  conv.extent[at(Dim::K)] = 3;
  conv.extent[at(Dim::C)] = 2;
  conv.extent[at(Dim::P)] = 4;
  conv.extent[at(Dim::R)] = 3;
  for (const Problem& p : {dataflows::nest::gemmProblem(1, 8, 6, 4), dataflows::nest::gemmProblem(1, 5, 7, 3), conv}) {
    for (bool systolic : {true, false}) {
      double last_score = INFINITY, last_cycles = INFINITY;
      for (double buffer : {40.0, 64.0, 96.0, 160.0, 1024.0}) {
        Hardware hw = tinyNest(2, 2, systolic, buffer, systolic ? 0 : 8);
        hw.levels[0].bandwidth = {4, 4, 4};
        hw.offchip_bandwidth = 4;
        hw.offchip_latency = 10;
        dataflows::nest::SearchOptions so;
        so.budget = 0;
        so.threads = 1;
        const auto r = dataflows::nest::search(p, hw, (systolic ? ws : os).nest, so);
        if (!r.ok) continue;  // nothing fits yet
        const double sc = score(r.cost, so.objective);
        EXPECT_LE(sc, last_score * (1 + 1e-12)) << p.describe() << " buffer " << buffer;
        EXPECT_LE(r.cost.cycles, last_cycles * (1 + 1e-3)) << p.describe() << " buffer " << buffer;
        last_score = sc;
        last_cycles = r.cost.cycles;
      }
      EXPECT_TRUE(std::isfinite(last_score)) << p.describe();
    }
  }
}

}  // namespace
}  // namespace tessel
