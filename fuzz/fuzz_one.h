// One fuzz target's body: takes any bytes, returns 0, and aborts (an escaping exception or
// __builtin_trap) only on a real finding. The libFuzzer entry point (fuzz_main.cpp) and the
// regression replay test (tests/fuzz) both call it.
#pragma once

#include <cstddef>
#include <cstdint>

int fuzzOne(const uint8_t* data, size_t size);
