#include "dataflows/host_conversions.h"

#include "dataflows/plan.h"
#include "models/fuse.h"
#include "models/precision.h"

namespace tessel::dataflows {

using models::OpKind;

std::vector<bool> hostFloatOps(const models::Graph& g, const arch::Accelerator& acc, bool fuse) {
  const auto placed = [&](const models::Op& op) {
    return placementOf(op, acc, g);
  };
  const models::Fusion fusion = fuse ? models::fuse(g, fuseRulesFor(acc)) : models::Fusion{};
  std::vector<bool> host(g.ops().size(), false);
  for (const models::Op& op : g.ops()) {
    if (op.isGemmLike() || op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize) continue;
    // Layout ops move bytes in whatever dtype they carry: no arithmetic, no conversion.
    if (op.opClass() == models::OpClass::Layout) continue;
    // A member of an accelerator GEMM's epilogue runs as the tile drains (plan() runs the
    // epilogue of a host-run GEMM op by op instead).
    const models::FusionGroup* group =
        fusion.isFusedMember(op.id) ? fusion.groupOf(op.id) : nullptr;
    if (group && placed(g.op(group->anchor)) != Placement::Host) continue;
    host[static_cast<size_t>(op.id)] = placed(op) == Placement::Host;
  }
  return host;
}

models::Graph withHostConversions(const models::Graph& g, const arch::Accelerator& acc, bool fuse) {
  const std::vector<bool> host = hostFloatOps(g, acc, fuse);
  const auto onHost = [&](const models::Op& op) { return host[static_cast<size_t>(op.id)]; };
  // The host has no instructions for integers-as-reals nor for fp8/fp6/fp4 and block-scaled data.
  const auto fp = [](DType d) { return isInteger(d) || isNarrowFloat(d) ? DType::FP32 : d; };
  models::DTypeChoice choice;
  choice.input = [&](const models::Op& op, size_t i) {
    const DType d = g.tensor(op.inputs[i]).dtype;
    return onHost(op) ? fp(d) : d;
  };
  choice.output = [&](const models::Op& op, size_t i) {
    const DType d = g.tensor(op.outputs[i]).dtype;
    return onHost(op) ? fp(d) : d;
  };
  // The host keeps its parameters in fp32; graph inputs (ids, a KV cache) stay as given.
  choice.stored = [](const models::Tensor& t, DType first_read) {
    return t.role == models::TensorRole::Weight ? first_read : t.dtype;
  };
  return models::retype(g, choice);
}

}  // namespace tessel::dataflows
