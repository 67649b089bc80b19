// Synthetic request streams from a seed, and the context-length check.
#include <algorithm>
#include <cmath>

#include "serve/llm/requests.h"
#include "util/error.h"

namespace tessel::serve::llm {

namespace {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr double kTwoPi = 6.283185307179586;
constexpr int64_t kMaxRequests = 100'000'000;

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// splitmix64: a sequential stream, the same on every platform. Each purpose (gaps, prompt
// lengths, output lengths) gets its own stream, seeded from the user's seed and the purpose.
class Rng {
 public:
  Rng(uint64_t seed, uint64_t purpose) : state_(mix(mix(seed) + purpose * kGolden)) {}

  uint64_t next() { return mix(state_ += kGolden); }
  // Uniform in (0, 1]: safe under log.
  double open01() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }
  // Uniform integer in [lo, hi].
  int64_t between(int64_t lo, int64_t hi) {
    const double span = static_cast<double>(hi - lo + 1);
    const auto offset = static_cast<int64_t>(static_cast<double>(next() >> 11) * 0x1.0p-53 * span);
    return std::min(hi, lo + offset);
  }
  // Exponential with mean 1, by the inverse CDF.
  double exponential() { return -std::log(open01()); }
  // Standard normal, by Box-Muller (one of the pair).
  double normal() { return std::sqrt(-2 * std::log(open01())) * std::cos(kTwoPi * open01()); }
  // Gamma with scale 1: Marsaglia-Tsang, boosted by U^(1/shape) for shape < 1.
  double gamma(double shape) {
    if (shape < 1) return gamma(shape + 1) * std::pow(open01(), 1 / shape);
    const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
    while (true) {
      const double z = normal();
      const double v = std::pow(1 + c * z, 3);
      if (v <= 0) continue;
      if (std::log(open01()) < 0.5 * z * z + d - d * v + d * std::log(v)) return d * v;
    }
  }

 private:
  uint64_t state_;
};

int64_t drawLength(const LengthDist& dist, Rng& rng) {
  switch (dist.kind) {
    case LengthDist::Kind::Fixed:
      return static_cast<int64_t>(dist.a);
    case LengthDist::Kind::Uniform:
      return rng.between(static_cast<int64_t>(dist.a), static_cast<int64_t>(dist.b));
    case LengthDist::Kind::Lognormal: {
      if (dist.b == 0) return std::max<int64_t>(1, std::llround(dist.a));
      // mean m, CV c: sigma^2 = ln(1 + c^2), mu = ln m - sigma^2 / 2.
      const double s2 = std::log1p(dist.b * dist.b);
      const double x = std::exp(std::log(dist.a) - s2 / 2 + std::sqrt(s2) * rng.normal());
      return std::max<int64_t>(1, std::llround(std::min(x, 1e15)));  // the cap only avoids UB
    }
  }
  return 1;
}

// The gap before the next arrival, mean 1/rate.
double drawGap(const ArrivalSpec& arrivals, double rate, Rng& rng) {
  switch (arrivals.kind) {
    case ArrivalSpec::Kind::Gamma: {
      const double shape = 1 / (arrivals.cv * arrivals.cv);  // CV of a gamma is 1/sqrt(shape)
      return rng.gamma(shape) / (shape * rate);
    }
    case ArrivalSpec::Kind::Poisson:
      return rng.exponential() / rate;
    default:
      return 1 / rate;
  }
}

}  // namespace

std::vector<Request> generate(const StreamSpec& spec) {
  if (!spec.recorded.empty()) return spec.recorded;
  const bool trace = spec.arrivals.kind == ArrivalSpec::Kind::Trace;
  if ((!trace || spec.requests_given) && (spec.requests < 1 || spec.requests > kMaxRequests)) {
    throw ConfigError({"", 0, 0, "--requests"},
                      "must be between 1 and 100,000,000, got " + std::to_string(spec.requests));
  }
  if (trace) {
    auto reqs = readTrace(spec.arrivals.path);
    if (spec.requests_given && spec.requests < static_cast<int64_t>(reqs.size())) {
      reqs.resize(static_cast<size_t>(spec.requests));
    }
    return reqs;
  }
  if (!(spec.rate > 0) || !std::isfinite(spec.rate)) {
    throw ConfigError({"", 0, 0, "--rate"},
                      "must be a positive number of requests per second for '" +
                          spec.arrivals.text + "' arrivals");
  }
  Rng gaps(spec.seed, 1), prompts(spec.seed, 2), outputs(spec.seed, 3);
  std::vector<Request> reqs(static_cast<size_t>(spec.requests));
  double clock = 0;
  for (size_t i = 0; i < reqs.size(); ++i) {
    if (i > 0) clock += drawGap(spec.arrivals, spec.rate, gaps);
    Request& r = reqs[i];
    r.id = static_cast<int64_t>(i);
    // Evenly spaced arrivals are computed, not summed, so no rounding error builds up.
    r.arrival = spec.arrivals.kind == ArrivalSpec::Kind::Uniform
                    ? static_cast<double>(i) / spec.rate
                    : clock;
    r.prompt = drawLength(spec.prompt, prompts);
    r.output = drawLength(spec.output, outputs);
  }
  return reqs;
}

void checkContext(const std::vector<Request>& reqs, int64_t max_positions, const std::string& model,
                  const std::string& source) {
  if (max_positions <= 0) return;
  const Request* first = nullptr;
  size_t over = 0;
  for (const Request& r : reqs) {
    if (r.prompt + r.output <= max_positions) continue;
    if (!first) first = &r;
    ++over;
  }
  if (!first) return;
  std::string message = "request " + std::to_string(first->id) + ": prompt " +
                        std::to_string(first->prompt) + " + output " +
                        std::to_string(first->output) + " tokens exceeds " + model +
                        "'s context of " + std::to_string(max_positions);
  if (over > 1) {
    message += " (" + std::to_string(over) + " of " + std::to_string(reqs.size()) + " requests do)";
  }
  if (first->fromFile()) throw ConfigError(first->where("prompt_tokens"), message);
  const bool option = source.empty() || source.rfind("--", 0) == 0;
  if (option) {
    message += "; shorten --prompt-len or --output-len";
    throw ConfigError({"", 0, 0, source.empty() ? "--prompt-len" : source}, message);
  }
  throw ConfigError({source, 0, 0, ""}, message);
}

}  // namespace tessel::serve::llm
