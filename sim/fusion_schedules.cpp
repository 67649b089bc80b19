#include "sim/fusion_schedules.h"

#include <algorithm>

namespace tessel::sim {

namespace {

using dataflows::FusedGroup;

std::vector<int64_t> descending(std::vector<int64_t> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

// A block GEMM: the member op's GEMM at block size.
FusedGroup::Block block(const models::Graph& g, int op_id, models::GemmShape shape, double count) {
  models::Op op = g.op(op_id);
  op.gemm = shape;
  FusedGroup::Block b;
  b.op = op_id;
  b.problem = dataflows::problemOf(op, g);
  b.count = count;
  return b;
}

}  // namespace

std::vector<int> residentLevels(const arch::Accelerator& acc, const analytical::MemoryModel& mem,
                                int home, double bytes) {
  std::vector<int> r{-1};
  const int l2 = mem.l2();
  if (l2 >= 0 && l2 != home &&
      bytes <= static_cast<double>(acc.levels[static_cast<size_t>(l2)].capacity_bytes) / 2) {
    r.push_back(l2);
  }
  r.push_back(mem.localInputs());
  return r;
}

double attentionKvBytes(const models::Graph& g, const models::ChainGroup& c) {
  const dataflows::AttentionDims d = dataflows::attentionDims(c, g);
  return static_cast<double>(d.units * d.keys) *
         static_cast<double>(storageBytes(d.k, d.head_dim) + storageBytes(d.v, d.value_dim));
}

double ffnWeightBytes(const models::Graph& g, const models::ChainGroup& c) {
  const dataflows::FfnDims d = dataflows::ffnDims(c, g);
  return static_cast<double>(storageBytes(d.w, d.hidden)) *
         static_cast<double>(d.ups * d.model + d.out);
}

std::vector<FusedGroup> attentionSchedules(const models::Graph& g, const models::ChainGroup& c,
                                           const std::array<int, 4>& homes,
                                           const std::vector<int>& residents) {
  const dataflows::AttentionDims d = dataflows::attentionDims(c, g);
  std::vector<FusedGroup> out;
  for (int64_t br : descending(dataflows::blockSizes(d.queries))) {
    for (int64_t bc : descending(dataflows::blockSizes(d.keys))) {
      const dataflows::AttentionBlocks b = dataflows::attentionBlocks(d, br, bc);
      for (int resident : residents) {
        FusedGroup grp;
        grp.chain = c;
        grp.block_rows = br;
        grp.block_cols = bc;
        grp.online_softmax = bc < d.keys;
        grp.resident_level = resident;
        grp.homes = homes;
        const double n = static_cast<double>(b.blocks);
        const int64_t rows = d.group * std::min(br, d.queries), cols = std::min(bc, d.keys);
        grp.blocks.push_back(block(g, c.score, {d.units, rows, cols, d.head_dim}, n));
        grp.blocks.push_back(block(g, c.context, {d.units, rows, d.value_dim, cols}, n));
        out.push_back(std::move(grp));
      }
    }
  }
  return out;
}

std::vector<FusedGroup> ffnSchedules(const models::Graph& g, const models::ChainGroup& c,
                                     const std::array<int, 4>& homes,
                                     const std::vector<int>& residents, int l2) {
  const dataflows::FfnDims d = dataflows::ffnDims(c, g);
  std::vector<std::pair<int, bool>> outputs{{-1, false}};  // (running output's level, streamed input)
  if (c.gateUp()) {
    outputs.emplace_back(-1, true);
    // Streamed from a home other than the L2: each row block staged there once.
    if (l2 >= 0 && homes[0] != l2) outputs.emplace_back(-2, true);
  } else if (l2 >= 0) {
    outputs.insert(outputs.end(), {{l2, false}, {l2, true}});
  }
  std::vector<FusedGroup> out;
  for (int64_t tm : descending(dataflows::blockSizes(d.rows))) {
    for (int64_t tf : descending(dataflows::blockSizes(d.hidden, 64))) {
      for (int resident : residents) {
        for (const auto& [partials, stream_input] : outputs) {
          FusedGroup grp;
          grp.chain = c;
          grp.block_rows = tm;
          grp.block_cols = tf;
          grp.resident_level = resident;
          grp.partials_level = std::max(partials, -1);
          grp.stream_input = stream_input;
          if (partials == -2) grp.stage_level = l2;
          grp.homes = homes;
          const int64_t rows = std::min(tm, d.rows), cols = std::min(tf, d.hidden);
          const double n =
              static_cast<double>(((d.rows + tm - 1) / tm) * ((d.hidden + tf - 1) / tf));
          for (int up : c.up) grp.blocks.push_back(block(g, up, {1, rows, cols, d.model}, n));
          if (!c.gateUp()) grp.blocks.push_back(block(g, c.down, {1, rows, d.out, cols}, n));
          out.push_back(std::move(grp));
        }
      }
    }
  }
  return out;
}

}  // namespace tessel::sim
