// The fused device of a multi-core design (arch::fusedDevice) is an ordinary accelerator to the
// analytical engine: it maps and runs, computes the same MACs, and a large GEMM finishes sooner
// on it than on one core; a core sharing the DRAM with a busy neighbour finishes later.
#include <gtest/gtest.h>

#include "arch/cores.h"
#include "arch/load.h"
#include "models/workload.h"
#include "sim/run.h"

namespace tessel {
namespace {

arch::Accelerator shipped(const std::string& name, const std::vector<std::string>& overrides) {
  return arch::loadFile(std::string(TESSEL_SOURCE_DIR) + "/configs/arch/" + name + ".yaml",
                        overrides);
}

sim::RunStats gemmOn(const arch::Accelerator& acc, const std::string& gemm) {
  return sim::simulate(models::build(gemm, {}), acc, dataflows::loadDataflow("ws"), {});
}

TEST(SimFusedDevice, ALargeGemmRunsFasterOnTwoFusedCores) {
  const arch::Accelerator one = shipped("gemmini-default", {"cores.count=2"});
  const std::string gemm = "gemm:M=1024,K=1024,N=1024";
  const sim::RunStats single = gemmOn(one, gemm);
  const sim::RunStats fused = gemmOn(arch::fusedDevice(one), gemm);
  EXPECT_EQ(fused.totalMacs(), single.totalMacs());
  EXPECT_LT(fused.totalCycles(), single.totalCycles());
  // Twice the PEs: at best half the time (the DRAM is shared, so not always that).
  EXPECT_GE(fused.totalCycles(), 0.5 * single.totalCycles() * 0.99);
}

TEST(SimFusedDevice, ACoreSharingTheDramRunsSlower) {
  const arch::Accelerator one = shipped("gemmini-default", {"cores.count=2"});
  const std::string gemm = "gemm:M=256,K=4096,N=256";  // weight-heavy: DRAM-bound
  EXPECT_GT(gemmOn(arch::coreSharing(one, 2), gemm).totalCycles(), gemmOn(one, gemm).totalCycles());
}

}  // namespace
}  // namespace tessel
