// ScopedEnv: sets an environment variable for one test (e.g. a tiny TESSEL_MEMORY_BUDGET, so a
// test of a size check need not allocate gigabytes) and removes it afterwards.
#pragma once

#include <stdlib.h>

namespace tessel::testing {

struct ScopedEnv {
  const char* name;
  ScopedEnv(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
  ~ScopedEnv() { ::unsetenv(name); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
};

}  // namespace tessel::testing
