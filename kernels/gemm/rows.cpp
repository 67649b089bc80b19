// ARows: the A operand's rows for one block of a GEMM, read in place when possible, otherwise
// gathered (im2col) and/or transformed by the prologue chain into scratch.
#include "kernels/gemm/driver.h"
#include "util/error.h"

namespace tessel::kernels::detail {

ARows::ARows(const ASource& a, const OpChain& prologue, Domain want, int64_t max_rows)
    : a_(a), pro_(prologue), want_(want), buf_(a.data && prologue.empty() ? 0 : max_rows, a.k) {
  if (!prologue.acceptsInput(a.domain) || prologue.outputDomain(a.domain) != want)
    throw Error("GEMM prologue does not turn the A operand into the GEMM's input type");
}

const void* ARows::get(int64_t r0, int64_t rows, int64_t& ld, SaturationStats& sat) {
  if (a_.data && pro_.empty()) {
    ld = a_.ld;
    return offsetOf(a_.data, a_.domain, r0, 0, a_.ld);
  }
  Block b = buf_.at(r0, 0, rows, a_.k, a_.k, &sat);
  if (a_.data) {
    loadBlock(b, a_.domain, offsetOf(a_.data, a_.domain, r0, 0, a_.ld), a_.ld);
  } else {
    void* dst = a_.domain == Domain::Int8    ? static_cast<void*>(b.q)
                : a_.domain == Domain::Int32 ? static_cast<void*>(b.i)
                                             : static_cast<void*>(b.f);
    a_.fill(r0, rows, dst);
  }
  pro_.run(b);
  ld = a_.k;
  if (want_ == Domain::Int8) return b.q;
  return want_ == Domain::Int32 ? static_cast<const void*>(b.i) : static_cast<const void*>(b.f);
}

}  // namespace tessel::kernels::detail
