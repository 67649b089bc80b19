// A StepCost of closed form for the scheduler's tests: an iteration takes
// fixed + per_token x (new tokens) + per_key x (keys read by every sequence) seconds, and
// every batch it was asked about is kept; and a scheduler roomy enough not to limit them.
#pragma once

#include <vector>

#include "serve/llm/scheduler.h"
#include "serve/llm/step_cost.h"

namespace tessel::serve::llm::testing {

class LinearCost final : public StepCost {
 public:
  double fixed = 1e-3, per_token = 1e-5, per_key = 1e-7;
  std::vector<std::vector<SeqStep>> batches;

  double secondsOf(const std::vector<SeqStep>& batch) const {
    double t = fixed;
    for (const SeqStep& s : batch) {
      t += per_token * static_cast<double>(s.fresh) +
           per_key * static_cast<double>(s.past + s.fresh);
    }
    return t;
  }
  StepTime of(const std::vector<SeqStep>& batch) override {
    batches.push_back(batch);
    return {secondsOf(batch), 0};
  }
};

// 64 sequences and 4096 tokens an iteration, 100,000 KV blocks of 16 tokens: tests tighten
// the one limit they are about.
inline SchedulerConfig roomy() {
  SchedulerConfig c;
  c.max_batch = 64;
  c.max_tokens = 4096;
  c.chunk = 4096;
  c.kv_block = 16;
  c.kv_blocks = 100000;
  return c;
}

}  // namespace tessel::serve::llm::testing
