// The main of every SystemC test binary. libsystemc defines `main` and calls `sc_main`, so a
// binary that links SystemC must not also link gtest_main: depending on link order one of the two
// mains wins and the other's tests silently never run. This sc_main runs the tests, and refuses
// to pass a binary that registered none.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace {
// SystemC prints its banner before sc_main runs unless this is set.
const bool kQuietSystemc = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

// libsystemc calls sc_main with C linkage.
extern "C" int sc_main(int argc, char** argv) {
  (void)kQuietSystemc;
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::UnitTest::GetInstance()->total_test_count() == 0) {
    std::fprintf(stderr, "no tests registered in this binary\n");
    return 1;
  }
  return RUN_ALL_TESTS();
}
