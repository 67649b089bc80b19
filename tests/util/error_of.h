// errorOf(f): runs f, expects a ConfigError and returns its what() for matching.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace tessel::testing {

template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError thrown";
  return "";
}

}  // namespace tessel::testing
