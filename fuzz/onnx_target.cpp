// ONNX import: any bytes as a .onnx file (written to a per-process temp file, since the importer
// reads paths). A finding is any exception but ConfigError, or a graph whose counts are
// impossible: a negative dimension, a GEMM-like op whose MACs are not its GEMM view's, a
// non-GEMM op with MACs.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "fuzz/fuzz_one.h"
#include "models/onnx/import.h"
#include "util/error.h"

namespace {

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void check(const tessel::models::Graph& g) {
  for (const auto& t : g.tensors())
    for (int64_t d : t.shape) require(d >= 0);
  for (const auto& op : g.ops()) {
    require(op.macs >= 0);
    if (op.isGemmLike())
      require(op.macs == op.gemm.macs());
    else
      require(op.macs == 0);
    require(!op.outputs.empty() && !op.source.empty());
  }
  g.totalMacs();
  g.parameterCount();
}

}  // namespace

int fuzzOne(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/tessel_fuzz_onnx_" + std::to_string(getpid()) + ".onnx";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  tessel::models::WorkloadOptions o;
  o.batch = 2;
  try {
    check(tessel::models::onnx::importFile(path, o));
  } catch (const tessel::ConfigError&) {
  }
  return 0;
}
