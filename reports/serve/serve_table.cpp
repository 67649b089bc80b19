#include <cstdio>

#include "reports/serve/serve_report.h"
#include "util/units.h"

namespace tessel::reports {

namespace {

std::string ms(double seconds) { return units::formatWith("%.3f", seconds * 1e3); }

void writeProfiles(const serve::ServeResult& r, std::ostream& os) {
  os << "service times per job (ms):\n";
  os << "  cores   batch        pre   job (1 busy)   job (all busy)       post   host in job\n";
  for (const serve::ServiceProfile& p : r.profiles) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-6s %6d %10s %14s %16s %10s %13s\n",
                  serve::nameOf(p.mode).c_str(), p.batch, ms(p.times.pre).c_str(),
                  ms(p.times.job.front()).c_str(), ms(p.times.job.back()).c_str(),
                  ms(p.times.post).c_str(), ms(p.times.job_host).c_str());
    os << line;
  }
  for (const serve::InfeasibleProfile& f : r.infeasible) {
    os << "  " << serve::nameOf(f.mode) << " batch " << f.batch << ": infeasible: " << f.reason
       << "\n";
  }
}

void writeConfigurations(const serve::ServeResult& r, std::ostream& os) {
  os << "\n  cores   batch workers  throughput      p50      p90      p99      max   accel   host"
        "   queue\n";
  os << "                          (req/s)     (ms)     (ms)     (ms)     (ms)    util   util"
        "   depth\n";
  for (const serve::Configuration& c : r.configurations) {
    const serve::ScenarioResult& s = c.result;
    char line[240];
    std::snprintf(
        line, sizeof line, "  %-6s %6d %7d %11.4g %8s %8s %8s %8s %6.1f%% %5.1f%% %7.2f%s\n",
        serve::nameOf(c.mode).c_str(), c.batch, c.workers, s.throughput, ms(s.latency_p50).c_str(),
        ms(s.latency_p90).c_str(), ms(s.latency_p99).c_str(), ms(s.latency_max).c_str(),
        100 * s.accelerator_utilization, 100 * s.host_utilization, s.mean_submit_depth,
        c.variant.empty() ? "" : ("   " + c.variant).c_str());
    os << line;
  }
}

}  // namespace

void writeServeTable(const serve::ServeResult& r, const ServeHeader& h, std::ostream& os) {
  os << "serve: " << h.workload << " on " << h.arch_name << " (" << h.cores
     << (h.cores == 1 ? " core" : " cores") << ")\n";
  for (const auto& [k, v] : h.options) os << "  " << k << ": " << v << "\n";
  os << "\n";
  writeProfiles(r, os);
  writeConfigurations(r, os);
  os << "\nrecommendations:\n";
  for (const std::string& line : r.recommendations.lines) os << "  - " << line << "\n";
}

}  // namespace tessel::reports
