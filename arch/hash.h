// The digest behind Accelerator::hash(), exposed so tests can check it against known vectors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessel::arch {

// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
uint64_t fnv1a64(std::string_view bytes);
// 16 lower-case hex digits, zero-padded.
std::string toHex(uint64_t value);

}  // namespace tessel::arch
