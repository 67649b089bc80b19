// One processing element of the systolic array as plain C++ (no SystemC): the registers it
// holds and what it does on one rising clock edge. `Pe` (pe.h) wraps it with ports; tests drive
// it directly. Both dataflows share the links, as in Gemmini's PE:
//   left -> right  an INT8 operand (A) with a tag bit
//   up -> down     an INT8 operand: WS weight preload (addressed to a row), OS the B operand
//   sum in -> out  an INT32: WS partial sum, OS the drain chain carrying finished outputs
#pragma once

#include <cstdint>

namespace tessel::sim::pe_grid {

enum class Dataflow { WeightStationary, OutputStationary };

// An INT8 operand register between two PEs (or at the array's edge).
struct OperandReg {
  int8_t value = 0;
  bool valid = false;
  bool tag = false;  // A: WS which weight buffer to multiply with; OS last k of the tile
  uint8_t row = 0;   // WS weight preload: the PE row that keeps this weight
  bool operator==(const OperandReg& o) const {
    return value == o.value && valid == o.valid && tag == o.tag && row == o.row;
  }
};

// An INT32 register between two PEs of a column.
struct SumReg {
  int32_t value = 0;
  bool valid = false;
  bool operator==(const SumReg& o) const { return value == o.value && valid == o.valid; }
};

struct PeOutputs {
  OperandReg right;
  OperandReg down;
  SumReg sum;
};

class PeCore {
 public:
  PeCore(Dataflow dataflow, int row) : ws_(dataflow == Dataflow::WeightStationary), row_(row) {}

  // One rising edge: reads the neighbours' registers as they were before the edge, returns this
  // PE's output registers after it. Everything it reads was latched on the previous edge.
  PeOutputs step(const OperandReg& left, const OperandReg& up, const SumReg& sum_in) {
    return ws_ ? stepWs(left, up, sum_in) : stepOs(left, up, sum_in);
  }

  int32_t weight(int buffer) const { return weight_[buffer]; }
  int32_t accumulator() const { return acc_; }

 private:
  // WS: psum_out = psum_in + a * w[a.tag]. A preload weight addressed to this row is latched
  // into its buffer after the multiply (flip-flop semantics: this edge still uses the old value);
  // others pass down. The tag on A selects the buffer, so a tile switches weights exactly where
  // its first operand reaches the PE (Gemmini's `propagate` bit travelling with the data).
  PeOutputs stepWs(const OperandReg& left, const OperandReg& up, const SumReg& sum_in) {
    PeOutputs out{left, up, {}};
    out.down.valid = up.valid && up.row != row_;
    if (left.valid) out.sum = {sum_in.value + int32_t(left.value) * weight_[left.tag], true};
    if (up.valid && up.row == row_) weight_[up.tag] = up.value;
    return out;
  }

  // OS: acc += a * b while operands arrive; on the last k the result moves into the drain
  // register and acc restarts at 0 for the next tile. The drain registers of a column form a
  // shift register that moves one step down every cycle, so a column's R results leave at the
  // bottom one per cycle while the next tile accumulates (a double-buffered accumulator).
  PeOutputs stepOs(const OperandReg& left, const OperandReg& up, const SumReg& sum_in) {
    PeOutputs out{left, up, drain_};
    drain_ = sum_in;
    if (left.valid) {
      acc_ += int32_t(left.value) * int32_t(up.value);
      if (left.tag) {
        drain_ = {acc_, true};  // sum_in is empty here when tiles are issued legally
        acc_ = 0;
      }
    }
    return out;
  }

  bool ws_;                     // dataflow, fixed at elaboration
  int row_;                     // this PE's row: which preload weights it keeps
  int32_t weight_[2] = {0, 0};  // WS stationary weight and its shadow (double buffer)
  int32_t acc_ = 0;             // OS output being accumulated
  SumReg drain_;                // OS finished output on its way down the column
};

}  // namespace tessel::sim::pe_grid
