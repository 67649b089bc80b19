// Lowering a fused group to its block pipeline: the commands and their dependencies (see
// fused.h); fused_bytes.cpp gives them their bytes.
#include "sim/systemc/lower/fused.h"

#include <algorithm>

#include "sim/systemc/lower/fused_parts.h"
#include "util/error.h"

namespace tessel::sim::systemc {

namespace fused {

namespace {

int indexOf(const models::ChainGroup& c, int op) {
  const auto it = std::find(c.ops.begin(), c.ops.end(), op);
  if (it == c.ops.end()) throw Error("fused group: op " + std::to_string(op) + " is not a member");
  return static_cast<int>(it - c.ops.begin());
}

}  // namespace

Parts partsOf(const dataflows::FusedGroup& grp) {
  const models::ChainGroup& c = grp.chain;
  Parts p;
  const bool attention = c.kind == models::ChainKind::Attention;
  p.row_in = indexOf(c, attention ? c.score : c.up.front());
  p.row_out = indexOf(c, attention ? c.context : c.ffnOutput());
  p.gemm3 = c.gateUp() ? -1 : p.row_out;
  p.vector = indexOf(c, attention ? c.softmax : c.activation);
  if (attention) {
    p.gemm1 = {indexOf(c, c.score)};
  } else {
    for (int u : c.up) p.gemm1.push_back(indexOf(c, u));
  }
  p.block_of.assign(c.ops.size(), 0);
  for (size_t b = 0; b < grp.blocks.size(); ++b) {
    p.block_of[size_t(indexOf(c, grp.blocks[b].op))] = b;
  }
  return p;
}

}  // namespace fused

namespace {

using fused::Parts;
using fused::StepIds;

// Which command last read each key block (chunk) of a stream, and for which unit: a block read
// for the first time by the next unit takes its place once that read is done.
struct Readers {
  std::vector<uint32_t> gemm;
  std::vector<int64_t> unit;
};

class Builder {
 public:
  Builder(const Parts& parts, const analytical::GroupCost& cost,
          const std::vector<BlockRun>& blocks, bool resident, bool two_units, FusedLowering& out)
      : p_(parts),
        cost_(cost),
        blocks_(blocks),
        resident_(resident),
        two_units_(two_units),
        out_(out),
        s_(out.stream),
        sched_(out.schedule),
        steps_(out.schedule.steps) {}

  void build() {
    out_.role.clear();
    out_.owner.clear();
    ids_.assign(steps_.size(), StepIds{});
    stores_.assign(steps_.size(), kNone);
    load3_upto_.assign(steps_.size(), kNone);
    for (Readers* r : {&readers1_, &readers3_}) {
      r->gemm.assign(size_t(sched_.key_blocks), kNone);
      r->unit.assign(size_t(sched_.key_blocks), -1);
    }
    double vector_sum = 0;
    for (const FusedStep& st : steps_) vector_sum += st.vector_w, all_blocks_ += st.blocks;
    vector_per_w_ = vector_sum > 0 ? cost_.vector / vector_sum : 0;
    s_.commands.reserve(steps_.size() * (5 + p_.gemm1.size()));
    for (size_t i = 0; i < steps_.size(); ++i) {
      emitLoads(i);
      emitGemm1(i);
      emitVector(i);
      if (i > 0) emitGemm3(i - 1);
    }
    if (!steps_.empty()) emitGemm3(steps_.size() - 1);
  }

  const std::vector<StepIds>& ids() const { return ids_; }

 private:
  uint32_t add(Kind kind, Queue queue, Role role, int owner, int8_t tensor, size_t step) {
    return out_.add(kind, queue, role, owner, tensor, step);
  }

  // Pieces of step i's stream load and GEMM: the block's local tiles when it brings resident
  // blocks in for the first time, else one.
  int64_t pieces(size_t i, int member) const {
    if (!resident_ || steps_[i].once_w <= 0) return 1;
    return std::clamp<int64_t>(blocks_[p_.block_of[size_t(member)]].tiles, 1, kMaxPieces);
  }

  // The stream load of step i (Load1 or Load3): every step's blocks into their buffer half
  // (free once the GEMM of step i-2 read it), or only the blocks read for the first time into
  // the resident buffer (where the previous unit's same blocks were, once it read them, unless
  // the buffer holds both units').
  void emitStream(size_t i, Role role, int owner, const Readers& readers, uint32_t half_user,
                  std::vector<uint32_t>& ids) {
    const FusedStep& st = steps_[i];
    if (resident_ && st.once_w <= 0) return;
    const uint32_t after = !resident_ ? half_user : two_units_ ? kNone : lastReader(st, readers);
    for (int64_t k = pieces(i, owner); k > 0; --k) {
      ids.push_back(add(Kind::Load, Queue::Load, role, owner, 1, i));
      s_.dependOn(after);
    }
  }

  // The latest GEMM of another unit that read a block this step reads for the first time.
  uint32_t lastReader(const FusedStep& st, const Readers& readers) const {
    uint32_t after = kNone;
    for (uint32_t q = st.seg_begin; q < st.seg_end; ++q) {
      const FusedSegment& seg = sched_.segments[q];
      for (int64_t c = std::max(seg.c0, seg.loaded); c < seg.c1; ++c) {
        const uint32_t r = readers.gemm[size_t(c)];
        if (r != kNone && readers.unit[size_t(c)] != seg.unit && (after == kNone || r > after)) {
          after = r;
        }
      }
    }
    return after;
  }

  void emitLoads(size_t i) {
    const FusedStep& st = steps_[i];
    StepIds& x = ids_[i];
    if (st.row_in > 0) {
      x.row_load = add(Kind::Load, Queue::Load, Role::RowLoad, p_.row_in, 0, i);
      if (i >= 2) s_.dependOn(ids_[i - 2].lastGemm1());  // its buffer half was read
      row_load_ = x.row_load;
    }
    emitStream(i, Role::Load1, p_.gemm1[0], readers1_, i >= 2 ? ids_[i - 2].lastGemm1() : kNone,
               x.load1);
    if (p_.gemm3 >= 0) {
      emitStream(i, Role::Load3, p_.gemm3, readers3_, i >= 2 ? ids_[i - 2].lastGemm3() : kNone,
                 x.load3);
    }
    if (!x.load1.empty()) load1_ = x.load1.back();
    load3_upto_[i] = !x.load3.empty() ? x.load3.back() : i > 0 ? load3_upto_[i - 1] : kNone;
  }

  void read(Readers& r, size_t i, uint32_t gemm) {
    const FusedStep& st = steps_[i];
    for (uint32_t q = st.seg_begin; q < st.seg_end; ++q) {
      const FusedSegment& seg = sched_.segments[q];
      for (int64_t c = seg.c0; c < seg.c1; ++c) {
        r.gemm[size_t(c)] = gemm;
        r.unit[size_t(c)] = seg.unit;
      }
    }
  }

  // A member's block GEMMs in step st; the down projection's also wait for the accumulator's
  // port while an FFN's running output comes in and goes out (spread as its blocks are).
  double work(int member, const FusedStep& st) const {
    double w = blocks_[p_.block_of[size_t(member)]].cycles * st.blocks /
               static_cast<double>(sched_.units);
    if (member == p_.gemm3 && all_blocks_ > 0) {
      w += cost_.partials_port_cycles * st.blocks / all_blocks_;
    }
    return w;
  }

  // A GEMM (piece) waits for its share of the step's stream load, or for the latest stream
  // load (a DMA's transfers finish in the order it issues them), and for its rows' input.
  void emitGemm1(size_t i) {
    const FusedStep& st = steps_[i];
    StepIds& x = ids_[i];
    const int64_t n = int64_t(std::max<size_t>(1, x.load1.size()));
    for (int64_t k = 0; k < n; ++k) {
      for (int m : p_.gemm1) {
        const uint32_t id = add(Kind::Compute, Queue::Execute, Role::Gemm1, m, -1, i);
        s_.commands[id].work = work(m, st) / double(n);
        s_.dependOn(row_load_);
        s_.dependOn(x.load1.empty() ? load1_ : x.load1[size_t(k)]);
        if (i >= 2) s_.dependOn(ids_[i - 2].vec);  // the score (hidden) half was consumed
        x.gemm1.push_back(id);
      }
    }
    read(readers1_, i, x.lastGemm1());
  }

  void emitVector(size_t i) {
    StepIds& x = ids_[i];
    x.vec = add(Kind::Sfu, Queue::Vector, Role::Vector, p_.vector, -1, i);
    s_.commands[x.vec].work = vector_per_w_ * steps_[i].vector_w;
    s_.dependOn(x.lastGemm1());
    // The half its output goes to was read (by the second GEMM, or by the gate-up's store).
    if (i >= 2) s_.dependOn(p_.gemm3 >= 0 ? ids_[i - 2].lastGemm3() : ids_[i - 2].store);
  }

  void emitGemm3(size_t i) {
    const FusedStep& st = steps_[i];
    StepIds& x = ids_[i];
    if (p_.gemm3 < 0) {  // the gate-up half: each step's product is stored once it is made
      x.store = add(Kind::Store, Queue::Store, Role::RowStore, p_.row_out, 2, i);
      s_.dependOn(x.vec);
      stores_[i] = x.store;
      return;
    }
    const int64_t n = int64_t(std::max<size_t>(1, x.load3.size()));
    for (int64_t k = 0; k < n; ++k) {
      const uint32_t id = add(Kind::Compute, Queue::Execute, Role::Gemm3, p_.gemm3, -1, i);
      s_.commands[id].work = work(p_.gemm3, st) / double(n);
      s_.dependOn(x.vec);
      s_.dependOn(x.load3.empty() ? load3_upto_[i] : x.load3[size_t(k)]);
      if (st.row_in > 0 && i >= 2) s_.dependOn(stores_[i - 2]);  // its output half was drained
      x.gemm3.push_back(id);
    }
    read(readers3_, i, x.lastGemm3());
    if (st.row_out > 0) {
      x.store = add(Kind::Store, Queue::Store, Role::RowStore, p_.row_out, 2, i);
      s_.dependOn(x.lastGemm3());
    }
    stores_[i] = x.store != kNone ? x.store : i > 0 ? stores_[i - 1] : kNone;
  }

  const Parts& p_;
  const analytical::GroupCost& cost_;
  const std::vector<BlockRun>& blocks_;
  bool resident_;   // the streams stay in the local buffer between row blocks
  bool two_units_;  // ... with room for two units' at once
  FusedLowering& out_;
  CommandStream& s_;
  const FusedSchedule& sched_;
  const std::vector<FusedStep>& steps_;
  std::vector<StepIds> ids_;
  std::vector<uint32_t> stores_;      // per step: the latest output store up to it
  std::vector<uint32_t> load3_upto_;  // per step: the latest second-stream load up to it
  double vector_per_w_ = 0;
  double all_blocks_ = 0;  // the steps' blocks, summed
  uint32_t row_load_ = kNone, load1_ = kNone;  // the latest of each
  Readers readers1_, readers3_;
};

}  // namespace

void lowerFused(const dataflows::FusedGroup& grp, const models::Graph& g,
                const analytical::GroupCost& cost, const std::vector<BlockRun>& blocks,
                Residence residence, FusedLowering& out) {
  const int local = residence.local;
  if (grp.chain.ops.size() > 255) throw Error("fused group " + grp.name + ": too many members");
  out.stream.clear();
  out.schedule = fusedSchedule(grp, g, kMaxFusedSteps);
  const Parts parts = fused::partsOf(grp);
  Builder b(parts, cost, blocks, grp.resident_level >= 0 && grp.resident_level == local,
            residence.two_units, out);
  b.build();
  for (const analytical::MemberCost& m : cost.members) out.stream.macs += m.macs;
  fused::attachBytes(grp, g, parts, cost, local, b.ids(), out);
}

uint32_t FusedLowering::add(Kind kind, Queue queue, Role r, int member, int8_t tensor,
                           size_t step) {
  Command c;
  c.kind = kind;
  c.queue = queue;
  c.tensor = tensor;
  c.tile = static_cast<int32_t>(step);
  c.time_local = kind == Kind::Load || kind == Kind::Store;
  role.push_back(r);
  owner.push_back(static_cast<uint8_t>(member));
  return stream.add(c);
}

}  // namespace tessel::sim::systemc
