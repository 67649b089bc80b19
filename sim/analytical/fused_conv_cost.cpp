// A depth-first conv chain's cost (dataflows/conv_chain.h), in the stages of fused_cost.h:
//   - the array runs one block GEMM per conv per tile: the conv at the largest tile's size, its
//     count the positions it computes over the block's (halos recomputed included);
//   - the vector unit runs the convs' per-element members the SFU runs (none when the
//     accumulator's drain applies them), as the unfused epilogue would;
//   - memory: the chain's input is read from its home tile by tile (each tile's window; once
//     with keep), the last conv's output written once, each conv's weights read once when they
//     stay resident, else once per tile; the intermediates only fill the local buffer.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dataflows/conv_chain.h"
#include "dataflows/mapper.h"
#include "sim/analytical/fused_detail.h"
#include "sim/analytical/vector_model.h"

namespace tessel::sim::analytical {

using dataflows::ConvBands;
using dataflows::ConvChainDims;
using dataflows::FusedGroup;

namespace detail {

namespace {

// The chain's dims, the last conv's output in the dtype its plan writes (its epilogue's last),
// which the search gave its block.
ConvChainDims dimsOf(const FusedGroup& grp, const models::Graph& g) {
  ConvChainDims d = dataflows::convChainDims(grp.chain, g);
  if (grp.blocks.size() == d.convs.size())
    d.convs.back().out = grp.blocks.back().problem.output_dtype;
  return d;
}

// The level a per-element member works on: the output of the last conv before it.
size_t levelOf(const models::ChainGroup& c, int op) {
  size_t level = 0;
  for (size_t i = 0; i < c.convs.size(); ++i) {
    if (c.convs[i] < op) level = i + 1;
  }
  return level;
}

double bytesAt(const ConvChainDims& d, size_t level, double positions) {
  return bytesOf(d.dtype(level), positions * static_cast<double>(d.channels(level)));
}

// The edge tensors: the chain's input from its home into the local buffer, each intermediate
// into it as the previous conv drains, the weights, the last output to its home.
void edges(GroupCost& c, const FusedGroup& grp, const ConvChainDims& d, const ConvBands& b,
           const arch::Accelerator& acc, const MemoryModel& mem) {
  const int in = mem.localInputs();
  const double n = static_cast<double>(d.images);
  const bool bypass = dataflows::localCapacity(acc, false).weights_bypass;
  for (size_t i = 0; i < d.convs.size(); ++i) {
    const dataflows::ConvLayer& l = d.convs[i];
    MemberCost& m = member(c, l.op);
    m.macs = std::llround(n * b.positions[i + 1] * static_cast<double>(l.macsPerPosition()));
    const double x = bytesAt(d, i, n * b.positions[i]);
    if (i == 0) read(m, grp.homes[0], kIn, x);
    write(m, in, kIn, x, false);
    const double w = static_cast<double>(l.weightBytes());
    const double each = w * n * static_cast<double>(b.tiles);
    if (bypass && grp.resident_level < 0) {
      read(m, 0, kW, each);  // through the array's weight FIFO, past the scratchpad
    } else {
      stream(m, kW, 0, grp.resident_level, in, w, each, mem);
    }
  }
  const size_t top = d.convs.size();
  write(member(c, d.convs.back().op), grp.homes[3], kOut, bytesAt(d, top, n * b.positions[top]),
        mem.offChip(static_cast<size_t>(grp.homes[3])));
}

// The pipeline's fill. One tile's convs run in turn, each after the conv before it and its
// weights (the DMA loads the input, then the weights in conv order, the later ones while the
// earlier convs compute); its output leaves after the last: with one tile that is the whole
// time. With more, while the array binds, it waits for the first tile's input and first weights
// and the last tile's output leaves after it; else one step of the others (-1).
double fillOf(const FusedGroup& grp, const ConvChainDims& d, const ConvBands& b, const Stages& st,
              const std::vector<std::pair<int, BlockTotals>>& gemms, const MemoryModel& mem) {
  const double top = std::max({st.array, st.vector, st.memory});
  Transfer loads, store;
  loads.read[static_cast<size_t>(grp.homes[0])] += bytesAt(d, 0, static_cast<double>(b.first_in));
  store.write[static_cast<size_t>(grp.homes[3])] +=
      bytesAt(d, d.convs.size(), static_cast<double>(b.last_out));
  if (st.steps <= 1) {
    double array = 0;
    for (size_t i = 0; i < d.convs.size() && i < gemms.size(); ++i) {
      loads.read[0] += static_cast<double>(d.convs[i].weightBytes());
      array = std::max(array, mem.cycles(loads)) + gemms[i].second.busy;
    }
    return std::max(0.0, array + st.vector + mem.cycles(store) - top);
  }
  if (st.array < std::max(st.memory, st.vector)) return -1;
  loads.read[0] += static_cast<double>(d.convs.front().weightBytes());
  return std::min(st.vector + st.memory, mem.cycles(loads) + mem.cycles(store));
}

}  // namespace

GroupCost convChainCost(const FusedGroup& grp, const models::Graph& g, const arch::Accelerator& acc,
                        const MemoryModel& mem, GroupCost c) {
  const models::ChainGroup& ch = grp.chain;
  const ConvChainDims d = dimsOf(grp, g);
  const ConvBands b = dataflows::convBands(d, grp.block_rows, grp.block_cols, grp.keep_halo);
  std::vector<std::pair<int, BlockTotals>> gemms;
  for (const FusedGroup::Block& blk : grp.blocks) {
    gemms.emplace_back(blk.op, addBlock(member(c, blk.op), blk, g, acc));
  }
  edges(c, grp, d, b, acc, mem);
  Stages st;
  int vector_op = -1;
  for (int id : ch.ops) {
    if (g.op(id).kind == models::OpKind::Conv2d) continue;
    const VectorCost v = convMemberVector(grp, g, acc, mem, id);
    const double cycles = v.cycles[static_cast<size_t>(Cause::Sfu)];
    if (cycles > 0 && vector_op < 0) vector_op = id;
    st.vector += cycles;
    member(c, id).sfu_pj = acc.sfu ? v.sfu_elements * acc.sfu->energy_pj_per_element : 0;
    member(c, id).epilogue_pj = v.epilogue_pj;
  }
  for (const auto& [op, t] : gemms) st.array += t.busy;
  st.memory = mem.cycles(sum(c));
  st.steps = static_cast<double>(d.images * b.tiles);
  st.fill = fillOf(grp, d, b, st, gemms, mem);
  const int last = d.convs.back().op;
  // Without vector work the pipeline's fill is the DMA's: loads and stores.
  finish(c, st, gemms, vector_op >= 0 ? vector_op : last, last, mem,
         vector_op >= 0 ? Cause::Sfu : Cause::MemoryStall);
  return c;
}

}  // namespace detail

VectorCost convMemberVector(const FusedGroup& grp, const models::Graph& g,
                            const arch::Accelerator& acc, const MemoryModel& mem, int id) {
  const ConvChainDims d = detail::dimsOf(grp, g);
  const ConvBands b = dataflows::convBands(d, grp.block_rows, grp.block_cols, grp.keep_halo);
  const size_t level = detail::levelOf(grp.chain, id);
  const models::Op& op = g.op(id);
  dataflows::OpPlan p;
  p.op = &op;
  p.graph = &g;
  p.placement = dataflows::Placement::Fused;
  p.unit_op = dataflows::unitOpName(op);
  p.elements = std::llround(static_cast<double>(d.images) * b.positions[level] *
                            static_cast<double>(d.channels(level)));
  return evaluateFused(p, g, acc, mem);
}

namespace detail {

LocalNeed convChainNeed(const FusedGroup& grp, const models::Graph& g,
                        const arch::Accelerator& acc) {
  const ConvChainDims d = dimsOf(grp, g);
  const ConvBands b = dataflows::convBands(d, grp.block_rows, grp.block_cols, grp.keep_halo);
  const dataflows::LocalCapacity cap = dataflows::localCapacity(acc, false);
  const size_t top = d.convs.size();
  LocalNeed need;
  // The input's window, and the next tile's part of it loading while this one computes; every
  // intermediate's window (with keep, its line buffer too).
  const double next =
      d.images * b.tiles > 1 ? static_cast<double>(b.block_rows[0] * b.block_cols[0]) : 0;
  need.inputs = bytesAt(d, 0, static_cast<double>(b.held[0]) + next);
  for (size_t l = 1; l < top; ++l) need.inputs += bytesAt(d, l, static_cast<double>(b.held[l]));
  // Every conv's weights when they stay here, else two chunks of one array width of output
  // channels of the largest; nothing when they bypass the buffer.
  double all = 0, chunk = 0;
  for (const dataflows::ConvLayer& l : d.convs) {
    const double w = static_cast<double>(l.weightBytes());
    all += w;
    chunk = std::max(chunk, w * std::min(1.0, static_cast<double>(acc.array.cols) /
                                                  static_cast<double>(l.shape.k)));
  }
  const bool here =
      grp.resident_level >= 0 && grp.resident_level == MemoryModel(acc, false).localInputs();
  if (here && cap.weights_bypass) need.inputs = std::numeric_limits<double>::infinity();
  if (!cap.weights_bypass) need.inputs += here ? all : 2 * chunk;
  // The accumulator holds the block GEMMs' own tiles (their mappings fit them); a shared buffer
  // also holds the last output's tile until it is stored.
  if (cap.shared || cap.output_bytes <= 0)
    need.inputs += bytesAt(d, top, static_cast<double>(b.held[top]));
  return need;
}

}  // namespace detail
}  // namespace tessel::sim::analytical
