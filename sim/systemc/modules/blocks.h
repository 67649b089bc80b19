// The SystemC blocks. Each is an sc_module whose process only schedules: the timing comes from
// the plain models in timing/, the transactions are whole commands with annotated delays (a
// tile, a DMA burst, a chunk), never clock ticks.
#pragma once

#include <systemc>

#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/systemc/platform.h"

namespace tessel::sim::systemc {

double nowCycles();  // simulated time in accelerator cycles (1 cycle = 1 ns of SystemC time)

// A block that runs commands: it learns each command's end from its model and reports the
// command done at that simulated time.
class Block : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Block);
  // Called when a command ends (released == false), and when a pipelined block (the array) has
  // consumed a command's operands and is free for the next one before its results are out
  // (released == true).
  using Done = std::function<void(uint32_t command, double end, bool released)>;
  Block(sc_core::sc_module_name name, Done done);

 protected:
  void finishAt(uint32_t command, double end, bool released = false);
  std::vector<int64_t> offchip_;  // a command's bytes per off-chip level, reused command to command

 private:
  void fire();
  sc_core::sc_event_queue ends_;
  struct Pending {
    double at;
    uint32_t command;
    bool released;
    bool operator>(const Pending& o) const { return at > o.at; }
  };
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  Done done_;
};

// A passive target: SRAM ports (one timeline per local level) or the NoC's link. Other blocks
// call transport() as with a TLM-2.0 loosely-timed b_transport: the answer is the delay.
class PortBlock : public sc_core::sc_module {
 public:
  explicit PortBlock(sc_core::sc_module_name name) : sc_module(name) {}
  // Occupies level `level`'s ports (or the NoC, level -1) with `bytes` starting at `now`.
  // `tensor` picks the port of a level split per tensor (each pool its own buffer).
  Timeline::Slot transport(BlockModels& m, int level, double now, double bytes,
                           int tensor = 0) const;
};

class DmaBlock : public Block {
 public:
  DmaBlock(sc_core::sc_module_name name, Done done, PortBlock& sram)
      : Block(name, std::move(done)), sram_(sram) {}
  void accept(BlockModels& m, const CommandStream& s, uint32_t c, CommandTiming& t);

 private:
  PortBlock& sram_;
};

class ArrayBlock : public Block {
 public:
  ArrayBlock(sc_core::sc_module_name name, Done done, PortBlock& sram, PortBlock& noc)
      : Block(name, std::move(done)), sram_(sram), noc_(noc) {}
  void accept(BlockModels& m, const CommandStream& s, uint32_t c, CommandTiming& t);

 private:
  PortBlock& sram_;
  PortBlock& noc_;
};

// The SFU or the host: a unit that runs one command at a time for its work cycles.
class UnitBlock : public Block {
 public:
  UnitBlock(sc_core::sc_module_name name, Done done, Timeline BlockModels::*unit, PortBlock& sram)
      : Block(name, std::move(done)), unit_(unit), sram_(sram) {}
  void accept(BlockModels& m, const CommandStream& s, uint32_t c, CommandTiming& t);

 private:
  Timeline BlockModels::*unit_;
  PortBlock& sram_;
};

}  // namespace tessel::sim::systemc
