// R×C PEs wired by sc_signals: A moves right along the rows, weights / B and psums / drained
// outputs move down the columns. The edge signals are the array's input registers (left, top)
// and the bottom row's output registers, for the driver and collector (edges.h).
#pragma once

#include <systemc>

#include "sim/systemc/pe_grid/pe.h"

namespace tessel::sim::pe_grid {

class PeArray : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  PeArray(sc_core::sc_module_name name, int rows, int cols, Dataflow dataflow);

  sc_core::sc_signal<OperandReg>& leftEdge(int r) { return right_[size_t(r * (cols_ + 1))]; }
  sc_core::sc_signal<OperandReg>& topEdge(int c) { return down_[size_t(c)]; }
  sc_core::sc_signal<SumReg>& bottomSum(int c) { return sum_[size_t(rows_ * cols_ + c)]; }

 private:
  int rows_, cols_;
  sc_core::sc_vector<Pe> pes_;                                // row-major
  sc_core::sc_vector<sc_core::sc_signal<OperandReg>> right_;  // R×(C+1): into PE(r,c) at [r][c]
  sc_core::sc_vector<sc_core::sc_signal<OperandReg>> down_;   // (R+1)×C: into PE(r,c) at [r][c]
  sc_core::sc_vector<sc_core::sc_signal<SumReg>> sum_;        // (R+1)×C; row 0 stays empty
};

}  // namespace tessel::sim::pe_grid
