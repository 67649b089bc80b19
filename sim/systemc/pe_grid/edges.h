// The array's surroundings, clocked like the PEs: the driver loads the edge input registers
// from the schedule (skewed A rows, skewed weight preload or B columns); the collector plays
// the accumulator SRAM, taking each valid value leaving the bottom of a column, and stops the
// simulation once every output has arrived.
#pragma once

#include <systemc>
#include <vector>

#include "sim/systemc/pe_grid/pe.h"
#include "sim/systemc/pe_grid/schedule.h"

namespace tessel::sim::pe_grid {

class Driver : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_vector<sc_core::sc_out<OperandReg>> left;  // one per array row
  sc_core::sc_vector<sc_core::sc_out<OperandReg>> top;   // one per array column

  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name name, const Schedule& schedule, int rows, int cols);

 private:
  void tick();

  const Schedule& schedule_;
  int64_t edge_ = 0;
};

// What the collector measured.
struct Collected {
  std::vector<int32_t> c;         // M×N
  std::vector<int64_t> tile_end;  // edge the last output of each tile was captured
  int64_t end = -1;               // edge the last output was captured; -1 if never
};

class Collector : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_vector<sc_core::sc_in<SumReg>> bottom;  // one per array column

  SC_HAS_PROCESS(Collector);
  Collector(sc_core::sc_module_name name, const Schedule& schedule, int cols, Collected& out);

 private:
  void tick();

  const Schedule& schedule_;
  Collected& out_;
  std::vector<int64_t> seen_;  // valid values taken per column
  int64_t missing_;            // values still to come over all columns
  int64_t edge_ = 0;
};

}  // namespace tessel::sim::pe_grid
