// What each value type of the schema accepts: its range in canonical units and the unit column
// of the docs. Kept apart from the table of parameters (schema.cpp).
#include "arch/schema.h"

namespace tessel::arch {

using T = ValueType;

ValueRange valueRange(ValueType t) {
  switch (t) {
    case T::Bytes:
    case T::TensorBytes:
      return {1, static_cast<double>(uint64_t{1} << 50), "B (1 PiB)"};
    case T::Bandwidth:
      return {1e-6, 1e12, "B/cycle"};
    case T::ByteRate:
      return {1e3, 1e18, "B/s"};
    case T::Frequency:
      return {1e3, 1e13, "Hz", false};
    case T::Time:
      return {1e-9, 1e12, "cycles"};
    case T::Energy:
    case T::EnergyPerByte:
      return {1e-9, 1e9, "pJ"};
    case T::FlopRate:
      return {1e3, 1e21, "FLOP/s", false};
    case T::Area:
      return {1e-12, 1e5, "mm2"};
    case T::Power:
      return {1e-9, 1e9, "mW"};
    case T::Voltage:
      return {0.05, 5, "V", false};
    case T::Length:
      return {1e-3, 1e6, "um"};
    case T::Integer:
      return {1, static_cast<double>(1 << 20), ""};
    default:
      return {1e-6, 1e9, ""};  // T::Real and the numbers of maps
  }
}

std::string_view unitOf(ValueType t) {
  switch (t) {
    case T::Bytes:
      return "size (B, KiB, MiB, GiB, kB, MB, GB)";
    case T::Bandwidth:
      return "bandwidth (B/cycle, GB/s, ...)";
    case T::ByteRate:
      return "byte rate (GB/s, ...)";
    case T::Frequency:
      return "frequency (MHz, GHz)";
    case T::Time:
      return "time (cycles, ns, us)";
    case T::Energy:
      return "energy (pJ, nJ)";
    case T::EnergyPerByte:
      return "energy per byte (pJ/B)";
    case T::FlopRate:
      return "FLOP rate (GFLOP/s, ...)";
    case T::Area:
      return "area (um2, mm2)";
    case T::Power:
      return "power (uW, mW, W)";
    case T::Voltage:
      return "voltage (V, mV)";
    case T::Length:
      return "length (nm, um, mm)";
    case T::Integer:
      return "integer";
    case T::Real:
      return "number";
    case T::Boolean:
      return "true | false";
    case T::Text:
      return "text";
    case T::DTypeName:
      return "dtype (int8, int16, int32, fp16, bf16, fp32, int4, uint4, fp8_e4m3, fp8_e5m2, fp6_e3m2, "
             "fp6_e2m3, fp4_e2m1, mxfp8_e4m3, mxfp8_e5m2, mxfp6_e3m2, mxfp6_e2m3, mxfp4, mxint8, "
             "<element>_g<block>_<scale>)";
    case T::Choice:
      return "one of";
    case T::NameList:
      return "list of";
    case T::DTypeRates:
      return "map dtype (or activation*weight pair, e.g. bf16*int4) -> number";
    case T::OpCosts:
      return "map op -> cycles";
    case T::TensorBytes:
      return "size (B, KiB, ...) shared, or map tensor -> size";
  }
  return "";
}

}  // namespace tessel::arch
