#include <iomanip>
#include <sstream>
#include <vector>

#include "reports/serve/llm_report.h"
#include "util/units.h"

namespace tessel::reports {
namespace {

std::string ms(double s) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(s < 0.01 ? 2 : 1);
  os << s * 1e3;
  return os.str();
}


std::string gib(double bytes) { return units::formatFixed(bytes / double(1 << 30), 2) + " GiB"; }

// Prompt tokens reused from the prefix cache at each point that ran, when a request has a prefix.
void writePrefixReuse(const serve::llm::LlmResult& r, std::ostream& os) {
  std::vector<const serve::llm::LlmPoint*> ran;
  for (const serve::llm::LlmPoint& p : r.points) {
    if (p.ok && p.run.prefix_requests > 0) ran.push_back(&p);
  }
  if (ran.empty()) return;
  os << "prefix cache: prompt tokens reused" << (ran.size() > 1 ? ", by point:" : "");
  for (size_t i = 0; i < ran.size(); ++i) {
    int64_t prompts = 0;
    for (const serve::llm::RequestRecord& q : ran[i]->run.requests) prompts += q.prompt;
    os << (i ? ", " : " ") << ran[i]->run.prefix_reused_tokens << " of " << prompts << " ("
       << units::formatFixed(ran[i]->run.prefix_reused_fraction * 100, 1) << "%)";
  }
  os << "\n";
}

}  // namespace

void writeLlmServeTable(const serve::llm::LlmResult& r, const ServeHeader& h, std::ostream& os) {
  os << "tessel serve | arch " << h.arch_name << " (" << h.arch_hash.substr(0, 8) << "), "
     << r.device << " | workload " << h.workload << " | LLM service\n";
  os << "options:";
  for (const auto& [k, v] : h.options) os << " " << k << "=" << v;
  os << "\n";
  const serve::llm::LlmMemory& m = r.memory;
  os << "memory: " << gib(m.capacity_bytes) << " DRAM, weights " << gib(m.weights_bytes)
     << ", activations " << gib(m.activation_bytes) << "; KV cache " << gib(m.kv_budget_bytes)
     << " = " << m.kv_blocks << " blocks (" << units::formatFixed(m.kv_bytes_per_token / 1024, 1)
     << " KiB per token)\n";
  const std::string cores = !h.run_options.empty() ? h.run_options : h.cores > 1 ? " --cores fused" : "";
  os << "one request alone, " << r.alone_prompt << "-token prompt (tessel run --seq "
     << r.alone_prompt << " [--phase decode] --budget " << r.budget << cores
     << ", with its KV length in whole blocks): prefill " << ms(r.prefill_s) << " ms, decode step "
     << ms(r.decode_step_s) << " ms, of which reading its weights " << ms(r.weight_read_s)
     << " ms\n";
  if (!r.split.empty()) os << "disaggregated: " << r.split << "\n";
  os << "shapes simulated: " << r.shapes_evaluated << "\n\n";
  bool modes = false;
  for (const serve::llm::LlmPoint& p : r.points) modes |= p.mode != r.points.front().mode;
  modes |= !r.split.empty();
  if (modes) os << std::left << std::setw(7) << "cores";
  os << std::left << std::setw(8) << "rate" << std::right << std::setw(6) << "batch"
     << std::setw(6) << "chunk" << std::setw(10) << "tok/s" << std::setw(8) << "req/s"
     << std::setw(8) << "good/s" << std::setw(10) << "TTFT p50" << std::setw(9) << "p99"
     << std::setw(10) << "TPOT p50" << std::setw(8) << "p99" << std::setw(10) << "E2E p50"
     << std::setw(7) << "KV pk" << std::setw(7) << "preem" << std::setw(6) << "busy"
     << std::setw(6) << "MACs" << std::setw(8) << "mJ/tok" << "\n";
  for (const serve::llm::LlmPoint& p : r.points) {
    if (modes) {
      os << std::left << std::setw(7)
         << (p.mode == serve::llm::CoreMode::Fused ? "fused" : "disagg");
    }
    os << std::left << std::setw(8) << (p.rate > 0 ? units::formatFixed(p.rate, p.rate < 10 ? 2 : 1) : "trace")
       << std::right << std::setw(6) << p.max_batch << std::setw(6) << p.chunk;
    if (!p.ok) {
      os << "  infeasible: " << p.reason << "\n";
      continue;
    }
    const serve::llm::Metrics& x = p.metrics;
    const double kv = double(p.run.kv_peak_blocks) / double(std::max<int64_t>(1, m.kv_blocks));
    os << std::setw(10) << units::formatFixed(x.output_tokens_per_s, 0) << std::setw(8)
       << units::formatFixed(x.requests_per_s, 2) << std::setw(8) << units::formatFixed(x.goodput_requests_per_s, 2)
       << std::setw(10) << ms(x.ttft.p50) << std::setw(9) << ms(x.ttft.p99) << std::setw(10)
       << ms(x.tpot.p50) << std::setw(8) << ms(x.tpot.p99) << std::setw(10) << ms(x.e2e.p50)
       << std::setw(6) << units::formatFixed(kv * 100, kv < 0.1 ? 1 : 0) << "%" << std::setw(7)
       << p.run.preemptions << std::setw(5) << units::formatFixed(x.utilization * 100, 0) << "%"
       << std::setw(5) << units::formatFixed(x.mac_utilization * 100, 1) << "%" << std::setw(8)
       << units::formatFixed(x.energy_per_token_j * 1e3, 2) << "\n";
  }
  os << "(times in ms; good/s: requests/s within the SLO; KV pk: peak KV-cache use; preem: "
        "preemptions; busy: the share of time an iteration runs; MACs: of the peak MAC rate)\n";
  writePrefixReuse(r, os);
  os << "\nRecommendations\n";
  for (const std::string& line : r.recommendations) os << "  " << line << "\n";
}

}  // namespace tessel::reports
