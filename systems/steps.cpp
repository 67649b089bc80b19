#include "systems/steps.h"

#include <algorithm>
#include <cmath>

namespace tessel::systems {

StepCoster::StepCoster(const Network& net)
    : net_(net), loads_(static_cast<size_t>(net.links()), 0.0), totals_(loads_) {}

StepCoster::Timing StepCoster::time(const Step& step) {
  Timing t;
  for (const Message& m : step) {
    if (m.src == m.dst || m.bytes <= 0) continue;
    route_.clear();
    net_.route(m.src, m.dst, route_);
    double latency = 0;
    for (int id : route_) {
      double& load = loads_[static_cast<size_t>(id)];
      if (load == 0) touched_.push_back(id);
      load += m.bytes;
      if (net_.charged(id)) latency += net_.link(id).latency;
    }
    t.latency_s = std::max(t.latency_s, latency);
  }
  for (int id : touched_) {
    t.bandwidth_s = std::max(t.bandwidth_s, loads_[static_cast<size_t>(id)] / net_.link(id).bandwidth);
  }
  return t;
}

void StepCoster::account(double scale, CollectiveCost& cost) {
  for (int id : touched_) {
    const double bytes = loads_[static_cast<size_t>(id)] * scale;
    totals_[static_cast<size_t>(id)] += bytes;
    cost.bytes_per_link = std::max(cost.bytes_per_link, totals_[static_cast<size_t>(id)]);
    cost.link_bytes += bytes;
    if (net_.charged(id)) cost.energy_pj += bytes * net_.link(id).energy_pj_per_byte;
    loads_[static_cast<size_t>(id)] = 0;
  }
  touched_.clear();
}

void StepCoster::keep(const Step& step, double scale, int64_t repeat) {
  if (!record_) return;
  sim::FabricStep f;
  f.repeat = repeat;
  for (const Message& m : step) {
    if (m.src == m.dst || m.bytes <= 0) continue;
    sim::FabricMessage fm;
    net_.route(m.src, m.dst, fm.links);
    for (int id : fm.links) fm.latency += net_.charged(id) ? net_.link(id).latency : 0.0;
    fm.bytes = m.bytes * scale;
    f.messages.push_back(std::move(fm));
  }
  if (!f.messages.empty()) record_->push_back(std::move(f));
}

void StepCoster::add(const Step& step, double repeat, CollectiveCost& cost) {
  if (repeat <= 0) return;
  keep(step, 1.0, static_cast<int64_t>(repeat));
  const Timing t = time(step);
  if (touched_.empty()) return;
  cost.bandwidth_s += repeat * t.bandwidth_s;
  cost.latency_s += repeat * t.latency_s;
  cost.steps += static_cast<int64_t>(repeat);
  account(repeat, cost);
}

void StepCoster::addPipelined(const Step& stage, int64_t fill, CollectiveCost& cost) {
  const Timing whole = time(stage);  // the stage's times with every edge moving the whole buffer
  if (touched_.empty()) return;
  double biggest = 0;
  for (const Message& m : stage) biggest = std::max(biggest, m.bytes);
  const double max_chunks = std::max(1.0, std::floor(biggest / kMinChunk));
  // (fill + C - 1)(B/C + L) is least at C = sqrt((fill - 1) B / L): try the whole numbers around.
  const double f = static_cast<double>(fill);
  const double best = whole.latency_s > 0 ? std::sqrt((f - 1) * whole.bandwidth_s / whole.latency_s)
                                          : max_chunks;
  double chunks = 1, least = -1;
  for (double c : {std::floor(best), std::ceil(best), 1.0, max_chunks}) {
    c = std::clamp(c, 1.0, max_chunks);
    const double t = (f + c - 1) * (whole.bandwidth_s / c + whole.latency_s);
    if (least < 0 || t < least) least = t, chunks = c;
  }
  const double steps = f + chunks - 1;
  keep(stage, 1.0 / chunks, static_cast<int64_t>(steps));
  cost.bandwidth_s += steps * whole.bandwidth_s / chunks;
  cost.latency_s += steps * whole.latency_s;
  cost.steps += static_cast<int64_t>(steps);
  cost.chunks = std::max(cost.chunks, static_cast<int64_t>(chunks));
  account(1.0, cost);  // every edge carries the whole buffer once, in chunks
}

}  // namespace tessel::systems
