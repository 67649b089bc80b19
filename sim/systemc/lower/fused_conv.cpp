// Lowering a depth-first conv chain (dataflows/conv_chain.h) to its tile pipeline. A step is one
// tile of one image (or, past kMaxFusedSteps tiles, several consecutive ones): the DMA loads the
// chain input's part of the tile and, unless they stay resident, each conv's weights; the array
// runs each conv's block GEMM in turn, each reading the one before it (and the vector unit, where
// the SFU runs a conv's per-element members, between them); the DMA stores the last conv's
// output. The input and the weights are double-buffered by step: step i's loads wait for the
// GEMM that read their half in step i - 2, the output half for its store.
// Bytes are the analytical group cost's per member, level and operand: the edge tensors' on the
// commands that move them, the rest (the block GEMMs' own local traffic) on the member's GEMMs.
#include <algorithm>
#include <map>
#include <tuple>

#include "dataflows/conv_chain.h"
#include "sim/systemc/lower/fused.h"
#include "sim/systemc/lower/spread.h"
#include "util/checked.h"
#include "util/error.h"

namespace tessel::sim::systemc {

namespace {

using dataflows::FusedGroup;
constexpr uint8_t kIn = 0, kW = 1, kOut = 2;

// Consecutive tiles in execution order (image, band, column tile) and their positions per level:
// loaded from home (level 0) or computed (as convBands counts them).
struct ConvStep {
  double tiles = 0;
  std::vector<double> positions;
};

std::vector<ConvStep> convSteps(const FusedGroup& grp, const dataflows::ConvChainDims& d) {
  const dataflows::AxisTiles r = dataflows::axisTiles(d, true, grp.block_rows);
  const dataflows::AxisTiles c = dataflows::axisTiles(d, false, grp.block_cols);
  const size_t levels = d.convs.size() + 1;
  const auto per_image = static_cast<int64_t>(r.needed.size() * c.needed.size());
  const int64_t k =
      std::max<int64_t>(1, (per_image * d.images + kMaxFusedSteps - 1) / kMaxFusedSteps);
  std::vector<ConvStep> steps;
  ConvStep cur{0, std::vector<double>(levels, 0)};
  for (int64_t n = 0; n < d.images; ++n) {
    for (size_t j = 0; j < r.needed.size(); ++j) {
      for (size_t x = 0; x < c.needed.size(); ++x) {
        for (size_t l = 0; l < levels; ++l) {
          cur.positions[l] += static_cast<double>(grp.keep_halo ? r.fresh[j][l] * c.fresh[x][l]
                                                                : r.needed[j][l] * c.needed[x][l]);
        }
        if (++cur.tiles == static_cast<double>(k)) {
          steps.push_back(cur);
          cur = ConvStep{0, std::vector<double>(levels, 0)};
        }
      }
    }
  }
  if (cur.tiles > 0) steps.push_back(cur);
  return steps;
}

int indexOf(const models::ChainGroup& c, int op) {
  const auto it = std::find(c.ops.begin(), c.ops.end(), op);
  if (it == c.ops.end()) throw Error("fused group: op " + std::to_string(op) + " is not a member");
  return static_cast<int>(it - c.ops.begin());
}

// An edge tensor's bytes at one level: `total` over the group, on `cmds` by `weights`.
struct Flow {
  int member = 0;
  uint8_t level = 0, operand = 0;
  bool write = false;
  double total = 0;
  std::vector<uint32_t> cmds;
  std::vector<double> weights;
};

class ConvBuilder {
 public:
  ConvBuilder(const FusedGroup& grp, const models::Graph& g, const arch::Accelerator& acc,
              const std::vector<BlockRun>& blocks, const std::vector<double>& vector_cycles,
              int local, FusedLowering& out)
      : grp_(grp),
        g_(g),
        acc_(acc),
        blocks_(blocks),
        vector_(vector_cycles),
        local_(local),
        out_(out),
        s_(out.stream),
        d_(dataflows::convChainDims(grp.chain, g)) {
    d_.convs.back().out = grp.blocks.back().problem.output_dtype;  // as the group cost has it
  }

  void build() {
    steps_ = convSteps(grp_, d_);
    const size_t n = d_.convs.size();
    ids_.assign(steps_.size(), Ids{});
    const bool every_step = grp_.resident_level != local_;
    for (size_t i = 0; i < steps_.size(); ++i) {
      Ids& x = ids_[i];
      x.load = add(Kind::Load, Queue::Load, Role::RowLoad, conv(0), kIn, i);
      if (i >= 2) s_.dependOn(ids_[i - 2].gemm[0]);
      for (size_t c = 0; c < n; ++c) {
        if (!every_step && i > 0) {
          x.weights.push_back(ids_[0].weights[c]);  // resident: loaded once, before step 0
          continue;
        }
        x.weights.push_back(add(Kind::Load, Queue::Load, Role::Load1, conv(c), kW, i));
        if (i >= 2) s_.dependOn(ids_[i - 2].gemm[c]);
      }
      for (size_t c = 0; c < n; ++c) emitConv(i, c);
      x.store = add(Kind::Store, Queue::Store, Role::RowStore, conv(n - 1), kOut, i);
      s_.dependOn(x.gemm[n - 1]);
    }
  }

  std::vector<Flow> flows() const;

  // The member's commands that carry what its edge flows do not: its GEMMs (by work) or, for a
  // per-element member, its vector commands.
  void own(int member, std::vector<uint32_t>& cmds, std::vector<double>& w) const {
    for (uint32_t c = 0; c < s_.commands.size(); ++c) {
      const Kind k = s_.commands[c].kind;
      if (out_.owner[c] != member || (k != Kind::Compute && k != Kind::Sfu)) continue;
      cmds.push_back(c);
      w.push_back(s_.commands[c].work);
    }
  }

 private:
  struct Ids {
    uint32_t load = kNone, store = kNone;
    std::vector<uint32_t> weights, gemm, vec;  // per conv (vec: kNone without vector work)
  };

  int conv(size_t c) const { return indexOf(grp_.chain, d_.convs[c].op); }

  uint32_t add(Kind kind, Queue queue, Role role, int owner, int8_t tensor, size_t step) {
    return out_.add(kind, queue, role, owner, tensor, step);
  }

  // Conv c of step i: its block's time for the positions it computes, after its input (the
  // step's load or the conv before, through the vector unit when it runs there), its weights,
  // and (the last conv) the store that drained its output half.
  void emitConv(size_t i, size_t c) {
    Ids& x = ids_[i];
    const double positions = steps_[i].positions[c + 1];
    const uint32_t id = add(Kind::Compute, Queue::Execute, Role::Gemm1, conv(c), -1, i);
    // A block computes m positions (its GEMM's rows); a step's share of them, at its time.
    s_.commands[id].work =
        blocks_[c].cycles * positions / static_cast<double>(grp_.blocks[c].problem.m);
    s_.dependOn(c == 0 ? x.load : x.vec[c - 1] != kNone ? x.vec[c - 1] : x.gemm[c - 1]);
    s_.dependOn(x.weights[c]);
    if (c + 1 == d_.convs.size() && i >= 2) s_.dependOn(ids_[i - 2].store);
    x.gemm.push_back(id);
    uint32_t vec = kNone;
    if (vector_[c] > 0) {
      vec = add(Kind::Sfu, Queue::Vector, Role::Vector, vectorMember(c), -1, i);
      s_.commands[vec].work = vector_[c] * positions / total(c + 1);
      s_.dependOn(id);
    }
    x.vec.push_back(vec);
  }

  // Positions of a level over every step (every image); tiles likewise.
  double total(size_t level) const {
    double t = 0;
    for (const ConvStep& st : steps_) t += st.positions[level];
    return t;
  }
  double tiles() const {
    double t = 0;
    for (const ConvStep& st : steps_) t += st.tiles;
    return t;
  }

  // The first per-element member after conv c (who the vector unit's time is for).
  int vectorMember(size_t c) const {
    for (int id : grp_.chain.ops) {
      if (id > d_.convs[c].op && g_.op(id).kind != models::OpKind::Conv2d)
        return indexOf(grp_.chain, id);
    }
    return conv(c);
  }

  const FusedGroup& grp_;
  const models::Graph& g_;
  const arch::Accelerator& acc_;
  const std::vector<BlockRun>& blocks_;
  const std::vector<double>& vector_;
  int local_;
  FusedLowering& out_;
  CommandStream& s_;
  dataflows::ConvChainDims d_;
  std::vector<ConvStep> steps_;
  std::vector<Ids> ids_;
};

double bytesOf(DType t, double elements) {
  return elements * static_cast<double>(storageBytes(t, 1024)) / 1024.0;
}

// As analytical/fused_conv_cost.cpp counts them: the input from its home into the local buffer,
// each conv's weights (every step from home, or once into the resident level and every step
// from there), the output to its home.
std::vector<Flow> ConvBuilder::flows() const {
  std::vector<Flow> f;
  const size_t top = d_.convs.size();
  const auto level = [](int l) { return static_cast<uint8_t>(l); };
  const auto along = [&](int member, int lv, uint8_t operand, bool write, double total,
                         const auto& pick) {
    Flow x{member, level(lv), operand, write, total, {}, {}};
    for (size_t i = 0; i < ids_.size(); ++i) {
      const auto [cmd, w] = pick(i);
      if (cmd != kNone && w > 0) x.cmds.push_back(cmd), x.weights.push_back(w);
    }
    f.push_back(std::move(x));
  };
  const double in = bytesOf(d_.dtype(0), total(0) * static_cast<double>(d_.channels(0)));
  const auto loads = [&](size_t i) { return std::pair{ids_[i].load, steps_[i].positions[0]}; };
  along(conv(0), grp_.homes[0], kIn, false, in, loads);
  along(conv(0), local_, kIn, true, in, loads);
  const bool bypass = dataflows::localCapacity(acc_, false).weights_bypass;
  const int res = grp_.resident_level;
  for (size_t c = 0; c < top; ++c) {
    const double w = static_cast<double>(d_.convs[c].weightBytes());
    const double each = w * tiles();
    const auto every = [&](size_t i) { return std::pair{ids_[i].weights[c], steps_[i].tiles}; };
    const auto first = [&](size_t i) { return std::pair{ids_[i].weights[c], i == 0 ? 1.0 : 0.0}; };
    if (res < 0) {
      along(conv(c), 0, kW, false, each, every);
      if (!bypass) along(conv(c), local_, kW, true, each, every);
    } else if (res == local_) {
      along(conv(c), 0, kW, false, w, first);
      along(conv(c), local_, kW, true, w, first);
    } else {
      along(conv(c), 0, kW, false, w, first);
      along(conv(c), res, kW, true, w, first);
      along(conv(c), res, kW, false, each, every);
      along(conv(c), local_, kW, true, each, every);
    }
  }
  const double y = bytesOf(d_.dtype(top), total(top) * static_cast<double>(d_.channels(top)));
  along(conv(top - 1), grp_.homes[3], kOut, true, y, [&](size_t i) {
    return std::pair{ids_[i].store, steps_[i].positions[top]};
  });
  return f;
}

// Each member's bytes per level, operand and direction (the group cost's, rounded as the
// analytical engine rounds them) over its edge flows' commands, the rest over its own commands;
// its register-file and NoC bytes over its GEMMs.
void attachConvBytes(const ConvBuilder& b, const analytical::GroupCost& cost, FusedLowering& out) {
  std::map<std::tuple<int, int, int, bool>, const Flow*> edge;
  const std::vector<Flow> flows = b.flows();
  for (const Flow& f : flows) edge[{f.member, f.level, f.operand, f.write}] = &f;
  std::vector<std::pair<Share, uint8_t>> tagged;
  for (size_t m = 0; m < cost.members.size(); ++m) {
    const analytical::MemberCost& mc = cost.members[m];
    std::vector<uint32_t> own;
    std::vector<double> own_w;
    b.own(static_cast<int>(m), own, own_w);
    double own_sum = 0;
    for (double x : own_w) own_sum += x;
    const auto put = [&](int level, int operand, bool write, double v) {
      if (v <= 0) return;
      std::vector<uint32_t> cmds;
      std::vector<double> w;
      double given = 0;
      if (auto it = edge.find({static_cast<int>(m), level, operand, write}); it != edge.end()) {
        const Flow& f = *it->second;
        double sum = 0;
        for (double x : f.weights) sum += x;
        for (size_t i = 0; i < f.cmds.size() && sum > 0; ++i) {
          cmds.push_back(f.cmds[i]);
          w.push_back(f.total * f.weights[i] / sum);
        }
        given = sum > 0 ? f.total : 0;
      }
      const double rest = v - given;
      if (rest > 0.5 + 1e-9 * v || cmds.empty()) {
        for (size_t i = 0; i < own.size(); ++i) {
          cmds.push_back(own[i]);
          w.push_back(own_sum > 0 ? std::max(0.0, rest) * own_w[i] / own_sum : 0);
        }
      }
      std::vector<Share> parts;
      spread(checked::toCount(v, "a fused conv's bytes"), cmds, w,
             Access{static_cast<uint8_t>(level), static_cast<uint8_t>(operand), write, 0}, parts);
      for (const Share& x : parts) tagged.emplace_back(x, static_cast<uint8_t>(m));
    };
    for (size_t l = 0; l < mc.reads.size(); ++l) {
      for (int t = 0; t < 3; ++t) {
        put(static_cast<int>(l), t, false, mc.reads[l][static_cast<size_t>(t)]);
        put(static_cast<int>(l), t, true, mc.writes[l][static_cast<size_t>(t)]);
      }
    }
    for (auto [bytes, field] : {std::pair{mc.rf_bytes, &Command::register_file_bytes},
                                std::pair{mc.noc_bytes, &Command::noc_bytes}}) {
      std::vector<Share> parts;
      spread(checked::toCount(bytes, "a fused conv's register-file or NoC bytes"), own, own_w,
             Access{}, parts);
      for (const Share& x : parts) out.stream.commands[x.command].*field += x.access.bytes;
    }
  }
  std::vector<Share> shares;
  for (const auto& [x, m] : tagged) shares.push_back(x);
  // attach() keeps each command's accesses in the order given: the members beside them.
  std::vector<uint32_t> order(tagged.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t c) {
    return tagged[a].first.command < tagged[c].first.command;
  });
  attach(out.stream, shares);
  out.access_member.resize(tagged.size());
  for (uint32_t i = 0; i < order.size(); ++i) out.access_member[i] = tagged[order[i]].second;
}

}  // namespace

void lowerConvChain(const FusedGroup& grp, const models::Graph& g, const arch::Accelerator& acc,
                    const analytical::GroupCost& cost, const std::vector<BlockRun>& blocks,
                    const std::vector<double>& vector_cycles, int local, FusedLowering& out) {
  if (grp.chain.ops.size() > 255) throw Error("fused group " + grp.name + ": too many members");
  out.stream.clear();
  out.role.clear();
  out.owner.clear();
  out.schedule = FusedSchedule{};
  ConvBuilder b(grp, g, acc, blocks, vector_cycles, local, out);
  b.build();
  for (const analytical::MemberCost& m : cost.members) out.stream.macs += m.macs;
  attachConvBytes(b, cost, out);
}

}  // namespace tessel::sim::systemc
