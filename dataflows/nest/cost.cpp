#include "dataflows/nest/cost.h"

#include "dataflows/nest/cost_parts.h"
#include "dataflows/nest/sparse.h"

namespace tessel::dataflows::nest {

double Cost::dramBytes() const {
  if (reads.empty()) return 0;
  return reads[0][0] + reads[0][1] + reads[0][2] + writes[0][0] + writes[0][1] + writes[0][2];
}

// Capacity: each level's kept tiles (two of each when double-buffered on chip) within its pools.
std::string checkCapacity(const Problem& p, const Mapping& m, const Hardware& hw, Blame* blame) {
  // Every level's tile (Mapping::tileAt) from one pass up the levels: below[l] is what one
  // instance of level l holds without the array's spatial factors.
  const int array = hw.array();
  const size_t nl = m.levels.size();
  const bool sparse = p.sparse();
  std::array<Factors, decltype(m.levels)::capacity() + 1> below;
  for (size_t k = nl; k < below.size(); ++k) below[k] = kOnes;
  for (size_t l = nl; l-- > 0;) {
    for (Dim d : kAllDims)
      below[l][at(d)] = below[l + 1][at(d)] * m.levels[l].factor[at(d)] * m.levels[l].spatial[at(d)];
  }
  for (int l = 1; l < static_cast<int>(hw.levels.size()); ++l) {
    const Level& lv = hw.levels[size_t(l)];
    std::array<double, kTensors> pool{};
    Factors tile = below[size_t(l)];
    if (l <= array) {
      for (Dim d : kAllDims) tile[at(d)] *= m.spatial(d);
    }
    const double copies = m.double_buffered && !lv.per_pe && !lv.off_chip ? 2.0 : 1.0;
    for (int t = 0; t < kTensors; ++t) {
      if (!m.levels[size_t(l)].keeps[size_t(t)]) continue;
      const auto x = static_cast<Operand>(t);
      const DType dt = x == Operand::Input    ? p.input_dtype
                       : x == Operand::Weight ? p.weight_dtype
                                              : (lv.off_chip ? p.output_dtype : hw.accum_dtype);
      const double stored = sparse ? storedScale(p, hw, l, t) : 1.0;
      pool[size_t(lv.pool_of[size_t(t)])] += copies * p.footprint(x, tile) * sizeOf(dt) * stored;
    }
    for (size_t k = 0; k < kTensors; ++k) {
      if (lv.pool_bytes[k] >= 0 && pool[k] > lv.pool_bytes[k]) {
        if (blame != nullptr) *blame = {l, false};
        return lv.name + " needs " + std::to_string(static_cast<int64_t>(pool[k])) +
               " B for its tiles, has " + std::to_string(static_cast<int64_t>(lv.pool_bytes[k]));
      }
    }
  }
  return "";
}

Cost evaluate(const Problem& p, const Mapping& m, const Hardware& hw, const CostOptions& o) {
  Cost c;
  c.reason = checkCapacity(p, m, hw);
  if (c.reason.empty() && p.sparse()) c.reason = checkFormats(p, hw);
  if (!c.reason.empty()) return c;
  c.ok = true;
  c.request_bytes = requestBytes(p, m, hw);
  const Nest nest(p, m, hw);
  const size_t nl = hw.levels.size();
  c.macs = p.macs();
  countTransfers(p, m, hw, o, nest, c);
  const SparseEffect sparse = sparseEffect(p, hw);
  c.keep_n = sparse.keep_n;
  c.keep_m = sparse.keep_m;
  c.effective_macs = static_cast<double>(c.macs) * sparse.mac_density;
  if (sparse.active) {
    c.gated_macs = static_cast<double>(c.macs) * (sparse.reduce_keep * sparse.skip_density) -
                   c.effective_macs;
    applySparseTransfers(sparse, hw, c);
  }
  timeOp(p, m, hw, o, nest, c, sparse);
  applyGatedReads(sparse, hw, c);

  // Energy: every access at its level's price, every NoC byte, every MAC.
  c.level_energy.assign(nl, 0);
  for (size_t l = 0; l < nl; ++l) {
    for (size_t t = 0; t < kTensors; ++t) {
      const double e = c.reads[l][t] * hw.levels[l].read_pj[t] + c.writes[l][t] * hw.levels[l].write_pj[t];
      c.level_energy[l] += e;
      c.tensor_energy[t] += e;
    }
  }
  // The innermost holder feeding the MACs from a PE register file: one read per operand per MAC
  // is already in reads[pe]. The NoC: a bus pays once per distinct value it carries; neighbour
  // links and a mesh once per PE the value reaches (one link each). Partial sums add up over
  // the links between neighbouring PEs on every kind: one hop per PE that contributes.
  // A level's fan-out: a hop per copy reached.
  for (size_t t = 0; t < kTensors; ++t) {
    const bool per_transfer = hw.noc_bus && static_cast<Operand>(t) != Operand::Output;
    double e = (per_transfer ? c.noc_bytes[t] : c.delivered[t]) * hw.noc_pj;
    for (size_t l = 0; l < nl; ++l) e += c.fanout_delivered[l][t] * hw.levels[l].fanout_pj;
    c.tensor_energy[t] += e;
    c.noc_energy += e;
  }
  c.mac_energy = c.effective_macs * hw.macPj(p.input_dtype);
  if (sparse.active) {
    // The array decodes the non-zeros it reads from a level that keeps them compressed.
    const size_t a = size_t(hw.array());
    for (size_t t = 0; t < 2; ++t) {
      const DType dt = t == 0 ? p.input_dtype : p.weight_dtype;
      if (sparse.scale[a][t] != 1) {
        c.decoded += c.reads[a][t] / (sparse.scale[a][t] * sizeOf(dt)) * p.sparsity[t].density;
      }
      // A compressed register file: each value a MAC reads from it (its reads) is decoded.
      for (size_t l = a + 1; l < nl; ++l) {
        if (hw.levels[l].per_pe && hw.levels[l].format[t] != arch::SparseFormat::None) {
          c.decoded += c.reads[l][t] / sizeOf(dt);
        }
      }
    }
    c.mac_energy += c.decoded * hw.sparse.decode_pj;
  }
  c.energy = c.noc_energy + c.mac_energy;
  for (double e : c.level_energy) c.energy += e;

  double unique = 0;
  for (size_t t = 0; t < kTensors; ++t) {
    if (o.home[t] == hw.dram) {
      const auto x = static_cast<Operand>(t);
      const DType dt = x == Operand::Input ? p.input_dtype : x == Operand::Weight ? p.weight_dtype : p.output_dtype;
      unique += p.elements(x) * sizeOf(dt) * (x == Operand::Input ? p.im2col_unique : 1.0) *
                (p.sparse() ? storedScale(p, hw, hw.dram, static_cast<int>(t)) : 1.0);
    }
  }
  const double dram_bw = hw.levels[size_t(hw.dram)].bandwidth[0];
  c.lower_bound = std::max(c.compute, o.ideal_memory || dram_bw <= 0 ? 0.0 : unique / dram_bw);
  return c;
}

}  // namespace tessel::dataflows::nest
