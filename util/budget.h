// What a run may spend before it shows anything: sizes read from input files and options are
// checked here BEFORE the containers they size are allocated, so a config of a million layers
// or a stream of 10^8 requests is refused in a moment, naming the field or option, instead of
// running until the machine kills it.
//
// Memory: the bytes available to this process, read from the machine (MemAvailable in
// /proc/meminfo, else physical memory from sysconf), or TESSEL_MEMORY_BUDGET ("64 MiB", or
// bytes) when set: tests set a tiny budget instead of allocating gigabytes.
// Time: an hour of estimated work before the first output (a run that long looks hung and is
// usually a typo: 10^8 for 10^6), or TESSEL_TIME_BUDGET seconds when set. Work that streams its
// output is not bound by it.
#pragma once

#include <cstdint>
#include <string>

#include "util/error.h"

namespace tessel::budget {

// Bytes this run may hold (see above); 0 when the machine does not say (then nothing is refused).
uint64_t memoryBytes();
// "this machine has 21.5 GiB available", or "TESSEL_MEMORY_BUDGET allows 64.0 KiB": what a
// refusal compares with.
std::string memoryText();
// Seconds of work this run may take before its first output.
double workSeconds();

// ConfigError at `where` unless `count` items of `bytes_per_item` each fit memoryBytes():
// "1,000,001 layers would need about 2.1 GiB of memory; this machine has 1.5 GiB available".
// `what` names the items in the plural ("layers", "requests"); a product that overflows 64 bits
// is refused the same way. bytes_per_item is estimated from the structures each item fills.
void checkCount(int64_t count, int64_t bytes_per_item, const std::string& what,
                const SourceLocation& where);

// ConfigError at `where` unless `count` items of `seconds_per_item` each fit workSeconds():
// "100,000,000 requests would take about 28 hours before any output (...)".
void checkWork(double count, double seconds_per_item, const std::string& what,
               const SourceLocation& where);

}  // namespace tessel::budget
