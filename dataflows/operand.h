// The three tensors of every compute op: A (inputs), B (weights), C (outputs).
#pragma once

#include <cstdint>

namespace tessel::dataflows {

enum class Operand : uint8_t { Input, Weight, Output };

}  // namespace tessel::dataflows
