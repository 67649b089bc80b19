// Values with units, as users write them in YAML and -p overrides ("256 KiB", "16 B/cycle",
// "1 GHz", "100 ns", "0.2 pJ", "20 pJ/B", "32 GFLOP/s"), turned into canonical numbers.
// Units are case-sensitive; a space between number and unit is optional. Negative, NaN,
// infinite, malformed values and unknown units throw ConfigError at the caller's `where`,
// naming the accepted units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/error.h"

namespace tessel::units {

// Bytes. B, kB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024); a plain
// integer is bytes. The result must be a whole number of bytes.
uint64_t parseBytes(std::string_view text, const SourceLocation& where);

// Bytes per cycle of `clock_hz`. B/cycle, or any size unit per second (e.g. "25.6 GB/s",
// "1 TB/s"), divided by the clock. A plain number is B/cycle.
double parseBandwidth(std::string_view text, double clock_hz, const SourceLocation& where);

// Bytes per second: the same units as parseBandwidth; per-cycle rates are multiplied by
// `clock_hz`. A plain number is rejected (ambiguous).
double parseByteRate(std::string_view text, double clock_hz, const SourceLocation& where);

// Hertz: Hz, kHz, MHz, GHz. A unit is required.
double parseFrequency(std::string_view text, const SourceLocation& where);

// Cycles of `clock_hz`: "100 cycles" / "1 cycle" as is, or ps, ns, us, ms, s times the clock.
// A plain number is cycles. The result may be fractional (1 ns at 700 MHz = 0.7 cycles).
double parseCycles(std::string_view text, double clock_hz, const SourceLocation& where);

// Seconds: ps, ns, us, ms, s. A unit is required.
double parseSeconds(std::string_view text, const SourceLocation& where);

// Picojoules: fJ, pJ, nJ, uJ, mJ, J. A unit is required.
double parseEnergy(std::string_view text, const SourceLocation& where);

// Picojoules per byte: an energy unit over B (e.g. "20 pJ/B"). A unit is required.
double parseEnergyPerByte(std::string_view text, const SourceLocation& where);

// Square millimetres: um2, mm2, cm2 (also written um^2, mm^2). A unit is required.
double parseArea(std::string_view text, const SourceLocation& where);

// Milliwatts: nW, uW, mW, W. A unit is required.
double parsePower(std::string_view text, const SourceLocation& where);

// Volts: mV, V. A unit is required.
double parseVoltage(std::string_view text, const SourceLocation& where);

// Micrometres: nm, um, mm. A unit is required.
double parseLength(std::string_view text, const SourceLocation& where);

// Floating-point operations per second: FLOP/s, kFLOP/s, MFLOP/s, GFLOP/s, TFLOP/s, PFLOP/s.
double parseFlopRate(std::string_view text, const SourceLocation& where);

// Human forms for summaries: "256 KiB", "2 MB", "1.5 KiB", "1 GHz", "700 MHz", "25.6".
std::string formatBytes(uint64_t bytes);
std::string formatFrequency(double hz);
std::string formatNumber(double value);  // shortest of up to 6 significant digits
std::string formatCount(int64_t value);  // thousands grouped: "1,000,001"
// One double through a printf format ("%.3f", "%+.1f%%"), at most 63 characters.
std::string formatWith(const char* printf_format, double value);
std::string formatFixed(double value, int digits);  // "%.<digits>f": formatFixed(2.345, 1) = "2.3"

}  // namespace tessel::units
