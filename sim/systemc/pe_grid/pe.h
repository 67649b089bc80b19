// The PE as a clocked SystemC module: PeCore's registers behind ports, one SC_METHOD per rising
// edge. Signals between PEs are the PEs' output registers (sc_signal updates after every process
// of the edge has read, so a PE sees what its neighbours latched the edge before).
#pragma once

#include <ostream>
#include <string>
#include <systemc>

#include "sim/systemc/pe_grid/pe_core.h"

namespace tessel::sim::pe_grid {

// sc_signal<T> needs T printable and traceable; both found by ADL.
inline std::ostream& operator<<(std::ostream& os, const OperandReg& r) {
  return os << (r.valid ? "" : "~") << int(r.value) << (r.tag ? "'" : "") << "@" << int(r.row);
}
inline std::ostream& operator<<(std::ostream& os, const SumReg& r) {
  return os << (r.valid ? "" : "~") << r.value;
}
inline void sc_trace(sc_core::sc_trace_file* f, const OperandReg& r, const std::string& name) {
  sc_core::sc_trace(f, r.value, name + ".value");
  sc_core::sc_trace(f, r.valid, name + ".valid");
}
inline void sc_trace(sc_core::sc_trace_file* f, const SumReg& r, const std::string& name) {
  sc_core::sc_trace(f, r.value, name + ".value");
  sc_core::sc_trace(f, r.valid, name + ".valid");
}

class Pe : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<OperandReg> left;  // A from the PE to the left (or the edge register)
  sc_core::sc_in<OperandReg> up;    // weight / B from the PE above
  sc_core::sc_in<SumReg> sum_in;    // psum / drain from the PE above
  sc_core::sc_out<OperandReg> right;
  sc_core::sc_out<OperandReg> down;
  sc_core::sc_out<SumReg> sum_out;

  SC_HAS_PROCESS(Pe);
  Pe(sc_core::sc_module_name name, Dataflow dataflow, int row)
      : sc_module(name), core_(dataflow, row) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }

 private:
  void tick() {
    const PeOutputs o = core_.step(left.read(), up.read(), sum_in.read());
    right.write(o.right);
    down.write(o.down);
    sum_out.write(o.sum);
  }

  PeCore core_;
};

}  // namespace tessel::sim::pe_grid
