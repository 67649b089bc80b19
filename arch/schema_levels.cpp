// The storage levels' rows of the schema table (arch/schema.cpp): DRAM, L2, the local memories,
// the cluster buffer, a fan-out below a level and per-tensor energies.
#include "arch/schema_levels.h"

#include <optional>

#include "arch/schema_rows.h"
#include "tech/technology.h"

namespace tessel::arch {
namespace {

using T = ValueType;


Apply holdsApply() {
  return [](Building& b, const Value& v) {
    Holds h;
    for (const auto& n : v.names) {
      h.inputs |= n == "inputs";
      h.weights |= n == "weights";
      h.outputs |= n == "outputs";
    }
    b.level().holds = h;
  };
}

// Energies of a storage level; the derivation is in arch/silicon.cpp.
void addEnergies(std::vector<ParamSpec>& ps, const std::string& read_how, const std::string& write_how) {
  ps.push_back(der("read_energy", T::EnergyPerByte, read_how, "energy per byte read",
                   into(lvl, &StorageLevel::read_energy_pj_per_byte)));
  ps.push_back(der("write_energy", T::EnergyPerByte, write_how, "energy per byte written",
                   into(lvl, &StorageLevel::write_energy_pj_per_byte)));
}

const char* const kSramHow = "the technology's SRAM model at this capacity / banks and ports";

// On-chip levels: area and leakage of one instance, derived from the SRAM model.
void addSilicon(std::vector<ParamSpec>& ps) {
  addEnergies(ps, kSramHow, std::string(kSramHow) + " (x the node's write ratio)");
  ps.push_back(der("area", T::Area, kSramHow, "silicon area of one instance",
                   into(lvl, &StorageLevel::area_mm2)));
  ps.push_back(der("leakage", T::Power, kSramHow, "leakage power of one instance",
                   into(lvl, &StorageLevel::leakage_mw)));
  ps.push_back(der("drain_energy", T::EnergyPerByte, "the outputs' read energy",
                   "energy per byte of reading a partial sum to send it up to the parent; 0 = free, "
                   "as Timeloop counts it",
                   into(lvl, &StorageLevel::drain_pj_per_byte)));
}

}  // namespace

const std::vector<std::string>& tensorNames() {
  static const std::vector<std::string> names = {"inputs", "weights", "outputs"};
  return names;
}

std::vector<ParamSpec> dramParams() {
  std::vector<ParamSpec> ps = {
      opt("capacity", T::Bytes, "0 B", "size; 0 = unbounded",
          into(lvl, &StorageLevel::capacity_bytes)),
      pos(req("bandwidth", T::Bandwidth, "bytes per cycle between DRAM and the next level in",
              into(lvl, &StorageLevel::bandwidth))),
      req("latency", T::Time, "cycles from a request to its first byte",
          into(lvl, &StorageLevel::latency)),
      among(tech::dramTypes(),
            opt("type", T::Choice, "ddr4",
                "memory type; sets the energy per bit (configs/tech/dram.yaml; default assumed)",
                into(lvl, &StorageLevel::dram_type))),
  };
  addEnergies(ps, "8 x the DRAM type's pJ/bit", "8 x the DRAM type's pJ/bit");
  ps.push_back(pos(upTo(1, opt("efficiency", T::Real, "1",
                             "fraction of the bandwidth a streaming kernel sustains (refresh, bank "
                             "conflicts, read-write turnarounds); off-chip rate = bandwidth x this",
                             into(lvl, &StorageLevel::efficiency)))));
  ps.push_back(der("phy_area", T::Area,
                   "the channels the bandwidth needs at the type's speed grade x its signals x 2 bumps",
                   "the chip's side of the interface (PHY under its bumps), an I/O component; 0 = none",
                   into(lvl, &StorageLevel::phy_area_mm2)));
  return ps;
}

std::vector<ParamSpec> l2Params() {
  std::vector<ParamSpec> ps = {
      pos(req("capacity", T::Bytes, "size", into(lvl, &StorageLevel::capacity_bytes))),
      pos(req("bandwidth", T::Bandwidth, "bytes per cycle between the L2 and the local memories",
              into(lvl, &StorageLevel::bandwidth))),
      req("latency", T::Time, "cycles from a request to its first byte",
          into(lvl, &StorageLevel::latency)),
      pos(opt("banks", T::Integer, "1", "independently addressed banks",
              into(lvl, &StorageLevel::banks))),
      pos(among(tensorNames(), opt("holds", T::NameList, "[inputs, weights, outputs]",
                              "tensors it may hold", holdsApply()))),
  };
  addSilicon(ps);
  return ps;
}

// A buffer's capacity: one pool its tensors share, or a pool per tensor (each its own memories).
Apply poolsCapacityApply() {
  return [](Building& b, const Value& v) {
    StorageLevel& l = b.level();
    l.partitioned = !v.pairs.empty();
    l.tensor_capacity = {};
    if (!l.partitioned) {
      l.capacity_bytes = v.bytes;
      return;
    }
    l.capacity_bytes = 0;
    for (const auto& [tensor, bytes] : v.pairs) {
      const size_t t = tensor == "inputs" ? 0 : tensor == "weights" ? 1 : 2;
      l.tensor_capacity[t] = static_cast<uint64_t>(bytes);
      l.capacity_bytes += static_cast<uint64_t>(bytes);
    }
  };
}

// scratchpad, accumulator and global_buffer: local SRAMs next to the array. `holds` is the
// default list ("[inputs, weights]"), or how it is derived; `extra` rows follow it; `capacity`
// replaces the one-pool capacity row.
std::vector<ParamSpec> localParams(const std::string& holds, ParamSpec row_width,
                                   const std::string& bandwidth_how,
                                   std::vector<ParamSpec> extra = {},
                                   std::optional<ParamSpec> capacity = std::nullopt) {
  std::vector<ParamSpec> ps = {
      capacity ? std::move(*capacity)
               : pos(req("capacity", T::Bytes, "size", into(lvl, &StorageLevel::capacity_bytes))),
      pos(opt("banks", T::Integer, "1", "independently addressed banks",
              into(lvl, &StorageLevel::banks))),
      std::move(row_width),
      pos(opt("ports", T::Integer, "1", "read/write ports per bank (2 = dual-ported)",
              into(lvl, &StorageLevel::ports))),
      pos(among(tensorNames(),
                holds.front() == '['
                    ? opt("holds", T::NameList, holds, "tensors it may hold", holdsApply())
                    : der("holds", T::NameList, holds, "tensors it may hold", holdsApply()))),
  };
  for (auto& p : extra) ps.push_back(std::move(p));
  ps.push_back(
      pos(der("bandwidth", T::Bandwidth, bandwidth_how,
              "bytes per cycle it can deliver to the array", into(lvl, &StorageLevel::bandwidth))));
  ps.push_back(opt("latency", T::Time, "1 cycle", "cycles from a request to its first byte",
                   into(lvl, &StorageLevel::latency)));
  addSilicon(ps);
  return ps;
}

ParamSpec rowWidth(const std::string& how) {
  return pos(der("row_width", T::Bytes, how, "bytes per row (one row per bank per cycle)",
                 into(lvl, &StorageLevel::row_bytes)));
}

const char* const kBanksTimesRow = "banks x row_width per cycle";

// A pool per tensor makes NBin and SB (ShiDianNao) two buffers beside the accumulator.
std::vector<ParamSpec> scratchpadParams() {
  return localParams(
      "the tensors capacity names, else [inputs, weights]",
      rowWidth("array.cols x bytes of array.input_dtype"), kBanksTimesRow, {},
      pos(among(tensorNames(),
                req("capacity", T::TensorBytes,
                    "size: one pool its tensors share, or one per tensor ({inputs: 64 kB, "
                    "weights: 128 kB}), each a buffer of its own",
                    poolsCapacityApply()))));
}

std::vector<ParamSpec> accumulatorParams() {
  return localParams("[outputs]", rowWidth("array.cols x bytes of array.accum_dtype"),
                     kBanksTimesRow,
                     {der("dtype", T::DTypeName, "array.accum_dtype",
                          "element type accumulated; must equal array.accum_dtype",
                          into(lvl, &StorageLevel::dtype))});
}

// Its capacity may be split per tensor, as DianNao's and ShiDianNao's NBin, SB and NBout are
// three buffers: each pool is its own memories (banks and rows as given, in every pool).
std::vector<ParamSpec> globalBufferParams() {
  return localParams(
      "the tensors capacity names, else [inputs, weights, outputs]",
      opt("row_width", T::Bytes, "0 B", "bytes per row; 0 = not row-organized",
          into(lvl, &StorageLevel::row_bytes)),
      "banks x row_width per cycle; required when row_width is 0", {},
      pos(among(tensorNames(),
                req("capacity", T::TensorBytes,
                    "size: one pool its tensors share, or one per tensor ({inputs: 2 KiB, "
                    "weights: 32 KiB, outputs: 2 KiB}), each a buffer of its own",
                    poolsCapacityApply()))));
}

std::vector<ParamSpec> clusterBufferParams() {
  std::vector<ParamSpec> ps = {
      pos(among(
          tensorNames(),
          req("capacity", T::TensorBytes,
              "size of ONE instance: one pool all its tensors share, or one per tensor "
              "({inputs: 8 KiB, weights: 32 KiB, outputs: 3 KiB}; tensors left out bypass it)",
              poolsCapacityApply()))),
      pos(opt("banks", T::Integer, "1", "independently addressed banks",
              into(lvl, &StorageLevel::banks))),
      opt("row_width", T::Bytes, "0 B", "bytes per row; 0 = not row-organized",
          into(lvl, &StorageLevel::row_bytes)),
      pos(opt("ports", T::Integer, "1", "read/write ports per bank (2 = dual-ported)",
              into(lvl, &StorageLevel::ports))),
      pos(among(tensorNames(), der("holds", T::NameList,
                                   "the tensors capacity names, else [inputs, weights, outputs]",
                                   "tensors it may hold", holdsApply()))),
      pos(der("bandwidth", T::Bandwidth,
              "banks x row_width per cycle; required when row_width is 0",
              "bytes per cycle ONE instance delivers to the array below it",
              into(lvl, &StorageLevel::bandwidth))),
      opt("latency", T::Time, "1 cycle", "cycles from a request to its first byte",
          into(lvl, &StorageLevel::latency)),
  };
  addSilicon(ps);
  return ps;
}

// The fan-out below a shared local memory: several arrays (or clusters) under one buffer.
std::vector<ParamSpec> fanoutParams() {
  auto fan = [](Building& b) -> Fanout& { return b.level().fanout; };
  auto field = [fan](auto member) -> Apply {
    return [fan, member](Building& b, const Value& v) { assign(fan(b).*member, v); };
  };
  return {
      upTo(4096, pos(req("instances", T::Integer,
                          "copies of what lies below (the cluster buffers and the array, or the "
                          "array)",
                          field(&Fanout::instances)))),
      opt("mesh_x", T::Integer, "0", "instances per mesh row (reports only); 0 = one row",
          field(&Fanout::mesh_x)),
      opt("multicast", T::Boolean, "false", "one read can feed every instance that needs it",
          field(&Fanout::multicast)),
      opt("reduction", T::Boolean, "false", "partial sums of the instances add up in the network",
          field(&Fanout::reduction)),
      opt("bandwidth", T::Bandwidth, "0 B/cycle",
          "bytes per cycle into ONE instance; 0 = unlimited", field(&Fanout::bandwidth)),
      opt("split_reduction", T::Boolean, "true",
          "instances may share a reduction (K, C, R, S), each summing part of every output; "
          "false: each computes whole outputs, as a GPU's SMs own output tiles (run in waves)",
          field(&Fanout::split_reduction)),
      der("energy", T::EnergyPerByte, "a wire as long as one instance's side (sqrt of its area)",
          "energy per byte per instance it reaches", field(&Fanout::energy_pj_per_byte)),
  };
}

// Per-tensor energies of a level, read and write apart (an Accelergy-style table).
std::vector<ParamSpec> tensorEnergyParams(size_t t) {
  return {
      der("read_energy", T::EnergyPerByte, "the level's read_energy", "energy per byte read",
          [t](Building& b, const Value& v) { b.level().tensor_read_pj[t] = v.number; }),
      der("write_energy", T::EnergyPerByte, "the level's write_energy", "energy per byte written",
          [t](Building& b, const Value& v) { b.level().tensor_write_pj[t] = v.number; }),
  };
}

std::vector<SectionSpec> levelChildren(const std::string& key, bool fanout) {
  std::vector<SectionSpec> out;
  if (fanout) {
    out.push_back({key + ".fanout", false,
                   "several copies of what lies below this buffer (arrays, or cluster buffers "
                   "with their arrays), fed over one network",
                   fanoutParams(), nullptr});
  }
  out.push_back({key + ".tensors", false,
                 "per-tensor energies of this level: {inputs: {read_energy: .., write_energy: ..}, ...}",
                 {}, nullptr});
  for (size_t t = 0; t < tensorNames().size(); ++t) {
    out.push_back({key + ".tensors." + tensorNames()[t], false,
                   "energies of " + tensorNames()[t] + " in this level, read and write apart",
                   tensorEnergyParams(t), nullptr});
  }
  return out;
}

}  // namespace tessel::arch
