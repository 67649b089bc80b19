// Random op chains built twice: as one fused OpChain, and as the equivalent sequence of
// standalone (unfused) ops over whole tensors. Used by test_op_chain.cpp.
#pragma once

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kernels/chain/op_chain.h"
#include "kernels/numeric/tensor.h"

namespace tessel::kernels::testing {

struct RandomChain {
  OpChain fused;
  std::vector<std::function<Tensor(Tensor)>> unfused;  // one full-tensor op per stage
  std::vector<std::string> names;                      // for failure messages
  std::string describe() const;
};

// Operands the stages may refer to (residuals, gamma/beta); must outlive the chains.
struct ChainOperands {
  ChainOperands(int64_t rows, int64_t cols, uint32_t seed);
  int64_t rows, cols;
  Tensor res_f, res_i, gamma, beta;
  std::vector<float> bias, colscale;
  std::vector<int32_t> bias_i;
};

// A chain of 1..max_len random stages starting in `start`.
RandomChain randomChain(Domain start, const ChainOperands& ops, std::mt19937& rng,
                        std::optional<QuantParams> input_quant = std::nullopt, int max_len = 6);

}  // namespace tessel::kernels::testing
