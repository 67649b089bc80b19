// The most capable instruction set the kernels may use on this run. Every run-time dispatch in
// the kernels -- the INT8 micro-kernels, requantization and the AVX2 builds of the row loops --
// stays at or below it, and each path gives the same bits (tests/kernels/test_isa_paths.cpp):
// the ceiling exists so one machine can run, and compare, the paths every other CPU would take.
#pragma once

#include <string_view>

namespace tessel::kernels {

enum class IsaLevel { Portable, Avx2, Avx512 };

std::string_view nameOf(IsaLevel level);

// What the CPU supports, lowered by the environment variable TESSEL_ISA (portable | avx2 |
// avx512 | auto) when set; throws Error on any other value. Read once per process unless
// setIsaCeiling is called.
IsaLevel isaCeiling();

// Forces the ceiling (tests, benchmarks); a level above what the CPU supports is lowered to it.
void setIsaCeiling(IsaLevel level);

namespace detail {
bool cpuHas(IsaLevel level);
// True when the AVX2 build of a hot loop may run (read on every call; one relaxed atomic load).
bool useAvx2();
}  // namespace detail

}  // namespace tessel::kernels
