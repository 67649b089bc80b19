// serve::simulate: every scenario checked, then one Deployment module each, all in one sc_start.
#include <cstdlib>
#include <string>
#include <systemc>
#include <vector>

#include "serve/timeline.h"
#include "serve/timeline/deployment.h"
#include "serve/timeline/register.h"
#include "serve/timeline/validate.h"
#include "util/error.h"

namespace tessel::serve {

namespace {

// The modules live as long as the simulation kernel does: the process.
std::vector<systemc::Deployment*>& keptModules() {
  static auto* kept = new std::vector<systemc::Deployment*>();
  return *kept;
}

}  // namespace

std::vector<ScenarioResult> simulate(const std::vector<Scenario>& scenarios) {
  for (const Scenario& s : scenarios) systemc::validate(s);
  if (scenarios.empty()) return {};
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION) {
    throw Error(
        "serve timeline: SystemC has already simulated in this process; it elaborates "
        "once per process, so run the timeline in a process of its own");
  }
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  std::vector<systemc::Deployment*>& tops = keptModules();
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const std::string name = "scenario_" + std::to_string(i);
    tops.push_back(new systemc::Deployment(name.c_str(), scenarios[i]));
  }
  sc_core::sc_start();  // until no event is left: every request has finished
  std::vector<ScenarioResult> results;
  results.reserve(tops.size());
  for (systemc::Deployment* top : tops) results.push_back(top->finish());
  return results;
}

void systemc::registerTimeline() { serve::registerTimeline(&simulate); }

}  // namespace tessel::serve
