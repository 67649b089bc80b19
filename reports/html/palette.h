// Fixed colours, so an op class or a cause looks the same in every chart and every report.
#pragma once

#include <cstddef>
#include <string>

namespace tessel::reports::html {

std::string classColor(const std::string& op_class);  // MatMul, Conv, Softmax, ...
std::string causeColor(const std::string& cause);     // compute, fill_drain, ...
std::string seriesColor(size_t i);                    // the i-th series of a chart
// A hardware component (energy, area): dram, scratchpad, register_file, array, static, ...
std::string componentColor(const std::string& component);
std::string operandColor(const std::string& operand);  // input, weight, output
// A perceptually ordered ramp (viridis), f in [0, 1]: light = small, so the best cells stand out.
std::string rampColor(double f);

}  // namespace tessel::reports::html
