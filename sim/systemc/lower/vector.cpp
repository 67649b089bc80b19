// Lowering ops that are not array GEMMs: see lower.h.
#include <algorithm>
#include <cmath>

#include "sim/systemc/lower/lower.h"
#include "sim/systemc/lower/spread.h"
#include "util/checked.h"

namespace tessel::sim::systemc {

namespace {

int64_t count(double v, const dataflows::OpPlan& plan, const char* what) {
  return checked::toCount(v, [&] { return "op '" + plan.op->name + "': " + what; });
}

}  // namespace

CommandStream lowerVector(const dataflows::OpPlan& plan, const arch::Accelerator& acc,
                          const analytical::VectorCost& cost, int local) {
  CommandStream s;
  const auto cycles = [&](Cause c) { return cost.cycles[static_cast<size_t>(c)]; };
  std::vector<Share> shares;
  // Off-chip reads count as inputs, writes as outputs, local writes as inputs and local reads
  // as outputs: the analytical engine's convention for vector ops.
  auto traffic = [&](const std::vector<uint32_t>& reads, const std::vector<uint32_t>& writes,
                     const std::vector<uint32_t>& unit) {
    const std::vector<double> rw(reads.size(), 1.0), ww(writes.size(), 1.0), uw(unit.size(), 1.0);
    for (size_t l = 0; l < acc.levels.size(); ++l) {
      const uint8_t lv = static_cast<uint8_t>(l);
      spread(count(cost.traffic.read[l], plan, "bytes read"), reads, rw, Access{lv, 0, false, 0}, shares);
      spread(count(cost.traffic.write[l], plan, "bytes written"), writes, ww, Access{lv, 2, true, 0},
             shares);
    }
    const uint8_t lv = static_cast<uint8_t>(local);
    spread(count(cost.local_write, plan, "local bytes written"), unit, uw, Access{lv, 0, true, 0},
           shares);
    spread(count(cost.local_read, plan, "local bytes read"), unit, uw, Access{lv, 2, false, 0},
           shares);
  };

  if (plan.placement == dataflows::Placement::Host) {
    // The host reads the operands over the link, runs the op, writes the result back: one
    // command on the host block, its accesses those of the shared memory.
    Command h;
    h.kind = Kind::Host;
    h.queue = Queue::Execute;
    h.work = cycles(Cause::Host);
    const uint32_t id = s.add(h);
    traffic({id}, {id}, {id});
    attach(s, shares);
    return s;
  }

  // Unit time of the op: the SFU's for SFU and fused ops, the accumulator path's (Compute) for
  // vector ops on the array.
  const bool sfu = plan.placement == dataflows::Placement::Sfu ||
                   plan.placement == dataflows::Placement::Fused;
  const double work = sfu ? cycles(Cause::Sfu) : cycles(Cause::Compute);
  const int64_t chunks = std::max<int64_t>(1, cost.chunks);
  std::vector<uint32_t> loads, units, stores;
  bool any_read = false, any_write = false;
  for (size_t l = 0; l < acc.levels.size(); ++l) {
    any_read |= cost.traffic.read[l] > 0;
    any_write |= cost.traffic.write[l] > 0;
  }
  auto command = [](Kind kind, Queue queue, int tensor, int64_t chunk) {
    Command c;
    c.kind = kind;
    c.queue = queue;
    c.tensor = static_cast<int8_t>(tensor);
    c.tile = static_cast<int32_t>(chunk);
    return c;
  };
  for (int64_t i = 0; i < chunks; ++i) {
    uint32_t ld = kNone;
    if (any_read) {
      ld = s.add(command(Kind::Load, Queue::Load, 0, i));
      if (i >= 2) s.dependOn(units[size_t(i - 2)]);  // its buffer half is free again
      loads.push_back(ld);
    }
    Command u = command(sfu ? Kind::Sfu : Kind::Compute, Queue::Execute, -1, i);
    u.work = work / static_cast<double>(chunks);
    units.push_back(s.add(u));
    s.dependOn(ld);
    if (any_write && i >= 2) s.dependOn(stores[size_t(i - 2)]);  // its output half was drained
    if (any_write) {
      stores.push_back(s.add(command(Kind::Store, Queue::Store, 2, i)));
      s.dependOn(units.back());
    }
  }
  traffic(loads.empty() ? units : loads, stores.empty() ? units : stores, units);
  attach(s, shares);
  return s;
}

}  // namespace tessel::sim::systemc
