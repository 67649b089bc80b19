// A fused group's bytes on its commands: see fused_parts.h.
#include <map>
#include <tuple>

#include "sim/systemc/lower/fused_parts.h"
#include "sim/systemc/lower/spread.h"
#include "util/checked.h"

namespace tessel::sim::systemc::fused {

namespace {

using dataflows::FusedGroup;
constexpr size_t kIn = 0, kW = 1, kOut = 2;

double bytesOf(DType t, double elements) {
  return elements * static_cast<double>(storageBytes(t, 1024)) / 1024.0;
}

// Which of a step's weights an edge tensor's bytes follow.
enum class Weight : uint8_t { RowIn, RowOut, Each, Once, Vector };

// An edge tensor's bytes at one level, as the group cost counts them: `total` over the group,
// moved by the commands of `role` in proportion to their steps' `weight`.
struct Flow {
  int member = 0;  // index in chain.ops
  int level = 0;
  size_t operand = 0;
  bool write = false;
  double total = 0;
  Role role = Role::RowLoad;
  Weight weight = Weight::RowIn;
};

// A re-read stream (K, V, weight chunks) as analytical/fused_cost.cpp's stream() counts it: from
// home every step, or once into the resident level and then every step from there.
void streamFlows(std::vector<Flow>& f, int member, Role role, int home, int resident, int local,
                 double once, double each) {
  if (resident < 0) {
    f.push_back({member, home, kW, false, each, role, Weight::Each});
    f.push_back({member, local, kW, true, each, role, Weight::Each});
  } else if (resident == local) {
    f.push_back({member, home, kW, false, once, role, Weight::Once});
    f.push_back({member, local, kW, true, once, role, Weight::Once});
  } else {
    f.push_back({member, home, kW, false, once, role, Weight::Once});
    f.push_back({member, resident, kW, true, once, role, Weight::Once});
    f.push_back({member, resident, kW, false, each, role, Weight::Each});
    f.push_back({member, local, kW, true, each, role, Weight::Each});
  }
}

std::vector<Flow> flowsOf(const FusedGroup& grp, const models::Graph& g, const Parts& p,
                          const analytical::GroupCost& cost, int local) {
  const models::ChainGroup& c = grp.chain;
  const int res = grp.resident_level;
  std::vector<Flow> f;
  if (c.kind == models::ChainKind::Attention) {
    const dataflows::AttentionDims d = dataflows::attentionDims(c, g);
    const dataflows::AttentionBlocks b =
        dataflows::attentionBlocks(d, grp.block_rows, grp.block_cols);
    const double units = double(d.units), heads = units * double(d.group);
    const double q = bytesOf(d.q, heads * double(d.queries * d.head_dim));
    f.push_back({p.row_in, grp.homes[0], kIn, false, q, Role::RowLoad, Weight::RowIn});
    f.push_back({p.row_in, local, kIn, true, q, Role::RowLoad, Weight::RowIn});
    streamFlows(f, p.gemm1[0], Role::Load1, grp.homes[1], res, local,
                bytesOf(d.k, units * double(d.keys * d.head_dim)),
                bytesOf(d.k, units * double(b.key_rows * d.head_dim)));
    streamFlows(f, p.gemm3, Role::Load3, grp.homes[2], res, local,
                bytesOf(d.v, units * double(d.keys * d.value_dim)),
                bytesOf(d.v, units * double(b.key_rows * d.value_dim)));
    const double scores = heads * double(b.score_elems);
    f.push_back({p.gemm3, local, kIn, true, bytesOf(d.p, scores), Role::Vector, Weight::Vector});
    f.push_back({p.row_out, grp.homes[3], kOut, true,
                 bytesOf(d.o, heads * double(d.queries * d.value_dim)), Role::RowStore,
                 Weight::RowOut});
    return f;
  }
  const dataflows::FfnDims d = dataflows::ffnDims(c, g);
  const double rb = double((d.rows + grp.block_rows - 1) / grp.block_rows);
  const double x = bytesOf(d.x, double(d.rows * d.model));
  const double chunks = double((d.hidden + grp.block_cols - 1) / grp.block_cols);
  if (grp.stream_input) {
    // Read again for every chunk: with the chunk's weights, on its loads; from the L2 it was
    // staged in once per row block when its home is DRAM.
    int from = grp.homes[0];
    if (grp.stagingLevel() >= 0) {
      from = grp.stagingLevel();
      f.push_back({p.row_in, grp.homes[0], kIn, false, x, Role::RowLoad, Weight::RowIn});
      f.push_back({p.row_in, from, kIn, true, x, Role::RowLoad, Weight::RowIn});
    }
    f.push_back({p.row_in, from, kIn, false, x * chunks, Role::Load1, Weight::Each});
    f.push_back({p.row_in, local, kIn, true, x * chunks, Role::Load1, Weight::Each});
  } else {
    f.push_back({p.row_in, grp.homes[0], kIn, false, x, Role::RowLoad, Weight::RowIn});
    f.push_back({p.row_in, local, kIn, true, x, Role::RowLoad, Weight::RowIn});
  }
  const double w = bytesOf(d.w, double(d.model * d.hidden));
  for (int up : p.gemm1) streamFlows(f, up, Role::Load1, 0, res, local, w, w * rb);
  if (c.gateUp()) {
    // Each step's product, written by the vector unit and stored from there (fused_cost's).
    const double h = bytesOf(d.h, double(d.rows * d.hidden));
    f.push_back({p.row_out, local, kOut, true, h, Role::Vector, Weight::Vector});
    f.push_back({p.row_out, grp.homes[3], kOut, true, h, Role::RowStore, Weight::Vector});
    return f;
  }
  const double wd = bytesOf(g.tensor(g.op(c.down).inputs.at(1)).dtype, double(d.hidden * d.out));
  streamFlows(f, p.gemm3, Role::Load3, 0, res, local, wd, wd * rb);
  if (grp.partials_level >= 0 && chunks > 1) {
    // The running output's trips to and from the L2, on the DMA queue beside the chunk's
    // weights (analytical/fused_cost.cpp counts (chunks - 1) each way).
    const auto lv = static_cast<size_t>(grp.partials_level);
    const analytical::MemberCost& down = cost.members[size_t(p.gemm3)];
    f.push_back({p.gemm3, grp.partials_level, kOut, false, down.reads[lv][kOut], Role::Load3,
                 Weight::Each});
    f.push_back({p.gemm3, grp.partials_level, kOut, true, down.writes[lv][kOut], Role::Load3,
                 Weight::Each});
  }
  f.push_back({p.gemm3, local, kIn, true, bytesOf(d.h, double(d.rows * d.hidden)), Role::Vector,
               Weight::Vector});
  f.push_back({p.row_out, grp.homes[3], kOut, true, bytesOf(d.y, double(d.rows * d.out)),
               Role::RowStore, Weight::RowOut});
  return f;
}

double weightOf(const FusedStep& s, Weight w) {
  switch (w) {
    case Weight::RowIn:
      return s.row_in;
    case Weight::RowOut:
      return s.row_out;
    case Weight::Each:
      return s.each_w;
    case Weight::Once:
      return s.once_w;
    case Weight::Vector:
      return s.vector_w;
  }
  return 0;
}

// Bytes: each member's count per level, operand and direction, spread over the commands that
// move it. The edge tensors' flows name their commands; what the group cost counts beyond them
// (the block GEMMs' own local reads and writes) rides on the member's block GEMMs.
class Bytes {
 public:
  Bytes(const analytical::GroupCost& cost, const FusedLowering& lowered,
        const std::vector<StepIds>& ids, const models::ChainGroup& chain)
      : cost_(cost),
        steps_(lowered.schedule.steps),
        ids_(ids),
        owner_(lowered.owner),
        s_(lowered.stream),
        chain_(chain) {}

  void attachTo(const std::vector<Flow>& flows, FusedLowering& out) {
    std::map<std::tuple<int, int, size_t, bool>, std::vector<std::pair<uint32_t, double>>> edge;
    for (const Flow& f : flows) {
      if (f.total <= 0) continue;
      double sum = 0;
      for (size_t i = 0; i < steps_.size(); ++i) {
        if (commandsOf(f.role, i).second > 0) sum += weightOf(steps_[i], f.weight);
      }
      auto& list = edge[{f.member, f.level, f.operand, f.write}];
      for (size_t i = 0; i < steps_.size() && sum > 0; ++i) {
        const auto [cmds, n] = commandsOf(f.role, i);
        const double w = weightOf(steps_[i], f.weight);
        for (size_t k = 0; k < n && w > 0; ++k) {
          list.emplace_back(cmds[k], f.total * w / sum / double(n));
        }
      }
    }
    for (size_t m = 0; m < cost_.members.size(); ++m) {
      const analytical::MemberCost& mc = cost_.members[m];
      for (size_t l = 0; l < mc.reads.size(); ++l) {
        for (size_t t = 0; t < 3; ++t) {
          for (bool write : {false, true}) {
            const double v = write ? mc.writes[l][t] : mc.reads[l][t];
            if (v <= 0) continue;
            cell(int(m), l, t, write, v, edge[{int(m), int(l), t, write}]);
          }
        }
      }
      perCompute(int(m), mc.rf_bytes, &Command::register_file_bytes, out.stream);
      perCompute(int(m), mc.noc_bytes, &Command::noc_bytes, out.stream);
    }
    attach(out);
  }

 private:
  // The commands of `role` in step i: one, its pieces, or none.
  std::pair<const uint32_t*, size_t> commandsOf(Role role, size_t i) const {
    const StepIds& x = ids_[i];
    const auto one = [](const uint32_t& id) {
      return std::make_pair(&id, size_t(id == kNone ? 0 : 1));
    };
    switch (role) {
      case Role::RowLoad:
        return one(x.row_load);
      case Role::Load1:
        return {x.load1.data(), x.load1.size()};
      case Role::Load3:
        return {x.load3.data(), x.load3.size()};
      case Role::Vector:
        return one(x.vec);
      case Role::RowStore:
        return one(x.store);
      case Role::Gemm1:
      case Role::Gemm3:
        break;
    }
    return {nullptr, 0};
  }

  // The member's block GEMMs, weighted by the blocks each runs.
  void computes(int member, std::vector<uint32_t>& cmds, std::vector<double>& w) const {
    for (size_t i = 0; i < steps_.size(); ++i) {
      for (const std::vector<uint32_t>* v : {&ids_[i].gemm1, &ids_[i].gemm3}) {
        for (uint32_t c : *v) {
          if (owner_[c] != member) continue;
          cmds.push_back(c);
          w.push_back(s_.commands[c].work);  // the blocks it runs, in the member's time
        }
      }
    }
  }

  void cell(int member, size_t level, size_t operand, bool write, double v,
            const std::vector<std::pair<uint32_t, double>>& edge) {
    std::vector<uint32_t> cmds;
    std::vector<double> w;
    double given = 0;
    for (const auto& [c, b] : edge) cmds.push_back(c), w.push_back(b), given += b;
    const double rest = v - given;
    if (rest > 0.5 + 1e-9 * v || cmds.empty()) {
      std::vector<uint32_t> own;
      std::vector<double> ow;
      computes(member, own, ow);
      if (own.empty()) {  // not a GEMM: its unit's commands
        for (size_t i = 0; i < steps_.size(); ++i)
          own.push_back(ids_[i].vec), ow.push_back(steps_[i].vector_w);
      }
      double sum = 0;
      for (double x : ow) sum += x;
      for (size_t i = 0; i < own.size(); ++i) {
        cmds.push_back(own[i]);
        w.push_back(sum > 0 ? std::max(0.0, rest) * ow[i] / sum : 0);
      }
    }
    const int64_t total = checked::toCount(
        v, [&] { return "op '" + std::to_string(chain_.ops[size_t(member)]) + "': bytes"; });
    std::vector<Share> parts;
    spread(total, cmds, w,
           Access{static_cast<uint8_t>(level), static_cast<uint8_t>(operand), write, 0}, parts);
    for (const Share& x : parts) tagged_.push_back({x, static_cast<uint8_t>(member)});
  }

  void perCompute(int member, double bytes, int64_t Command::*field, CommandStream& s) const {
    std::vector<uint32_t> cmds;
    std::vector<double> w;
    computes(member, cmds, w);
    std::vector<Share> parts;
    spread(checked::toCount(bytes, "a fused member's register-file or NoC bytes"), cmds, w,
           Access{}, parts);
    for (const Share& x : parts) s.commands[x.command].*field += x.access.bytes;
  }

  // Each command's accesses contiguous, in the order they were counted; their members beside.
  void attach(FusedLowering& out) const {
    CommandStream& s = out.stream;
    std::vector<uint32_t> count(s.commands.size() + 1, 0);
    for (const auto& [x, m] : tagged_) ++count[x.command + 1];
    for (size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    s.accesses.assign(tagged_.size(), Access{});
    out.access_member.assign(tagged_.size(), 0);
    std::vector<uint32_t> next(count.begin(), count.end() - 1);
    for (const auto& [x, m] : tagged_) {
      const uint32_t at = next[x.command]++;
      s.accesses[at] = x.access;
      out.access_member[at] = m;
    }
    for (size_t i = 0; i < s.commands.size(); ++i) {
      s.commands[i].access_begin = count[i];
      s.commands[i].access_end = count[i + 1];
    }
  }

  const analytical::GroupCost& cost_;
  const std::vector<FusedStep>& steps_;
  const std::vector<StepIds>& ids_;
  const std::vector<uint8_t>& owner_;
  const CommandStream& s_;
  const models::ChainGroup& chain_;
  std::vector<std::pair<Share, uint8_t>> tagged_;
};

}  // namespace

void attachBytes(const FusedGroup& grp, const models::Graph& g, const Parts& parts,
                 const analytical::GroupCost& cost, int local, const std::vector<StepIds>& ids,
                 FusedLowering& out) {
  Bytes bytes(cost, out, ids, grp.chain);
  bytes.attachTo(flowsOf(grp, g, parts, cost, local), out);
}

}  // namespace tessel::sim::systemc::fused
