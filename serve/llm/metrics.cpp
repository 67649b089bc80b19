#include "serve/llm/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessel::serve::llm {

Percentiles percentiles(std::vector<double> v) {
  Percentiles p;
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  auto rank = [&](double q) {
    const size_t k = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, k == 0 ? 0 : k - 1)];
  };
  p.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  p.p50 = rank(0.50);
  p.p90 = rank(0.90);
  p.p99 = rank(0.99);
  p.max = v.back();
  return p;
}

Metrics measure(const RunResult& run, const Slo& slo, double leakage_w, double peak_macs_per_s) {
  Metrics m;
  std::vector<double> ttft, tpot, e2e;
  double first = run.requests.empty() ? 0 : run.requests.front().arrival, last = 0;
  double tokens = 0, queue = 0, prefill = 0, decode = 0;
  int64_t good = 0;
  for (const RequestRecord& r : run.requests) {
    first = std::min(first, r.arrival);
    last = std::max(last, r.finish);
    tokens += static_cast<double>(r.output);
    ttft.push_back(r.first_token - r.arrival);
    e2e.push_back(r.finish - r.arrival);
    const double per_token =
        r.output > 1 ? (r.finish - r.first_token) / static_cast<double>(r.output - 1) : 0.0;
    if (r.output > 1) tpot.push_back(per_token);
    queue += r.admitted - r.arrival;
    prefill += r.first_token - r.admitted;
    decode += r.finish - r.first_token;
    const bool ok = (slo.ttft <= 0 || ttft.back() <= slo.ttft) &&
                    (slo.tpot <= 0 || per_token <= slo.tpot) &&
                    (slo.e2e <= 0 || e2e.back() <= slo.e2e);
    good += ok ? 1 : 0;
  }
  const double n = static_cast<double>(run.requests.size());
  m.completed = static_cast<int64_t>(run.requests.size());
  m.makespan = last - first;
  m.ttft = percentiles(ttft);
  m.tpot = percentiles(tpot);
  m.e2e = percentiles(e2e);
  if (m.makespan > 0) {
    m.output_tokens_per_s = tokens / m.makespan;
    m.requests_per_s = n / m.makespan;
    m.goodput_requests_per_s = static_cast<double>(good) / m.makespan;
    m.utilization = run.busy_seconds / m.makespan;
    if (peak_macs_per_s > 0) m.mac_utilization = run.macs / (peak_macs_per_s * m.makespan);
  }
  m.slo_attained = n > 0 ? static_cast<double>(good) / n : 0;
  if (n > 0) {
    m.queue_s = queue / n;
    m.prefill_s = prefill / n;
    m.decode_s = decode / n;
  }
  if (tokens > 0) m.energy_per_token_j = (run.dynamic_energy_j + leakage_w * m.makespan) / tokens;
  m.mean_in_system = run.mean_in_system;
  m.mean_waiting = run.mean_waiting;
  return m;
}

}  // namespace tessel::serve::llm
