#include "serve/llm/step_cost.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <thread>
#include <string>
#include <utility>

#include "util/error.h"

namespace tessel::serve::llm {
namespace {

enum class Part { Tokens, Block0, Head, Attention };

Part partOf(const std::string& op) {
  if (op.rfind("lm_head", 0) == 0) return Part::Head;
  for (const char* a : {".attn.score", ".attn.softmax", ".attn.context"}) {
    if (op.find(a) != std::string::npos) return Part::Attention;
  }
  return op.rfind("layers.0.", 0) == 0 ? Part::Block0 : Part::Tokens;
}

StepTime operator+(StepTime a, const StepTime& b) {
  return {a.seconds + b.seconds, a.energy_j + b.energy_j, a.macs + b.macs,
          a.weight_bytes + b.weight_bytes};
}
StepTime operator*(double w, const StepTime& a) {
  return {w * a.seconds, w * a.energy_j, w * a.macs, w * a.weight_bytes};
}

StepTime lerp(const StepTime& lo, const StepTime& hi, double f) {
  return (1 - f) * lo + f * hi;
}

// Position of x between the bracket's points (0 when they coincide).
double fraction(double x, std::pair<int64_t, int64_t> b) {
  return b.second == b.first ? 0.0
                             : (x - static_cast<double>(b.first)) /
                                   static_cast<double>(b.second - b.first);
}

}  // namespace

std::pair<int64_t, int64_t> gridBracket(int64_t x, bool exact, Grid grid) {
  if (x < 1) throw Error("gridBracket: shape " + std::to_string(x) + " below 1");
  if (exact || x <= grid.every_upto) return {x, x};
  // per_octave points per doubling: from 2^k the step is 2^k / per_octave (at least 1).
  int k = 0;
  while ((int64_t{1} << (k + 1)) <= x) ++k;
  const int64_t step = std::max<int64_t>(1, (int64_t{1} << k) / grid.per_octave);
  const int64_t lo = x / step * step;
  return {lo, lo == x ? x : lo + step};
}

EngineStepCost::EngineStepCost(EngineCostInputs in) : in_(std::move(in)) {
  if (!in_.acc || !in_.dataflow || !in_.build) throw Error("EngineStepCost: missing inputs");
  if (in_.kv_block < 1) throw Error("EngineStepCost: kv_block below 1");
  unbounded_ = *in_.acc;
  blocks_ = in_.blocks;
  if (!unbounded_.levels.empty()) unbounded_.levels.front().capacity_bytes = 0;
  if (!in_.run.plan.mapper_instance) {
    in_.run.plan.mapper_instance = dataflows::makeMapper(in_.run.plan.mapper,
                                                         in_.run.plan.mapper_options);
  }
}

int64_t EngineStepCost::paddedKeys(int64_t keys) const {
  // A sliding window's rolling cache holds (and attention reads) its last `window` keys.
  const int64_t held = in_.window > 0 ? std::min(keys, in_.window) : keys;
  int64_t padded = (held + in_.kv_block - 1) / in_.kv_block * in_.kv_block;
  if (in_.context > 0) padded = std::min(padded, std::max(held, in_.context));
  return in_.window > 0 ? std::min(padded, in_.window) : padded;
}

models::Graph EngineStepCost::buildStep(const models::WorkloadOptions& o) const {
  try {
    return in_.build(o);
  } catch (const ConfigError& e) {
    // The step's shape is the service's, not options the user gave the model: say so.
    if (!e.where().file.empty() || e.where().yaml_path.rfind("--", 0) != 0) throw;
    throw ConfigError({"", 0, 0, ""},
                      "a serving step of " + std::to_string(o.batch) + " sequence(s) at " +
                          std::to_string(o.seq) + " cached token(s), derived from the requests' "
                          "lengths, --max-tokens, --chunk and --kv-block " +
                          std::to_string(in_.kv_block) + " (not from " + e.where().yaml_path +
                          "): " + e.message());
  }
}

EngineStepCost::Simulated EngineStepCost::simulate(const Key& key) const {
  const auto add = [](Parts& p, const std::string& op, const StepTime& t) {
    switch (partOf(op)) {
      case Part::Tokens: p.tokens = p.tokens + t; break;
      case Part::Block0: p.block0 = p.block0 + t; break;
      case Part::Head: p.head = p.head + t; break;
      case Part::Attention: p.attention = p.attention + t; break;
    }
  };
  const auto& [batch, seq, decode, fresh, layers] = key;
  models::WorkloadOptions o = in_.base;
  o.batch = batch;
  o.seq = seq;
  o.phase = decode ? "decode" : "prefill";
  o.new_tokens = decode ? fresh : 0;  // >= 1: a serving step, whose cache may be empty
  o.given.clear();
  o.layers = layers;
  const models::Graph g = buildStep(o);
  const sim::RunStats r = sim::simulate(g, unbounded_, *in_.dataflow, in_.run);
  Simulated out;
  out.leakage_w = r.leakageMw() * 1e-3;
  out.peak_macs_per_s = r.peak_macs_per_cycle * r.clock_hz;
  Parts& p = out.parts;
  for (const sim::OpStats& op : r.ops) {
    const double weights =
        op.traffic.empty() ? 0.0
                           : static_cast<double>(op.traffic.front().read_bytes[static_cast<int>(
                                 sim::Operand::Weight)]);
    const StepTime t{op.cycles / r.clock_hz, op.energyTotal() * 1e-12,
                     static_cast<double>(op.macs), weights};
    add(p, op.name, t);
  }
  if (in_.chips > 1) {
    out.leakage_w *= static_cast<double>(in_.chips);
    for (StepTime* t : {&p.tokens, &p.block0, &p.head, &p.attention}) t->energy_j *= static_cast<double>(in_.chips);
  }
  if (!in_.collective) return out;
  std::map<std::tuple<std::string, std::string, int64_t>, CollectiveTime> seen;  // per layer alike
  for (const models::Communication& c : g.communication) {
    const auto key = std::make_tuple(c.op, c.group, c.bytes);
    auto it = seen.find(key);
    if (it == seen.end()) it = seen.emplace(key, in_.collective(c)).first;
    add(p, g.op(c.after).name, StepTime{it->second.seconds, it->second.energy_j, 0, 0});
  }
  return out;
}

void EngineStepCost::prepare(std::vector<Key> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  keys.erase(std::remove_if(keys.begin(), keys.end(),
                            [&](const Key& k) { return parts_.count(k) > 0; }),
             keys.end());
  if (keys.empty()) return;
  // Each shape's simulation is deterministic and independent (the shared mapper guards its
  // memory), so they run side by side and the results do not depend on the thread count.
  std::vector<Simulated> results(keys.size());
  std::vector<std::exception_ptr> errors(keys.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < keys.size(); i = next++) {
      try {
        results[i] = simulate(keys[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const size_t threads = std::min<size_t>(
      keys.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (size_t i = 0; i < keys.size(); ++i) {
    if (errors[i]) std::rethrow_exception(errors[i]);
    leakage_w_ = results[i].leakage_w;
    peak_macs_per_s_ = results[i].peak_macs_per_s;
    parts_.emplace(keys[i], results[i].parts);
  }
}

const EngineStepCost::Parts& EngineStepCost::simulated(int64_t batch, int64_t seq, bool decode,
                                                       int64_t fresh, int64_t layers) {
  const Key key{batch, seq, decode, fresh, layers};
  prepare({key});
  return parts_.at(key);
}

EngineStepCost::Key EngineStepCost::tokensKey(int64_t t) const {
  return {t, 0, true, 1, in_.uniform_blocks ? 1 : 0};
}

StepTime EngineStepCost::tokensAt(int64_t t) {
  if (!in_.uniform_blocks) {
    const Parts& p = simulated(t, 0, true, 1);
    return p.tokens + p.block0;
  }
  // Identical blocks cost the same (an op's cost is a function of its shape): the ops outside
  // the blocks (embedding, final norm) plus block 0's token ops times the blocks.
  const Parts& p = simulated(t, 0, true, 1, 1);
  return p.tokens + static_cast<double>(blocks_) * p.block0;
}

StepTime EngineStepCost::tokens(int64_t t) {
  const auto b = gridBracket(t, in_.exact, kTokenGrid);
  prepare({tokensKey(b.first), tokensKey(b.second)});
  return lerp(tokensAt(b.first), tokensAt(b.second), fraction(static_cast<double>(t), b));
}

StepTime EngineStepCost::head(int64_t rows) {
  if (rows == 0) return {};
  const auto b = gridBracket(rows, in_.exact, kTokenGrid);
  const int64_t layers = in_.uniform_blocks ? 1 : 0;
  prepare({tokensKey(b.first), tokensKey(b.second)});
  return lerp(simulated(b.first, 0, true, 1, layers).head,
              simulated(b.second, 0, true, 1, layers).head,
              fraction(static_cast<double>(rows), b));
}

StepTime EngineStepCost::attentionAt(int64_t count, int64_t fresh, int64_t keys) {
  // Every block's attention has the same shapes, and an op's cost is a function of its shape:
  // block 0's, times the blocks.
  const StepTime one = simulated(count, keys - fresh, true, fresh, 1).attention;
  return static_cast<double>(blocks_) * one;
}

StepTime EngineStepCost::attention(double count, int64_t fresh, double keys) {
  // Bilinear on (sequences, keys) for decode steps, on (chunk tokens, keys) for a chunk; the
  // key grid starts at the chunk's own length (a chunk attends at least to itself).
  const int64_t c = static_cast<int64_t>(std::ceil(count - 1e-9));
  const bool decode = fresh == 1;
  const Grid grid = decode ? kAttentionGrid : kChunkGrid;
  const auto bc = gridBracket(decode ? c : fresh, in_.exact, grid);
  const int64_t k = static_cast<int64_t>(std::ceil(keys - 1e-9));
  auto at = [&](int64_t first, int64_t kk) {
    return decode ? attentionAt(first, 1, kk) : attentionAt(1, first, std::max(kk, first));
  };
  const double fc = fraction(decode ? count : static_cast<double>(fresh), bc);
  const auto bk = gridBracket(k, in_.exact, grid);
  const double fk = fraction(in_.exact ? static_cast<double>(k) : keys, bk);
  std::vector<Key> corners;
  for (int64_t first : {bc.first, bc.second}) {
    for (int64_t kk : {bk.first, bk.second}) {
      const int64_t count_at = decode ? first : 1, fresh_at = decode ? 1 : first;
      const int64_t keys_at = decode ? kk : std::max(kk, first);
      corners.push_back({count_at, keys_at - fresh_at, true, fresh_at, 1});
    }
  }
  prepare(corners);
  auto row = [&](int64_t first) { return lerp(at(first, bk.first), at(first, bk.second), fk); };
  const StepTime lo = row(bc.first);
  return bc.second == bc.first ? lo : lerp(lo, row(bc.second), fc);
}

double EngineStepCost::weightBytesPerStep() {
  return (tokens(1) + head(1)).weight_bytes;
}

StepTime EngineStepCost::of(const std::vector<SeqStep>& batch) {
  int64_t tokens_total = 0, emits = 0, decodes = 0;
  double decode_keys = 0;
  StepTime chunks;
  for (const SeqStep& s : batch) {
    tokens_total += s.fresh;
    emits += s.emits ? 1 : 0;
    const int64_t keys = paddedKeys(s.past + s.fresh);
    if (s.fresh == 1) {
      ++decodes;
      decode_keys += static_cast<double>(keys);
    } else {
      chunks = chunks + attention(1, s.fresh, static_cast<double>(keys));
    }
  }
  if (tokens_total == 0) return {};
  StepTime t = tokens(tokens_total) + head(emits) + chunks;
  if (decodes > 0) {
    t = t + attention(static_cast<double>(decodes), 1, decode_keys / static_cast<double>(decodes));
  }
  return t;
}

}  // namespace tessel::serve::llm
