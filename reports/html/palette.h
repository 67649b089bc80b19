// Fixed colours, so an op class or a cause looks the same in every chart and every report.
#pragma once

#include <string>

namespace tessel::reports::html {

std::string classColor(const std::string& op_class);  // MatMul, Conv, Softmax, ...
std::string causeColor(const std::string& cause);     // compute, fill_drain, ...
std::string seriesColor(size_t i);                    // the i-th series of a chart

}  // namespace tessel::reports::html
