// The request stream of an LLM serving simulation: who arrives when, with how many prompt and
// output tokens. Synthetic streams come from command-line distributions and a seed (the same
// numbers on every platform: a splitmix64 generator, no std:: distributions); recorded streams
// come from a CSV or JSONL trace. Bad input throws ConfigError naming the option or the file,
// line and column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "util/error.h"

namespace tessel::serve::llm {

// A length distribution given on the command line: "512" (fixed), "uniform:128:1024" (integers,
// both ends included), "lognormal:MEAN:CV" (mean and coefficient of variation of the lognormal,
// rounded to the nearest integer, at least 1; CV 0 is fixed at round(MEAN)).
struct LengthDist {
  enum class Kind { Fixed, Uniform, Lognormal } kind = Kind::Fixed;
  double a = 0, b = 0;  // Fixed: a; Uniform: lo, hi; Lognormal: mean, cv
  std::string text;     // as the user wrote it, for summaries
};

// `option` (e.g. "--prompt-len") names the source in errors. Lengths are at most 1e9 tokens.
LengthDist parseLengthDist(const std::string& text, const std::string& option);

// Arrival process: "poisson", "uniform" (evenly spaced), "gamma:CV" (gamma-distributed gaps of
// mean 1/rate and coefficient of variation CV > 0; CV > 1 is bursty), or the path of an
// existing trace file (anything else).
struct ArrivalSpec {
  enum class Kind { Poisson, Uniform, Gamma, Trace } kind = Kind::Poisson;
  double cv = 1;     // Gamma only
  std::string path;  // Trace only
  std::string text;  // as the user wrote it
};

// Errors name "--arrivals".
ArrivalSpec parseArrivals(const std::string& text);

struct Request {
  int64_t id = 0;
  double arrival = 0;  // seconds
  int64_t prompt = 0;  // tokens
  int64_t output = 0;  // tokens
  // A shared prompt prefix: requests with the same prefix_id (> 0) have the same first
  // prefix_tokens prompt tokens (two of one id with different counts share the fewer). A trace's
  // prefix_id strings are numbered 1, 2, ... in order of first appearance; 0 = no prefix.
  int64_t prefix_id = 0;
  int64_t prefix_tokens = 0;  // 0..prompt
  // Where a trace's request was written (the file shared by all its requests; null for a
  // synthetic stream), so a check made after reading still cites file:line:column.
  std::shared_ptr<const std::string> file = nullptr;
  int line = 0, column = 0;  // its line, and the column of its prompt length

  bool fromFile() const { return file != nullptr; }
  // file:line:column at `field` ("prompt_tokens"); requires fromFile().
  SourceLocation where(const std::string& field) const { return {*file, line, column, field}; }
};

// A trace: CSV with a header naming the columns arrival (or arrival_time, timestamp; seconds),
// prompt_tokens (or prompt, input_tokens) and output_tokens (or output, completion_tokens) in
// any order, other columns ignored; or JSONL (a name ending in .jsonl, or a first non-blank
// character '{') with the same keys on every line. Two more columns (keys), prefix_id and
// prefix_tokens, give a request's shared prefix (Request::prefix_id): both or neither; an empty
// prefix_id is no prefix, and prefix_tokens is a whole number 0..prompt_tokens. Arrival times
// are kept as written (not shifted to start at 0) and must not decrease (unless `sorted` is
// false: a measured run's table, serve/llm/measured.h, sorts its own). Ids are 0..n-1 in file
// order.
std::vector<Request> readTrace(const std::string& path, bool sorted = true);

struct StreamSpec {
  ArrivalSpec arrivals;
  double rate = 0;  // requests/s; ignored for traces
  int64_t requests = 1000;
  bool requests_given = false;  // for a trace: keep only the first `requests` when set
  LengthDist prompt, output;    // ignored for traces
  uint64_t seed = 1;
  // Requests given whole, in arrival order with ids 0..n-1 (a stage of a measured run): when
  // not empty, generate returns them and the rest of the spec is ignored.
  std::vector<Request> recorded;
};

// Requests in arrival order, ids 0..n-1. Synthetic streams start at 0 and are a function of the
// seed alone, with separate streams for gaps, prompt and output lengths (changing the output
// distribution leaves arrivals and prompts as they were).
std::vector<Request> generate(const StreamSpec& spec);

// Every request's prompt + output must fit the model's `max_positions` (<= 0: no limit).
// `source` says where the lengths came from: an option such as "--prompt-len" (or "" for it),
// or a trace path, reported as the file.
void checkContext(const std::vector<Request>& reqs, int64_t max_positions, const std::string& model,
                  const std::string& source);

// Service-level objectives in seconds; 0 means none.
struct Slo {
  double ttft = 0;  // time to first token
  double tpot = 0;  // time per output token after the first
  double e2e = 0;   // whole request
  bool any() const { return ttft > 0 || tpot > 0 || e2e > 0; }
};

// "--slo ttft=0.5,tpot=50ms": keys ttft, tpot, e2e; values in s (plain numbers), ms, us.
Slo parseSlo(const std::string& text);

// A host overhead of `option` ("--step-overhead"): a time as --slo takes them ("3ms", "25us",
// plain seconds), 0 or more.
double parseOverhead(const std::string& text, const std::string& option);

}  // namespace tessel::serve::llm
