// Runtime ISA dispatch for hot loops (kernels-internal): GCC builds an AVX2 clone and a
// baseline clone and picks one at load time, so the default build stays portable. No FMA in the
// clone (and -ffp-contract=off), so both clones give bit-identical float results.
#pragma once

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TESSEL_HOT __attribute__((target_clones("avx2", "default")))
#else
#define TESSEL_HOT
#endif
