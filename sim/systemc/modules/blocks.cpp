#include "sim/systemc/modules/blocks.h"

#include <algorithm>

namespace tessel::sim::systemc {

double nowCycles() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

Block::Block(sc_core::sc_module_name name, Done done) : sc_module(name), done_(std::move(done)) {
  SC_METHOD(fire);
  sensitive << ends_;
  dont_initialize();
}

void Block::finishAt(uint32_t command, double end, bool released) {
  pending_.push(Pending{end, command, released});
  ends_.notify(sc_core::sc_time(std::max(0.0, end - nowCycles()), sc_core::SC_NS));
}

void Block::fire() {
  const double now = nowCycles();
  while (!pending_.empty() && pending_.top().at <= now + kTimeEps) {
    const Pending p = pending_.top();
    pending_.pop();
    done_(p.command, p.at, p.released);
  }
}

Timeline::Slot PortBlock::transport(BlockModels& m, int level, double now, double bytes,
                                    int tensor) const {
  if (level < 0) {
    return m.noc.reserve(now, m.noc_bandwidth > 0 ? bytes / m.noc_bandwidth : 0);
  }
  const auto l = static_cast<size_t>(level);
  const double bw = m.port_bandwidth[l];
  const size_t port = 3 * l + (m.pooled[l] ? static_cast<size_t>(tensor) : 0);
  return m.ports[port].reserve(now, bw > 0 ? bytes / bw : 0);
}

namespace {

// A command's accesses: off-chip bytes stream through the DMA path, local bytes occupy their
// level's ports from `start`. Returns when the last of them is done and what ended last.
// A store is done once its rows are read out of the local memory and handed to the bus
// (Gemmini's mvout completes on the SRAM read, not on the DRAM write's acknowledgement); a load
// once its last response is back. The host reaches shared memory over its own link, which its
// command's work already includes, so its accesses are counted, not timed here.
double serveAccesses(BlockModels& m, const CommandStream& s, const Command& cmd, double start,
                     PortBlock& sram, std::vector<int64_t>& offchip, CommandTiming& t,
                     double* transfer_end, double* bus_end = nullptr) {
  offchip.assign(m.memory.rates().size(), 0);
  bool any_off = false;
  double end = start;
  for (uint32_t i = cmd.access_begin; i < cmd.access_end; ++i) {
    const Access& a = s.accesses[i];
    if (m.memory.offChip(a.level)) {
      offchip[m.memory.slot(a.level)] += a.bytes;
      any_off = cmd.kind != Kind::Host;
      continue;
    }
    if (cmd.kind == Kind::Host || !cmd.time_local) continue;
    const Timeline::Slot p =
        sram.transport(m, a.level, start, static_cast<double>(a.bytes), a.tensor);
    if (p.end > end) {
      end = p.end;
      t.port = a.level;
    }
  }
  *transfer_end = start;
  if (bus_end != nullptr) *bus_end = start;
  if (any_off) {
    const MemoryPath::Transfer tr = m.memory.transfer(start, offchip, cmd.request_bytes);
    *transfer_end = cmd.kind == Kind::Store ? tr.issued : tr.end;
    if (bus_end != nullptr) *bus_end = tr.issued;
    t.start = std::max(t.start, start + tr.waited);
  }
  return end;
}

}  // namespace

void DmaBlock::accept(BlockModels& m, const CommandStream& s, uint32_t c, CommandTiming& t) {
  const double now = nowCycles();
  t.start = now;
  double transfer_end = now, bus_end = now;
  const double port_end =
      serveAccesses(m, s, s.commands[c], now, sram_, offchip_, t, &transfer_end, &bus_end);
  t.work_end = bus_end;  // the bus is the DMA's: its last request left
  t.end = std::max(transfer_end, port_end);
  t.limiter = port_end > transfer_end + kTimeEps ? Limiter::Port : Limiter::None;
  finishAt(c, t.end);
}

void ArrayBlock::accept(BlockModels& m, const CommandStream& s, uint32_t c, CommandTiming& t) {
  const Command& cmd = s.commands[c];
  const double now = nowCycles();
  // The op's first compute pays its first preload in full; later ones preload during the one
  // before, or while the array waits, once the weights are in (tile_timing.h). The stream
  // occupies the array; the results leave a tail later.
  const double first = m.array_primed ? 0 : s.run_start;
  m.array_primed = true;
  const Timeline::Slot a = m.array.reserve(now, cmd.work + first);
  t.start = a.start;
  t.work_end = a.end + s.pipeline_tail;
  double transfer_end = a.start;
  const double port_end = serveAccesses(m, s, cmd, a.start, sram_, offchip_, t, &transfer_end);
  double held = std::max(port_end, transfer_end);
  if (port_end > a.end + kTimeEps && port_end >= transfer_end) t.limiter = Limiter::Port;
  if (cmd.noc_bytes > 0 && cmd.time_local) {
    const Timeline::Slot n = noc_.transport(m, -1, a.start, static_cast<double>(cmd.noc_bytes));
    if (n.end > held && n.end > a.end + kTimeEps) t.limiter = Limiter::Noc;
    held = std::max(held, n.end);
  }
  // Operands not yet delivered hold the array: the next compute cannot stream before.
  m.array.holdUntil(held);
  t.end = std::max(t.work_end, held + s.pipeline_tail);
  finishAt(c, t.end);
  t.released = m.array.free();
  if (t.released < t.end - kTimeEps) finishAt(c, t.released, true);  // free for the next
  else t.released = t.end;
}

void UnitBlock::accept(BlockModels& m, const CommandStream& s, uint32_t c, CommandTiming& t) {
  const Command& cmd = s.commands[c];
  Timeline& unit = m.*unit_;
  const Timeline::Slot a = unit.reserve(nowCycles(), cmd.work);
  t.start = a.start;
  t.work_end = a.end;
  double transfer_end = a.start;
  const double port_end = serveAccesses(m, s, cmd, a.start, sram_, offchip_, t, &transfer_end);
  t.end = std::max({a.end, port_end, transfer_end});
  if (port_end > a.end + kTimeEps && port_end >= transfer_end) t.limiter = Limiter::Port;
  unit.holdUntil(t.end);
  finishAt(c, t.end);
}

}  // namespace tessel::sim::systemc
