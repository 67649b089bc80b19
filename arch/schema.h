// The accelerator YAML schema as ONE declarative table: every parameter with its type,
// whether it is required, its default, its unit and a one-line description. The loader reads
// YAML by walking this table and schemaDoc() prints it, so the two cannot disagree.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/dtype.h"

namespace tessel::arch {

struct Building;  // the spec under construction, see arch/building.h

enum class ValueType : uint8_t {
  Bytes,          // "256 KiB"
  Bandwidth,      // "16 B/cycle", "25.6 GB/s" -> bytes per accelerator cycle
  ByteRate,       // "25.6 GB/s" -> bytes per second
  Frequency,      // "1 GHz"
  Time,           // "100 ns", "20 cycles" -> accelerator cycles
  Energy,         // "0.2 pJ"
  EnergyPerByte,  // "20 pJ/B"
  FlopRate,       // "32 GFLOP/s"
  Area,           // "0.5 mm2", "1200 um2" -> mm^2
  Power,          // "2 mW" -> mW
  Voltage,        // "0.8 V" -> V
  Length,         // "20 um", "0.02 mm" -> um
  Integer,
  Real,
  Boolean,
  Text,
  DTypeName,   // int8, int16, int32, fp16, bf16, fp32
  Choice,      // one of ParamSpec::choices
  NameList,    // a list of distinct ParamSpec::choices
  DTypeRates,  // {dtype: number}
  OpCosts,     // {op: number}, ops from ParamSpec::choices
  // One size for a pool every tensor shares ("512 B"), or one per tensor
  // ({inputs: 24 B, weights: 448 B, outputs: 48 B}); tensors from ParamSpec::choices.
  TensorBytes,
};

enum class Need : uint8_t {
  Required,
  Optional,  // default_text is YAML, parsed exactly like a user's value
  Derived,   // default_text says how the loader derives it from other parameters
};

// A parsed value; the fields that match the parameter's ValueType are set.
struct Value {
  double number = 0;   // every numeric type, in canonical units (bytes as well)
  uint64_t bytes = 0;  // Bytes
  bool flag = false;   // Boolean
  std::string text;    // Text, Choice
  DType dtype = DType::Int8;
  std::vector<std::string> names;  // NameList
  // DTypeRates, OpCosts (keys as written); TensorBytes given as a map (bytes per tensor)
  std::vector<std::pair<std::string, double>> pairs;
};

// Stores a parsed value into the spec; may throw std::out_of_range (reported at the value).
using Apply = std::function<void(Building&, const Value&)>;

struct ParamSpec {
  std::string key;
  ValueType type;
  Need need;
  std::string default_text;          // see Need
  std::string description;           // one line
  bool positive = false;             // zero (or an empty list) is rejected; negatives always are
  std::vector<std::string> choices;  // Choice, NameList, OpCosts
  Apply apply;
  double max = 0;  // > 0: a tighter upper bound than valueRange(type).max
};

struct SectionSpec {
  std::string path;  // "" = the top level, "dram", "host.link"
  bool required = false;
  std::string description;
  std::vector<ParamSpec> params;
  std::function<void(Building&)> enter;  // runs when present, before its parameters
};

// Sections in reading order; a section's children follow it. Storage-level sections appear
// in Accelerator::levels order (DRAM inwards).
const std::vector<SectionSpec>& schema();

// The range every value of a type must lie in, in canonical units. The bounds keep every
// derived quantity finite: a bandwidth of 1e-300 B/cycle would make a transfer take 1e300
// cycles, a 2^63-byte scratchpad would wrap the signed counters it is compared with.
struct ValueRange {
  double min_positive;  // smallest non-zero value
  double max;
  const char* unit;  // canonical unit, for messages; "" for plain numbers
  // 0 means something for this kind of value (no latency, no leakage, DRAM unbounded); where it
  // does not (a supply voltage, a clock, a FLOP rate), 0 is refused wherever it is written.
  bool zero_ok = true;
};
ValueRange valueRange(ValueType t);

// The unit column of the docs: "size (B, KiB, MB, ...)", "bandwidth (B/cycle, GB/s, ...)".
std::string_view unitOf(ValueType t);

// Names the schema accepts, shared with validation and tests.
const std::vector<std::string>& dataflowNames();      // ws, os, is, rs, nlr
const std::vector<std::string>& systolicDataflows();  // ws, os, is
const std::vector<std::string>& sfuOpNames();         // softmax, layernorm, gelu, ...
// The ops added after the first host-cost table (layout: transpose, pad, slice, uint8_shift;
// today's networks: mul, silu, rmsnorm, rope, ...) with their default host cycles per element;
// the last entries of sfuOpNames(). At their defaults they stay out of the arch hash.
const std::vector<std::pair<std::string, double>>& layoutOpDefaults();
const std::vector<std::string>& epilogueOpNames();  // relu, requantize, residual_add, ...

}  // namespace tessel::arch
