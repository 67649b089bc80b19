#include "serve/llm/disaggregated.h"

#include <algorithm>

#include "arch/cores.h"

namespace tessel::serve::llm {

arch::Accelerator sideDevice(const arch::Accelerator& acc, int cores) {
  arch::Accelerator one = acc;
  one.cores.count = cores;
  arch::Accelerator side = cores > 1 ? arch::fusedDevice(one) : one;
  const double share = static_cast<double>(cores) / static_cast<double>(acc.cores.count);
  for (auto& l : side.levels) {
    if (l.kind == arch::LevelKind::DRAM || l.kind == arch::LevelKind::L2) l.bandwidth *= share;
  }
  return side;
}

namespace {

// The sum of two step functions of blocks in use.
std::vector<KvSample> addLogs(const std::vector<KvSample>& a, const std::vector<KvSample>& b) {
  std::vector<KvSample> out;
  size_t i = 0, j = 0;
  int64_t va = 0, vb = 0;
  while (i < a.size() || j < b.size()) {
    const bool from_a = j >= b.size() || (i < a.size() && a[i].t <= b[j].t);
    const double t = from_a ? a[i].t : b[j].t;
    if (from_a) {
      va = a[i++].blocks;
    } else {
      vb = b[j++].blocks;
    }
    out.push_back({t, va + vb});
  }
  return out;
}

}  // namespace

RunResult simulateDisaggregated(const std::vector<Request>& requests,
                                const SchedulerConfig& config, const Disaggregation& d) {
  std::vector<Request> prompts = requests;
  for (Request& r : prompts) r.output = 1;
  SchedulerConfig pc = config;
  pc.kv_blocks = d.prefill_blocks;
  const RunResult pre = simulate(prompts, pc, *d.prefill);

  std::vector<Request> decodes;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].output < 2) continue;
    Request q = requests[i];
    const double cached = d.kv_bytes_per_token * static_cast<double>(q.prompt);
    const double copy = d.transfer ? d.transfer(cached)
                        : d.transfer_bytes_per_s > 0 ? 2.0 * cached / d.transfer_bytes_per_s
                                                     : 0.0;
    q.arrival = pre.requests[i].first_token + copy;
    decodes.push_back(q);
  }
  std::stable_sort(decodes.begin(), decodes.end(),
                   [](const Request& a, const Request& b) { return a.arrival < b.arrival; });
  RunResult out = pre;
  out.kv_log.clear();
  RunResult dec;
  if (!decodes.empty()) {
    SchedulerConfig dc = config;
    dc.kv_blocks = d.decode_blocks;
    dc.arrive_prefilled = true;
    dec = simulate(decodes, dc, *d.decode);
  }
  for (size_t k = 0; k < decodes.size(); ++k) {
    const RequestRecord& r = dec.requests[k];
    RequestRecord& o = out.requests[static_cast<size_t>(r.id)];
    o.output = r.output;
    o.finish = r.finish;
    o.preemptions += r.preemptions;
  }
  const double all = d.prefill_cores + d.decode_cores;
  out.busy_seconds = (pre.busy_seconds * d.prefill_cores + dec.busy_seconds * d.decode_cores) / all;
  out.iterations += dec.iterations;
  out.dynamic_energy_j += dec.dynamic_energy_j;
  out.macs += dec.macs;
  out.preemptions += dec.preemptions;
  out.swap_seconds += dec.swap_seconds;
  const double iterations = static_cast<double>(std::max<int64_t>(1, out.iterations));
  out.mean_batch = (pre.mean_batch * pre.iterations + dec.mean_batch * dec.iterations) / iterations;
  out.mean_tokens =
      (pre.mean_tokens * pre.iterations + dec.mean_tokens * dec.iterations) / iterations;
  out.kv_log = addLogs(pre.kv_log, dec.kv_log);
  out.kv_peak_blocks = 0;
  for (const KvSample& s : out.kv_log) out.kv_peak_blocks = std::max(out.kv_peak_blocks, s.blocks);
  // Time averages over the whole run, from the merged records: in the system from arrival to
  // the last token; waiting for admission on the prefill side.
  double first = requests.front().arrival, last = 0, in_system = 0;
  for (const RequestRecord& r : out.requests) {
    last = std::max(last, r.finish);
    in_system += r.finish - r.arrival;
  }
  double pre_last = 0;
  for (const RequestRecord& r : pre.requests) pre_last = std::max(pre_last, r.finish);
  const double span = last - first;
  out.mean_in_system = span > 0 ? in_system / span : 0;
  out.mean_waiting = span > 0 ? pre.mean_waiting * (pre_last - first) / span : 0;
  out.kv = sampleKv(out.kv_log, first, last);
  return out;
}

}  // namespace tessel::serve::llm
