// `tessel serve` results as a terminal table and as JSON (reports/SCHEMA.md, "serve").
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "serve/service.h"

namespace tessel::reports {

// What the results were simulated from, for the header and the JSON's "options".
struct ServeHeader {
  std::string arch_name;
  std::string arch_hash;
  int cores = 1;
  std::string workload;
  std::vector<std::pair<std::string, std::string>> options;  // as given, in order
  std::string run_options;  // what `tessel run` needs to time a step alone (" --system S --tp 8")
};

void writeServeTable(const serve::ServeResult& result, const ServeHeader& header, std::ostream& os);
std::string serveJsonString(const serve::ServeResult& result, const ServeHeader& header);

}  // namespace tessel::reports
