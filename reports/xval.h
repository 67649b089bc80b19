// Cross-check of the two engines on the same plans: per op and in total the SystemC engine's
// cycles over the analytical engine's, what the SystemC blocks waited on where they differ most,
// and whether every byte count agrees (it must: both count the same accesses).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/stats.h"

namespace tessel::reports {

struct XvalOp {
  std::string name;
  std::string op_class;
  std::string placement;
  double analytical = 0;  // cycles
  double systemc = 0;
  double ratio = 1;        // systemc / analytical (1 when both are 0)
  bool bytes_equal = true;  // traffic per level and tensor, register-file and NoC bytes
  std::vector<std::pair<std::string, double>> waits;  // the SystemC engine's, largest first
};

struct Xval {
  std::string tool_version;
  std::string arch_name;
  std::string arch_hash;
  std::string workload;
  std::vector<std::pair<std::string, std::string>> options;
  double tolerance = 0.10;  // |ratio - 1| an op may reach
  double analytical = 0, systemc = 0;  // total cycles
  std::vector<XvalOp> ops;  // in graph order

  double ratio() const { return analytical > 0 ? systemc / analytical : 1.0; }
  int beyondTolerance() const;
  int byteMismatches() const;
};

// The runs must be of the same plans (same ops in the same order); throws tessel::Error if not.
Xval crossCheck(const sim::RunStats& analytical, const sim::RunStats& systemc, double tolerance);

// The totals, then the `top` ops whose ratio is farthest from 1 with what they waited on.
void writeXvalTable(const Xval& x, std::ostream& out, int top);
std::string xvalJsonString(const Xval& x);

}  // namespace tessel::reports
