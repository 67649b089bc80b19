// One line a child process returns for an engine cross-check: "MISMATCHES BEYOND RUN_OK", then
// (after the caller's own fields) each op beyond the tolerance or with other bytes, and the
// run's ratio. The parent asserts on the head.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "reports/xval.h"

namespace tessel::testing {

inline std::string xvalHead(const reports::Xval& x, double run_tolerance) {
  std::ostringstream out;
  out << x.byteMismatches() << " " << x.beyondTolerance() << " "
      << (std::abs(x.ratio() - 1) <= run_tolerance);
  return out.str();
}

inline std::string xvalTail(const reports::Xval& x, double op_tolerance) {
  std::ostringstream out;
  for (const auto& op : x.ops) {
    if (std::abs(op.ratio - 1) > op_tolerance || !op.bytes_equal) {
      out << " | " << op.name << " " << op.ratio << (op.bytes_equal ? "" : " bytes differ");
    }
  }
  out << " | run ratio " << x.ratio();
  return out.str();
}

}  // namespace tessel::testing
