// Dataflow files: parsed, then held to what a shipped Gemmini-like design can run.
#include <string>

#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "fuzz/fuzz_one.h"
#include "util/error.h"

int fuzzOne(const uint8_t* data, size_t size) {
  static const tessel::arch::Accelerator acc =
      tessel::arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml");
  try {
    const auto df = tessel::dataflows::parseDataflow(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    if (df.row_dim == df.col_dim || df.array_kinds.empty()) __builtin_trap();
    tessel::dataflows::checkRunnable(df, acc);
  } catch (const tessel::ConfigError&) {
  }
  return 0;
}
