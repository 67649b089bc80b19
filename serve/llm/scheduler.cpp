#include "serve/llm/scheduler.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "serve/llm/prefix_cache.h"
#include "util/error.h"

namespace tessel::serve::llm {

std::string nameOf(Priority p) {
  return p == Priority::DecodeFirst ? "decode-first" : "prefill-first";
}
std::string nameOf(Preemption p) { return p == Preemption::Recompute ? "recompute" : "swap"; }

namespace {

struct Seq {
  int64_t prompt_total = 0;  // tokens to prefill (the prompt, plus generated ones on recompute)
  int64_t prefilled = 0;
  int64_t cached = 0;        // tokens in the KV cache
  int64_t generated = 0;
  int64_t blocks = 0;
  int64_t prefix = 0;           // its prefix id; 0: none, or no caching
  int64_t prefix_blocks = 0;    // its prefix's full blocks: those the cache may share
  int64_t next_block = 0;       // the next of them to cache once computed
  std::vector<int64_t> shared;  // prefix blocks it holds through the cache, in order
  bool started = false;
  bool running = false;    // in the running list
  bool scheduled = false;  // in the iteration being composed
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

class Loop {
 public:
  Loop(const std::vector<Request>& reqs, const SchedulerConfig& c, StepCost& cost)
      : reqs_(reqs), c_(c), cost_(cost), seqs_(reqs.size()), cache_(c.kv_blocks) {
    out_.requests.resize(reqs.size());
    const bool caching = c.prefix_caching && c.window == 0 && !c.arrive_prefilled;
    for (size_t i = 0; i < reqs.size(); ++i) {
      const Request& r = reqs[i];
      out_.requests[i] = {r.id, r.prompt, r.output, r.arrival, 0, 0, 0, 0};
      seqs_[i].prompt_total = r.prompt;
      if (r.prefix_id > 0) ++out_.prefix_requests;
      if (caching && r.prefix_id > 0) {
        seqs_[i].prefix = r.prefix_id;
        seqs_[i].prefix_blocks = r.prefix_tokens / c.kv_block;
      }
      if (c.arrive_prefilled) {
        seqs_[i].prefilled = seqs_[i].cached = r.prompt;
        seqs_[i].generated = 1;
        seqs_[i].started = true;
        out_.requests[i].admitted = out_.requests[i].first_token = r.arrival;
      }
    }
  }

  RunResult run() {
    size_t next = 0, done = 0;
    double t = 0;
    while (done < reqs_.size()) {
      while (next < reqs_.size() && reqs_[next].arrival <= t) {
        waiting_.push_back(next++);
        events_.push_back({reqs_[next - 1].arrival, +1, +1});
      }
      Batch b = compose(t);
      if (b.steps.empty()) {
        if (next >= reqs_.size()) throw Error("llm scheduler: nothing can run and nothing arrives");
        t = std::max(t, reqs_[next].arrival);
        continue;
      }
      out_.kv_peak_blocks = std::max(out_.kv_peak_blocks, cache_.inUse());
      kv_.push_back({t, cache_.inUse()});
      const StepTime st = cost_.of(b.steps);
      const double host =
          c_.step_overhead_s + c_.sequence_overhead_s * static_cast<double>(b.steps.size());
      const double end = t + b.swap_seconds + st.seconds + host;
      out_.busy_seconds += end - t;
      out_.swap_seconds += b.swap_seconds;
      out_.dynamic_energy_j += st.energy_j;
      out_.macs += st.macs;
      ++out_.iterations;
      batch_sum_ += static_cast<double>(b.steps.size());
      for (const SeqStep& s : b.steps) tokens_sum_ += static_cast<double>(s.fresh);
      done += finish(b, end);
      kv_.push_back({end, cache_.inUse()});
      t = end;
    }
    summarize();
    return std::move(out_);
  }

 private:
  struct Batch {
    std::vector<SeqStep> steps;
    std::vector<size_t> who;
    double swap_seconds = 0;
  };
  struct Event {
    double t;
    int in_system, waiting;  // changes
  };

  double blockSeconds(int64_t blocks) const {
    return c_.swap_bytes_per_s > 0 ? static_cast<double>(blocks * c_.kv_block) *
                                         c_.kv_bytes_per_token / c_.swap_bytes_per_s
                                   : 0.0;
  }

  bool inDecode(size_t i) const { return seqs_[i].prefilled == seqs_[i].prompt_total; }

  // Blocks that hold `tokens` tokens of one sequence (a sliding window keeps only its last ones).
  int64_t blocksFor(int64_t tokens) const {
    return ceilDiv(c_.window > 0 ? std::min(tokens, c_.window) : tokens, c_.kv_block);
  }

  // Frees the most recently admitted running sequence other than `keep` (or `keep` itself when
  // it is the only one). Returns false when nothing could be freed.
  bool preempt(size_t keep, Batch& b, double t) {
    size_t victim = keep;
    for (auto it = running_.rbegin(); it != running_.rend(); ++it) {
      if (*it != keep && !seqs_[*it].scheduled) {
        victim = *it;
        break;
      }
    }
    Seq& s = seqs_[victim];
    if (s.blocks == 0) return false;
    ++out_.requests[victim].preemptions;
    ++out_.preemptions;
    leave(victim);
    release(s);
    if (c_.preemption == Preemption::Swap) {
      b.swap_seconds += blockSeconds(s.blocks);
      swapped_.push_front(victim);  // keeps its blocks' count to bring back
    } else {
      s.blocks = 0;
      s.cached = 0;
      s.prefilled = 0;
      s.next_block = 0;
      s.prompt_total = reqs_[victim].prompt + s.generated;
      waiting_.push_front(victim);
      events_.push_back({t, 0, +1});
    }
    return true;
  }

  // Gives back a sequence's blocks: its prefix blocks to the cache, last first (so a prefix's tail
  // is evicted before its head, as vLLM releases them), the others free.
  void release(Seq& s) {
    for (auto k = s.shared.rbegin(); k != s.shared.rend(); ++k) cache_.release(s.prefix, *k);
    cache_.free(s.blocks - static_cast<int64_t>(s.shared.size()));
    s.shared.clear();
  }

  // Caches the sequence's prefix blocks that its first `computed` tokens fill.
  void cacheComputed(Seq& s, int64_t computed) {
    const int64_t full = std::min(s.prefix_blocks, computed / c_.kv_block);
    for (; s.next_block < full; ++s.next_block) {
      if (cache_.insert(s.prefix, s.next_block)) s.shared.push_back(s.next_block);
    }
  }

  void join(size_t i) {
    running_.push_back(i);
    seqs_[i].running = true;
  }
  void leave(size_t i) {
    running_.erase(std::find(running_.begin(), running_.end(), i));
    seqs_[i].running = false;
  }
  void schedule(Batch& b, size_t i, SeqStep step) {
    b.steps.push_back(step);
    b.who.push_back(i);
    seqs_[i].scheduled = true;
  }

  void addDecodes(Batch& b, int64_t& budget, double t) {
    // Preemption removes sequences from the list: walk a copy only once one happened.
    std::vector<size_t> order;
    for (size_t k = 0; k < (order.empty() ? running_.size() : order.size()); ++k) {
      if (budget == 0 || static_cast<int64_t>(b.steps.size()) >= c_.max_batch) return;
      const size_t i = order.empty() ? running_[k] : order[k];
      if (!inDecode(i) || !seqs_[i].running) continue;
      Seq& s = seqs_[i];
      const int64_t need = blocksFor(s.cached + 1) - s.blocks;
      if (need > cache_.available() && order.empty()) order = running_;
      while (need > cache_.available() && s.running && preempt(i, b, t)) {
      }
      if (!s.running || need > cache_.available()) continue;
      cache_.allocate(need);
      s.blocks += need;
      schedule(b, i, {s.cached, 1, true});
      --budget;
    }
  }

  void addChunk(Batch& b, int64_t& budget, size_t i) {
    Seq& s = seqs_[i];
    const int64_t piece = std::min({s.prompt_total - s.prefilled, c_.chunk, budget});
    schedule(b, i, {s.cached, piece, s.prefilled + piece == s.prompt_total});
    budget -= piece;
    cacheComputed(s, s.prefilled + piece);
  }

  void addPrefills(Batch& b, int64_t& budget, double t) {
    for (size_t i : running_) {  // prompts already started
      if (budget == 0 || static_cast<int64_t>(b.steps.size()) >= c_.max_batch) return;
      if (!inDecode(i)) addChunk(b, budget, i);
    }
    if (!swapped_.empty()) return;  // the swapped come back before anyone new
    while (!waiting_.empty() && budget > 0 && static_cast<int64_t>(b.steps.size()) < c_.max_batch &&
           static_cast<int64_t>(running_.size()) < c_.max_batch) {
      const size_t i = waiting_.front();
      Seq& s = seqs_[i];
      // A prefilled arrival (disaggregated decode side) needs its cache and its next token;
      // any other request its whole prompt.
      const bool prefilled = inDecode(i);
      const int64_t need = blocksFor(prefilled ? s.cached + 1 : s.prompt_total);
      // Cached blocks of its prefix, short of its last prompt token; evictable ones it takes out
      // of the pool, new blocks come from the rest.
      const PrefixCache::Hit hit =
          prefilled ? PrefixCache::Hit{}
                    : cache_.lookup(s.prefix,
                                    std::min(s.prefix_blocks, (s.prompt_total - 1) / c_.kv_block));
      if (need - hit.blocks + hit.evictable > cache_.available()) return;
      waiting_.pop_front();
      events_.push_back({t, 0, -1});
      cache_.acquire(s.prefix, hit.blocks);
      cache_.allocate(need - hit.blocks);
      s.blocks = need;
      join(i);
      if (prefilled) {
        schedule(b, i, {s.cached, 1, true});
        --budget;
        continue;
      }
      for (int64_t k = 0; k < hit.blocks; ++k) s.shared.push_back(k);
      s.next_block = hit.blocks;
      s.prefilled = s.cached = hit.blocks * c_.kv_block;
      if (!s.started) {
        out_.requests[i].admitted = t;
        out_.requests[i].reused = s.prefilled;
        out_.prefix_reused_tokens += s.prefilled;
      }
      s.started = true;
      addChunk(b, budget, i);
    }
  }

  // Brings swapped sequences back while their blocks fit, oldest swap first.
  void swapIn(Batch& b) {
    while (!swapped_.empty() && static_cast<int64_t>(running_.size()) < c_.max_batch) {
      const size_t i = swapped_.front();
      if (seqs_[i].blocks > cache_.available()) return;
      cache_.allocate(seqs_[i].blocks);
      b.swap_seconds += blockSeconds(seqs_[i].blocks);
      swapped_.pop_front();
      join(i);
    }
  }

  Batch compose(double t) {
    Batch b;
    int64_t budget = c_.max_tokens;
    swapIn(b);
    if (c_.priority == Priority::DecodeFirst) {
      addDecodes(b, budget, t);
      addPrefills(b, budget, t);
    } else {
      addPrefills(b, budget, t);
      if (b.steps.empty()) addDecodes(b, budget, t);
    }
    return b;
  }

  // Applies the iteration's progress at its end; returns the requests it finished.
  size_t finish(const Batch& b, double end) {
    size_t finished = 0;
    for (size_t k = 0; k < b.who.size(); ++k) {
      const size_t i = b.who[k];
      Seq& s = seqs_[i];
      RequestRecord& rec = out_.requests[i];
      s.scheduled = false;
      s.cached += b.steps[k].fresh;
      if (!inDecode(i)) s.prefilled += b.steps[k].fresh;  // a chunk, not a decode step
      if (!b.steps[k].emits) continue;
      if (s.generated == 0) rec.first_token = end;
      ++s.generated;
      if (s.generated < reqs_[i].output) continue;
      rec.finish = end;
      release(s);
      s.blocks = 0;
      leave(i);
      events_.push_back({end, -1, 0});
      ++finished;
    }
    return finished;
  }

  void summarize() {
    double first = reqs_.front().arrival, last = 0;
    for (const RequestRecord& r : out_.requests) last = std::max(last, r.finish);
    const double span = last - first;
    std::stable_sort(events_.begin(), events_.end(),
                     [](const Event& a, const Event& b) { return a.t < b.t; });
    double area_sys = 0, area_wait = 0, prev = first;
    int sys = 0, wait = 0;
    for (const Event& e : events_) {
      area_sys += sys * (e.t - prev);
      area_wait += wait * (e.t - prev);
      prev = e.t;
      sys += e.in_system;
      wait += e.waiting;
    }
    out_.mean_in_system = span > 0 ? area_sys / span : 0;
    out_.mean_waiting = span > 0 ? area_wait / span : 0;
    const double n = static_cast<double>(std::max<int64_t>(1, out_.iterations));
    out_.mean_batch = batch_sum_ / n;
    out_.mean_tokens = tokens_sum_ / n;
    double prompts = 0;
    for (const Request& r : reqs_) prompts += static_cast<double>(r.prompt);
    out_.prefix_reused_fraction = static_cast<double>(out_.prefix_reused_tokens) / prompts;
    out_.kv = sampleKv(kv_, first, last);
    out_.kv_log = std::move(kv_);
  }

  const std::vector<Request>& reqs_;
  SchedulerConfig c_;
  StepCost& cost_;
  std::vector<Seq> seqs_;
  PrefixCache cache_;
  std::deque<size_t> waiting_, swapped_;
  std::vector<size_t> running_;
  std::vector<Event> events_;
  std::vector<KvSample> kv_;
  double batch_sum_ = 0, tokens_sum_ = 0;
  RunResult out_;
};

}  // namespace

std::vector<KvSample> sampleKv(const std::vector<KvSample>& log, double first, double last,
                               int samples) {
  std::vector<KvSample> out;
  const double span = last - first;
  size_t k = 0;
  int64_t now = 0;
  for (int s = 0; s < samples && span > 0; ++s) {
    const double at = first + span * s / (samples - 1);
    while (k < log.size() && log[k].t <= at) now = log[k++].blocks;
    out.push_back({at, now});
  }
  return out;
}

namespace {

void check(const std::vector<Request>& reqs, const SchedulerConfig& c) {
  auto positive = [](int64_t v, const char* option) {
    if (v < 1) throw ConfigError({"", 0, 0, option}, std::string(option) + " must be at least 1");
  };
  positive(c.max_batch, "--max-batch");
  positive(c.max_tokens, "--max-tokens");
  positive(c.chunk, "--chunk");
  positive(c.kv_block, "--kv-block");
  auto time = [](double v, const char* option) {
    if (!(v >= 0) || !std::isfinite(v)) {
      throw ConfigError({"", 0, 0, option}, std::string(option) + " must be a time of 0 or more");
    }
  };
  time(c.step_overhead_s, "--step-overhead");
  time(c.sequence_overhead_s, "--sequence-overhead");
  if (c.kv_blocks < 1) {
    throw InfeasibleError("the KV cache holds no block of " + std::to_string(c.kv_block) +
                          " tokens: the weights and activations leave no memory for it");
  }
  if (reqs.empty()) throw ConfigError({"", 0, 0, "--requests"}, "no requests to serve");
  for (const Request& r : reqs) {
    if (r.prefix_tokens < 0 || r.prefix_tokens > r.prompt) {
      throw ConfigError(
          r.fromFile() ? SourceLocation{*r.file, r.line, 0, "prefix_tokens"} : SourceLocation{},
          "request " + std::to_string(r.id) + ": a prefix of " + std::to_string(r.prefix_tokens) +
              " tokens, and its prompt has " + std::to_string(r.prompt));
    }
    const int64_t tokens = r.prompt + r.output - 1;
    const int64_t need =
        ceilDiv(c.window > 0 ? std::min(tokens, c.window) : tokens, c.kv_block);
    if (need > c.kv_blocks) {
      const std::string at = r.fromFile() ? r.where("").str() + ": " : "";
      throw InfeasibleError(at + "request " + std::to_string(r.id) + " needs " +
                            std::to_string(need) + " KV blocks (prompt " +
                            std::to_string(r.prompt) + " + output " + std::to_string(r.output) +
                            " tokens) and the cache holds " + std::to_string(c.kv_blocks));
    }
  }
}

}  // namespace

RunResult simulate(const std::vector<Request>& requests, const SchedulerConfig& config,
                   StepCost& cost) {
  check(requests, config);
  return Loop(requests, config, cost).run();
}

}  // namespace tessel::serve::llm
