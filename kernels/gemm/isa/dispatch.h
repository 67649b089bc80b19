// Run-time ISA dispatch for hot loops (kernels-internal). A hot loop is written once, as an
// always-inline body `<name>Body`; TESSEL_HOT_LOOP builds that body twice -- for AVX2 and for the
// x86-64 baseline -- and defines `<name>` to call the build the ISA ceiling allows
// (kernels/gemm/isa/ceiling.h), so the default build stays portable and a test can force either.
// No FMA in either build (-ffp-contract=off) and no reordered reduction (no -ffast-math): both
// builds give the same bits.
#pragma once

#include "kernels/gemm/isa/ceiling.h"

#define TESSEL_LOOP_BODY static inline __attribute__((always_inline))

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TESSEL_HOT_LOOP(ret, name, params, args)                                           \
  __attribute__((target("avx2"))) static ret name##Avx2 params { return name##Body args; } \
  static ret name##Base params { return name##Body args; }                                 \
  ret name params {                                                                        \
    return ::tessel::kernels::detail::useAvx2() ? name##Avx2 args : name##Base args;       \
  }
#else
#define TESSEL_HOT_LOOP(ret, name, params, args) \
  ret name params { return name##Body args; }
#endif
