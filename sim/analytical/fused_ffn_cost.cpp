// The cost of an FFN group (fused_cost.h): its row blocks and hidden chunks through the three
// overlapped stages — block GEMMs on the array, the activation (and the gate's product) on the
// vector unit, the edge tensors' transfers in closed form.
#include <algorithm>
#include <limits>

#include "sim/analytical/fused_detail.h"
#include "util/error.h"

namespace tessel::sim::analytical::detail {

using dataflows::FfnDims;
using dataflows::FusedGroup;

namespace {

// FFN `partials`: each chunk after the first brings the row block's running output from the L2
// into the accumulator and each but the last sends it back, (chunks - 1) reads and writes of its
// partial sums, through the accumulator's output port beside the down blocks' own accumulation.
void runningOutput(GroupCost& c, MemberCost& down, BlockTotals& down_time, const FusedGroup& grp,
                   const FfnDims& d, double chunks, const MemoryModel& mem,
                   const arch::Accelerator& acc) {
  const auto out = static_cast<size_t>(mem.localOutputs());
  const double y = accumBytes(acc) * static_cast<double>(d.rows * d.out) * (chunks - 1);
  read(down, grp.partials_level, kOut, y);  // the search places it in the L2 only: off chip
  write(down, grp.partials_level, kOut, y, true);
  down.writes[out][kOut] += y;
  down.reads[out][kOut] += y;
  const FusedGroup::Block& b = grp.blocks.back();  // the down projection's
  const double rate = b.mapping.has_nest && b.mapping.hw
                          ? outputPortRate(*b.mapping.hw)
                          : std::numeric_limits<double>::infinity();
  const double busy = std::max(down_time.busy, down_time.out_port + 2 * y / rate);
  c.partials_port_cycles = busy - down_time.busy;
  down_time.busy = busy;
}

}  // namespace

// An FFN's row blocks x hidden chunks: the up (and gate) block GEMMs, the activation (and the
// product) on the vector unit, then the down block GEMM accumulating the row block's output —
// or, for the gate-up half, the product leaving the chip chunk by chunk.
GroupCost ffnCost(const FusedGroup& grp, const models::Graph& g, const arch::Accelerator& acc,
                  const MemoryModel& mem, GroupCost c) {
  const models::ChainGroup& ch = grp.chain;
  const FfnDims d = dataflows::ffnDims(ch, g);
  const int64_t row_blocks = (d.rows + grp.block_rows - 1) / grp.block_rows;
  std::vector<std::pair<int, BlockTotals>> gemms;
  for (const FusedGroup::Block& blk : grp.blocks) {
    gemms.emplace_back(blk.op, addBlock(member(c, blk.op), blk, g, acc));
  }
  for (int id : ch.ops) {
    const models::Op& op = g.op(id);
    if (op.isGemmLike()) member(c, id).macs = op.macs;
  }
  const int in = mem.localInputs();
  MemberCost& first = member(c, ch.up.front());
  MemberCost& last = member(c, ch.ffnOutput());
  const double chunks = static_cast<double>((d.hidden + grp.block_cols - 1) / grp.block_cols);
  // The input once per row block, or again for every hidden chunk when it is streamed: from
  // the L2 that holds the running output, where a row block from DRAM is staged once.
  const double x = bytesOf(d.x, static_cast<double>(d.rows * d.model));
  if (!grp.stream_input) {
    read(first, grp.homes[0], kIn, x);
    write(first, in, kIn, x, false);
  } else {
    const int stage = grp.stagingLevel();
    stream(first, kIn, grp.homes[0], stage, in, x, x * chunks, mem);
  }
  if (grp.partials_level >= 0 && chunks > 1) {
    for (auto& [op, t] : gemms) {
      if (op == ch.down) runningOutput(c, last, t, grp, d, chunks, mem, acc);
    }
  }
  const double rb = static_cast<double>(row_blocks);
  for (int id : ch.up) {
    const double w = bytesOf(d.w, static_cast<double>(d.model * d.hidden));
    stream(member(c, id), kW, 0, grp.resident_level, in, w, w * rb, mem);
  }
  const double hidden = static_cast<double>(d.rows * d.hidden);
  const bool out_offchip = mem.offChip(static_cast<size_t>(grp.homes[3]));
  if (ch.gateUp()) {
    // The vector unit writes each chunk's product where the up blocks' results waited; the DMA
    // stores it from there to its home, once.
    write(last, in, kOut, bytesOf(d.h, hidden), false);
    write(last, grp.homes[3], kOut, bytesOf(d.h, hidden), out_offchip);
  } else {
    const double wd = bytesOf(g.tensor(g.op(ch.down).inputs.at(1)).dtype,
                              static_cast<double>(d.hidden * d.out));
    stream(last, kW, 0, grp.resident_level, in, wd, wd * rb, mem);
    write(last, in, kIn, bytesOf(d.h, hidden), false);  // the vector unit's output
    write(last, grp.homes[3], kOut, bytesOf(d.y, static_cast<double>(d.rows * d.out)),
          out_offchip);
  }
  Stages st;
  double elements = 0;
  for (int id : {ch.activation, ch.gate_mul}) {
    if (id < 0) continue;
    const models::Op& op = g.op(id);
    const double per = vectorCyclesPerElement(op, acc);
    if (per < 0) throw InfeasibleError("op '" + op.name + "' has no vector unit to fuse on");
    st.vector += passes(op, g, acc) * hidden * per;
    elements += passes(op, g, acc) * hidden;
    member(c, id).epilogue_pj = epiloguePj(op, acc, hidden);
  }
  member(c, ch.activation).sfu_pj = acc.sfu ? elements * acc.sfu->energy_pj_per_element : 0;
  for (const auto& [op, t] : gemms) st.array += t.busy;
  st.memory = mem.cycles(sum(c));
  st.steps = rb * chunks;
  finish(c, st, gemms, ch.activation, ch.ffnOutput(), mem);
  return c;
}


}  // namespace tessel::sim::analytical::detail
