// LLM serving arrival traces (`tessel serve --arrivals FILE`): the input, as a trace file (a
// per-process temp file: the reader takes a path), is read as `tessel serve` reads it and checked
// against the context of a small Llama (tests/serve/llm/data/tiny-llama.json); a short stream
// accepted is then scheduled with a fixed step cost. A finding is any exception but ConfigError /
// InfeasibleError, an accepted request with a length below 1 or over 1e9 tokens, a negative,
// non-finite or decreasing arrival time, or a scheduled request whose times are out of order.
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_one.h"
#include "fuzz/run_checks.h"
#include "models/workload.h"
#include "serve/llm/requests.h"
#include "serve/llm/scheduler.h"
#include "util/error.h"

namespace {

namespace L = tessel::serve::llm;
using tessel::fuzz::require;

// 1 ms an iteration plus 0.1 ms a new token: enough to order events.
class FixedCost : public L::StepCost {
 public:
  L::StepTime of(const std::vector<L::SeqStep>& batch) override {
    L::StepTime t;
    t.seconds = 1e-3;
    for (const L::SeqStep& s : batch) t.seconds += 1e-4 * static_cast<double>(s.fresh);
    return t;
  }
};

void checkStream(const std::vector<L::Request>& reqs) {
  require(!reqs.empty());
  for (size_t i = 0; i < reqs.size(); ++i) {
    const L::Request& r = reqs[i];
    require(r.id == static_cast<int64_t>(i) && r.fromFile() && r.line >= 1);
    require(r.prompt >= 1 && r.prompt <= 1000000000 && r.output >= 1 && r.output <= 1000000000);
    require(std::isfinite(r.arrival) && r.arrival >= 0);
    if (i > 0) require(r.arrival >= reqs[i - 1].arrival);
  }
}

// Short streams only (a fuzzer's input must run in moments): every request served, in order.
void schedule(const std::vector<L::Request>& reqs, int64_t context) {
  int64_t tokens = 0;
  for (const L::Request& r : reqs) tokens += r.output;
  if (reqs.size() > 64 || tokens > 4096) return;
  L::SchedulerConfig c;
  c.kv_blocks = 4 * context / c.kv_block;
  FixedCost cost;
  const L::RunResult run = L::simulate(reqs, c, cost);
  require(run.requests.size() == reqs.size());
  for (const L::RequestRecord& r : run.requests) {
    require(std::isfinite(r.finish) && r.arrival <= r.admitted && r.admitted <= r.first_token &&
            r.first_token <= r.finish);
  }
}

}  // namespace

int fuzzOne(const uint8_t* data, size_t size) {
  static const tessel::models::DecoderFacts facts = [] {
    tessel::models::DecoderFacts f;
    tessel::models::decoderFacts(
        std::string(TESSEL_SOURCE_DIR) + "/tests/serve/llm/data/tiny-llama.json", f);
    return f;
  }();
  static const std::string path = "/tmp/tessel_fuzz_trace_" + std::to_string(getpid()) + ".csv";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    L::StreamSpec spec;
    spec.arrivals = L::parseArrivals(path);
    const std::vector<L::Request> reqs = L::generate(spec);
    checkStream(reqs);
    L::checkContext(reqs, facts.max_positions, facts.model, path);
    for (const L::Request& r : reqs) require(r.prompt + r.output <= facts.max_positions);
    schedule(reqs, facts.max_positions);
  } catch (const tessel::ConfigError&) {
  } catch (const tessel::InfeasibleError&) {
  }
  return 0;
}
