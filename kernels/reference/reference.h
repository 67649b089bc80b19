// A naive double-precision executor for the FP32 semantics of every op kind: plain loops,
// written independently of the kernels, used to check the FP32 executor. Conversion ops are
// identities (FP32 semantics); inputs and weights are the store's FP32 values.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/weights/store.h"
#include "models/graph.h"

namespace tessel::kernels {

using RefValues = std::unordered_map<std::string, std::vector<double>>;

// Every op output of g, by tensor name. Slow (no blocking, no vectorization): small graphs only.
RefValues runDoubleReference(const models::Graph& g, WeightStore& weights);

namespace ref {

// The op on double values: `in` holds its inputs in order, `out` is resized to its output.
void matmul(const models::Graph& g, const models::Op& op,
            const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void attention(const models::Graph& g, const models::Op& op,
               const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void conv(const models::Graph& g, const models::Op& op,
          const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void pooling(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
             std::vector<double>& out);
void rowwise(const models::Graph& g, const models::Op& op,
             const std::vector<const std::vector<double>*>& in, std::vector<double>& out);

// Today's op kinds (modern.cpp, layout.cpp).
void elementwiseExt(const models::Graph& g, const models::Op& op,
                    const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void rmsNorm(const models::Graph& g, const models::Op& op,
             const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void rope(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
          std::vector<double>& out);
void reduce(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
            std::vector<double>& out);
void layout(const models::Graph& g, const models::Op& op,
            const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void batchedMatmul(const models::Graph& g, const models::Op& op,
                   const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void convGeneral(const models::Graph& g, const models::Op& op,
                 const std::vector<const std::vector<double>*>& in, std::vector<double>& out);
void poolChannelsFirst(const models::Graph& g, const models::Op& op, const std::vector<double>& x,
                       std::vector<double>& out);

}  // namespace ref
}  // namespace tessel::kernels
