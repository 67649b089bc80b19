// The interconnect as a SystemC module: every link a resource with its waiting messages, the
// kernel's event queue the clock. A step's messages queue in order; a message starts when every
// link of its route is free, holds them while its bytes cross at its slowest link's rate (cut
// through, every link of the route at once), frees them, and arrives its route's latency after
// that; the next step starts when the last message of this one has arrived (sim/fabric.h).
// Times are the kernel's (whole picoseconds). Elaborated once per process beside the platform.
#include <systemc>

#include <algorithm>
#include <limits>
#include <queue>

#include "sim/fabric.h"
#include "sim/systemc/modules/fabric.h"
#include "util/error.h"

namespace tessel::sim::systemc {

namespace {

class Fabric : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Fabric);
  explicit Fabric(sc_core::sc_module_name name) : sc_module(name), arrivals_("arrivals") {
    SC_METHOD(advance);
    sensitive << arrivals_ << start_;
    dont_initialize();
  }

  double run(const std::vector<FabricLink>& links, const std::vector<FabricStep>& steps) {
    links_ = &links;
    steps_ = &steps;
    busy_.assign(links.size(), false);
    step_ = 0;
    copy_ = 0;
    waiting_.clear();
    begin_ = end_ = sc_core::sc_time_stamp().to_seconds();
    load();
    start_.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();  // until no event is left: every step has drained
    if (!waiting_.empty() || !flying_.empty() || step_ < steps.size())
      throw Error("SystemC fabric: messages left waiting (a route over a link that never frees)");
    return end_ - begin_;
  }

 private:
  // A message's two events: its links free (arrived = false), then it arrives.
  struct Flight {
    sc_core::sc_time at;
    size_t message;
    bool arrived;
    bool operator>(const Flight& o) const { return at > o.at; }
  };

  const FabricStep& current() const { return (*steps_)[step_]; }

  // The current copy of the current step into the queue (steps of no messages pass at once).
  void load() {
    while (step_ < steps_->size()) {
      if (copy_ < current().repeat && !current().messages.empty()) {
        for (size_t m = 0; m < current().messages.size(); ++m) waiting_.push_back(m);
        return;
      }
      ++step_;
      copy_ = 0;
    }
  }

  void advance() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!flying_.empty() && flying_.top().at <= now) {
      const Flight f = flying_.top();
      flying_.pop();
      if (f.arrived) {
        end_ = std::max(end_, f.at.to_seconds());
        continue;
      }
      for (int l : current().messages[f.message].links) busy_[static_cast<size_t>(l)] = false;
    }
    if (waiting_.empty() && flying_.empty()) {
      if (step_ >= steps_->size()) return;
      ++copy_;
      load();
      if (step_ >= steps_->size()) return;
    }
    std::vector<size_t> still;
    for (size_t m : waiting_) {
      const FabricMessage& msg = current().messages[m];
      const bool free = std::all_of(msg.links.begin(), msg.links.end(),
                                    [&](int l) { return !busy_[static_cast<size_t>(l)]; });
      if (!free) {
        still.push_back(m);
        continue;
      }
      double slowest = std::numeric_limits<double>::infinity();
      for (int l : msg.links) {
        busy_[static_cast<size_t>(l)] = true;
        slowest = std::min(slowest, (*links_)[static_cast<size_t>(l)].bandwidth);
      }
      const sc_core::sc_time transfer(msg.links.empty() ? 0.0 : msg.bytes / slowest, sc_core::SC_SEC);
      const sc_core::sc_time arrive = transfer + sc_core::sc_time(msg.latency, sc_core::SC_SEC);
      flying_.push({now + transfer, m, false});
      flying_.push({now + arrive, m, true});
      arrivals_.notify(transfer);
      arrivals_.notify(arrive);
    }
    waiting_.swap(still);
    if (waiting_.empty() && flying_.empty()) start_.notify(sc_core::SC_ZERO_TIME);  // an empty step
  }

  sc_core::sc_event_queue arrivals_;
  sc_core::sc_event start_;
  const std::vector<FabricLink>* links_ = nullptr;
  const std::vector<FabricStep>* steps_ = nullptr;
  std::vector<bool> busy_;
  std::vector<size_t> waiting_;
  std::priority_queue<Flight, std::vector<Flight>, std::greater<Flight>> flying_;
  size_t step_ = 0;
  int64_t copy_ = 0;
  double begin_ = 0, end_ = 0;
};

Fabric* instance = nullptr;

}  // namespace

void elaborateFabric() {
  if (!instance) instance = new Fabric("fabric");  // lives as long as the simulation kernel
}

void registerFabric() {
  registerFabricRunner([](const std::vector<FabricLink>& links, const std::vector<FabricStep>& steps) {
    ensureElaborated();
    return instance->run(links, steps);
  });
}

}  // namespace tessel::sim::systemc
