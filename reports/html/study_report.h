// A design study as one report: a `steps` sweep (designs applied one after another, e.g. the
// transformer co-design case study's three steps) and a `grid` sweep around them, each a
// folder `tessel sweep` wrote. Shows, per workload and sequence length, where the time goes at
// each step, matmul and end-to-end latency and the speedups between steps, then the matmul
// utilization over the grid's two swept keys, then the study's own explanations.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/html/report_doc.h"

namespace tessel::reports::html {

struct StudyText {
  std::string title;
  std::string description;
  std::vector<std::pair<std::string, std::string>> notes;  // heading -> paragraph
};

// `dir` holds steps/ and grid/; ConfigError when either is not a sweep folder.
Report studyReport(const std::string& dir, const StudyText& text);

}  // namespace tessel::reports::html
