// What one iteration of an LLM service costs, from the engines. An iteration is one forward pass
// over the batch's new tokens: prefill chunks (many new tokens after those already cached) and
// decode steps (one new token each). Its time is the sum of three parts, because the engines'
// schedule runs a graph's ops one after another (sim/run.h):
// - the token ops: every op but attention and the LM head (norms, projections, RoPE, MLP or
//   experts, residual adds) on all T new tokens of the batch at once, as the decoder's step of
//   T sequences of one token each (the same GEMMs of T rows), so the weights are read once per
//   iteration for the whole batch;
// - the LM head on the E sequences that emit a token this iteration;
// - attention (score, softmax, context), where each sequence reads its own cache: the decode
//   steps as one batched op over the n decoding sequences, at the mean of their KV lengths (a
//   ragged paged-attention kernel does the work of n sequences of their mean length), and each
//   prefill chunk as its own op. KV lengths count whole KV blocks: a paged cache is read a
//   block at a time.
// Each part at a shape is timed by simulating the decoder at that shape (sim::simulate, every
// layer) with one mapper shared by all of them, so an op shape is mapped once per process.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "arch/accelerator.h"
#include "dataflows/dataflow.h"
#include "models/graph.h"
#include "models/workload.h"
#include "sim/run.h"

namespace tessel::serve::llm {

// One sequence's share of an iteration.
struct SeqStep {
  int64_t past = 0;   // tokens already in its KV cache
  int64_t fresh = 1;  // new tokens this iteration (1 = a decode step)
  bool emits = true;  // the iteration produces its next token (a decode, or a prompt's last chunk)
};

struct StepTime {
  double seconds = 0;
  double energy_j = 0;  // dynamic energy of the iteration's ops
  double macs = 0;
  double weight_bytes = 0;  // DRAM reads of the ops' second operands (weights; attention: K/V)
};

class StepCost {
 public:
  virtual ~StepCost() = default;
  virtual StepTime of(const std::vector<SeqStep>& batch) = 0;
  // Distinct shapes simulated so far (0 for costs that simulate nothing).
  virtual int64_t shapesEvaluated() const { return 0; }
};

// A collective a step's graph needs (a tensor-parallel split's), timed over the system's links:
// seconds, and the links' energy in joules.
struct CollectiveTime {
  double seconds = 0, energy_j = 0;
};

struct EngineCostInputs {
  // The decoder at WorkloadOptions (models::build with the workload's name).
  std::function<models::Graph(const models::WorkloadOptions&)> build;
  models::WorkloadOptions base;  // dtype, expert load... (seq, batch, phase are set per shape)
  const arch::Accelerator* acc = nullptr;  // the device one iteration runs on
  const dataflows::Dataflow* dataflow = nullptr;
  sim::RunOptions run;
  int64_t kv_block = 16;
  // false: each part is interpolated (linearly in T and E, bilinearly in (sequences or chunk
  // tokens, KV length)) between the points of kTokenGrid or kAttentionGrid. true: every shape
  // simulated.
  bool exact = false;
  int64_t blocks = 0;  // the decoder's transformer blocks (attention is block 0's times these)
  bool uniform_blocks = true;  // and so are its token ops
  int64_t window = 0;          // sliding-window attention reads at most this many keys
  int64_t context = 0;         // the model's positions: a padded KV length stops there (0: none)
  // A replica of several chips (the decoder built as one chip's share, base.tensor_parallel):
  // each collective of the step's graph is added to the part its op belongs to, and energy and
  // leakage count every chip. Empty / 1 on one chip.
  std::function<CollectiveTime(const models::Communication&)> collective;
  int64_t chips = 1;
};

// Grid points: every value up to every_upto, then per_octave points per doubling (from 2^k, a
// step of 2^k / per_octave).
struct Grid {
  int64_t every_upto = 16;
  int per_octave = 8;
};
// The token ops' cost bends where the weights stop hiding the compute: a finer grid (1..16,
// then 20, 24, 28, 32, 40, ...). Attention's work is a product (sequences or chunk tokens x KV
// length), which bilinear interpolation follows exactly: a coarse one (1, 2, 3, 4, 6, 8, 12...).
constexpr Grid kTokenGrid{16, 4};
constexpr Grid kAttentionGrid{2, 2};
// A prefill chunk's attention: one point per doubling of its tokens and of its keys.
constexpr Grid kChunkGrid{2, 1};

// The grid point at or below x and the one above it (equal when x is on the grid or exact).
std::pair<int64_t, int64_t> gridBracket(int64_t x, bool exact, Grid grid);

class EngineStepCost final : public StepCost {
 public:
  explicit EngineStepCost(EngineCostInputs in);
  StepTime of(const std::vector<SeqStep>& batch) override;
  int64_t shapesEvaluated() const override { return static_cast<int64_t>(parts_.size()); }

  // The three parts (at grid points, or interpolated), seconds and joules.
  StepTime tokens(int64_t t);
  StepTime head(int64_t rows);
  // `count` sequences, each with `fresh` new tokens attending over `keys` keys (whole blocks).
  StepTime attention(double count, int64_t fresh, double keys);
  int64_t paddedKeys(int64_t keys) const;
  // in_.build at a step's shape; a ConfigError blaming a model option names the serving options
  // the shape derives from instead.
  models::Graph buildStep(const models::WorkloadOptions& o) const;
  // The device's leakage power (every core), watts; known after the first simulation.
  double leakageW() const { return leakage_w_; }
  // Weight bytes one decode step alone reads from DRAM (its token ops and LM head): what reading
  // the weights costs each iteration, whatever the batch. A mixture of experts reads only the
  // experts its tokens are routed to.
  double weightBytesPerStep();
  // The device's peak MACs per second (every array); known after the first simulation.
  double peakMacsPerSecond() const { return peak_macs_per_s_; }

 private:
  struct Parts {
    StepTime tokens;  // the token ops outside block 0 (all of them when block 0 is apart)
    StepTime block0;  // block 0's token ops
    StepTime head, attention;
  };
  StepTime tokensAt(int64_t t);
  // (batch, seq, decode, new tokens, layers: the decoder's first blocks, 0 = all)
  using Key = std::tuple<int64_t, int64_t, bool, int64_t, int64_t>;
  struct Simulated {
    Parts parts;
    double leakage_w = 0, peak_macs_per_s = 0;
  };
  // The decoder simulated at `key`, split into its parts (no member changes: thread-safe).
  Simulated simulate(const Key& key) const;
  // Simulates the shapes not yet cached, side by side on the machine's cores.
  void prepare(std::vector<Key> keys);
  const Parts& simulated(int64_t batch, int64_t seq, bool decode, int64_t fresh,
                         int64_t layers = 0);
  Key tokensKey(int64_t t) const;
  StepTime attentionAt(int64_t count, int64_t fresh, int64_t keys);

  EngineCostInputs in_;
  arch::Accelerator unbounded_;  // the device with unbounded DRAM: the KV cache decides what fits
  std::map<Key, Parts> parts_;
  int64_t blocks_ = 0;
  double leakage_w_ = 0;
  double peak_macs_per_s_ = 0;
};

}  // namespace tessel::serve::llm
