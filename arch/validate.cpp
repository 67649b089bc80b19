// Cross-checks between parameters, after defaults: each failure names the value responsible.
#include <algorithm>

#include "arch/building.h"
#include "arch/schema.h"
#include "util/suggest.h"
#include "util/units.h"

namespace tessel::arch {
namespace {

using units::formatBytes;

std::string q(std::string_view s) { return "'" + std::string(s) + "'"; }

void checkMemoryForm(const Building& b) {
  const bool sp = b.find(LevelKind::Scratchpad), acc = b.find(LevelKind::Accumulator);
  const bool gb = b.find(LevelKind::GlobalBuffer);
  const std::string forms =
      "scratchpad + accumulator (Gemmini-like) or global_buffer (Eyeriss-like)";
  if (gb && (sp || acc)) {
    b.fail("global_buffer", "give either " + forms + ", not both");
  }
  if (gb) return;
  if (!sp && !acc) b.fail("", "no local memory: give " + forms);
  if (!acc)
    b.fail("scratchpad",
           "a scratchpad needs an accumulator for the outputs "
           "(or give a global_buffer alone)");
  if (!sp)
    b.fail("accumulator",
           "an accumulator needs a scratchpad for inputs and weights "
           "(or give a global_buffer alone)");
}

void checkArray(const Building& b) {
  const ComputeArray& a = b.acc.array;
  for (size_t i = 0; i < a.dataflows.size(); ++i) {
    const auto& ok = systolicDataflows();
    if (a.kind != ArrayKind::Systolic || std::count(ok.begin(), ok.end(), a.dataflows[i])) continue;
    b.fail("array.dataflows[" + std::to_string(i) + "]",
           "a systolic array cannot run dataflow " + q(a.dataflows[i]) +
               "; systolic arrays support " + joinNames(ok) + " (kind: spatial runs all five)");
  }
  if (a.macRate(a.input_dtype) <= 0) {
    b.fail("array.throughput",
           "throughput gives no MAC rate for array.input_dtype " + q(nameOf(a.input_dtype)));
  }
}

// One rows x cols tile of every tensor the level holds should fit; a design where it does not
// still maps (with partial tiles, leaving part of the array idle), so this is a warning.
void checkTile(Building& b, const StorageLevel& l) {
  const ComputeArray& a = b.acc.array;
  const uint64_t tile = static_cast<uint64_t>(a.rows) * static_cast<uint64_t>(a.cols);
  uint64_t need = 0;
  std::vector<std::string> what;
  const auto bytes = [&](DType t) { return static_cast<uint64_t>(storageBytes(t, static_cast<int64_t>(tile))); };
  const auto& pool = l.tensor_capacity;
  const bool held[3] = {l.holds.inputs, l.holds.weights, l.holds.outputs};
  const auto short_of = [&](size_t t, DType d) {
    return l.partitioned && held[t] && pool[t] < bytes(d);
  };
  if (l.holds.inputs) need += bytes(a.input_dtype), what.push_back("inputs");
  if (l.holds.weights) need += bytes(a.weight_dtype), what.push_back("weights");
  if (l.holds.outputs) need += bytes(a.accum_dtype), what.push_back("outputs");
  const bool pools_short =
      short_of(0, a.input_dtype) || short_of(1, a.weight_dtype) || short_of(2, a.accum_dtype);
  if (l.capacity_bytes >= need && !pools_short) return;
  if (pools_short) {
    b.warn(l.name + ".capacity", l.name + "'s pools cannot each hold one " +
                                     std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                                     " array tile of their tensor: ops map to partial tiles and "
                                     "part of the array idles");
    return;
  }
  b.warn(l.name + ".capacity", l.name + " capacity " + formatBytes(l.capacity_bytes) +
                                   " cannot hold one " + std::to_string(a.rows) + "x" +
                                   std::to_string(a.cols) + " array tile of " +
                                   joinNames(what, " and ") + " (" + formatBytes(need) +
                                   "): ops map to partial tiles and part of the array idles");
}

// `bytes` of a row-organized level (its capacity, or one pool of it, named `what`) in whole rows
// across its banks. Both given and disagreeing is an error; a derived row width (array.cols
// changed by -p, say) keeps the design usable: whole rows only, and the user is told.
uint64_t wholeRows(Building& b, const StorageLevel& l, uint64_t bytes, const std::string& what) {
  const uint64_t stripe = static_cast<uint64_t>(l.banks) * static_cast<uint64_t>(l.row_bytes);
  if (bytes % stripe == 0) return bytes;
  const std::string p = l.name + ".";
  const std::string banks = std::to_string(l.banks) + (l.banks == 1 ? " bank x " : " banks x ") +
                            formatBytes(static_cast<uint64_t>(l.row_bytes));
  if (bytes < stripe) {
    b.fail(p + "capacity", what + formatBytes(bytes) + " is less than one row in every bank (" +
                               banks + " = " + formatBytes(stripe) + ")");
  }
  const std::string text =
      what + formatBytes(bytes) + " is not a whole number of rows across the banks (" + banks + ")";
  if (b.isGiven(p + "row_width")) b.fail(p + "capacity", text);
  const uint64_t usable = bytes / stripe * stripe;
  b.warn(p + "capacity", text + "; the row width follows array.cols, so " + formatBytes(usable) +
                             " in whole rows is used");
  return usable;
}

// Row-organized levels: whole elements per row, whole rows per bank, and an accumulator row
// that takes one array row of outputs.
void checkRows(Building& b, StorageLevel& l) {
  if (l.row_bytes <= 0) return;
  const std::string p = l.name + ".";
  const std::string row = formatBytes(static_cast<uint64_t>(l.row_bytes));
  // A narrow or block-scaled dtype packs several elements (and their scales) into bytes: a row
  // holds whole bytes of them, checked by the capacity below.
  if (isWholeBytes(l.dtype) && l.row_bytes % static_cast<int>(bytesOf(l.dtype)) != 0) {
    b.fail(p + "row_width", "row_width " + row + " is not a whole number of " +
                                std::string(nameOf(l.dtype)) + " elements");
  }
  static const char* const kPools[] = {"inputs", "weights", "outputs"};
  if (!l.partitioned) l.capacity_bytes = wholeRows(b, l, l.capacity_bytes, "capacity ");
  for (size_t t = 0; t < 3 && l.partitioned; ++t) {  // each pool is its own banks
    uint64_t& pool = l.tensor_capacity[t];
    const uint64_t usable = wholeRows(b, l, pool, "the " + std::string(kPools[t]) + " pool's ");
    l.capacity_bytes -= pool - usable;
    pool = usable;
  }
  const ComputeArray& a = b.acc.array;
  const int out_row = static_cast<int>(storageBytes(a.accum_dtype, a.cols));
  if (l.kind == LevelKind::Accumulator && l.row_bytes < out_row) {
    b.fail(p + "row_width",
           "row_width " + row + " is narrower than one array row of outputs (" +
               std::to_string(a.cols) + " cols x " + std::string(nameOf(a.accum_dtype)) + " = " +
               std::to_string(out_row) + " B); leave row_width out to derive it from array.cols");
  }
}

std::string holdsText(const Holds& h) {
  std::vector<std::string> names;
  if (h.inputs) names.push_back("inputs");
  if (h.weights) names.push_back("weights");
  if (h.outputs) names.push_back("outputs");
  return "[" + joinNames(names) + "]";
}

// The local memories hold what the timing model places in them; any other `holds` would be
// accepted and ignored, so it is refused. The L2's `holds` decides what it keeps (plan.cpp).
void checkHolds(const Building& b, const StorageLevel& l) {
  const Holds& h = l.holds;
  std::string want;
  if (l.kind == LevelKind::Scratchpad && l.partitioned && !b.isGiven(l.name + ".holds") &&
      !(h.inputs && !h.outputs)) {
    b.fail(l.name + ".capacity",
           l.name + ".capacity gives " + holdsText(h) +
               " a pool; a scratchpad's pools are inputs and weights (or inputs alone, when "
               "weights stream past it): the accumulator takes the outputs");
  } else if (l.kind == LevelKind::Scratchpad && !(h.inputs && !h.outputs)) {
    want =
        "[inputs, weights], or [inputs] when weights stream from DRAM straight into the array "
        "(TPU-like): the scratchpad feeds the array and the accumulator takes outputs";
  } else if (l.kind == LevelKind::Accumulator && !(h.outputs && !h.inputs && !h.weights)) {
    want =
        "[outputs]: the accumulator holds the partial sums; inputs and weights go in the "
        "scratchpad";
  } else if (l.kind == LevelKind::GlobalBuffer && l.partitioned && !b.isGiven(l.name + ".holds") &&
             !(h.inputs && h.weights && h.outputs)) {
    b.fail(l.name + ".capacity",
           l.name + ".capacity gives " + holdsText(h) +
               " a pool; a global buffer without a bypass path holds all three tensors: give "
               "inputs, weights and outputs each a pool");
  } else if (l.kind == LevelKind::GlobalBuffer && !(h.inputs && h.weights && h.outputs)) {
    want = "[inputs, weights, outputs]: a global buffer without a bypass path holds all three";
  }
  if (want.empty()) return;
  b.fail(l.name + ".holds", l.name + ".holds " + holdsText(h) + " is not a placement tessel " +
                                "models; " + l.name + " holds " + want);
}

// A buffer per fan-out instance: its ports must be known, its pools must match what it holds.
void checkCluster(const Building& b, const StorageLevel& l) {
  if (l.bandwidth <= 0) {
    b.fail("cluster_buffer", "cluster_buffer needs 'bandwidth' when it has no row_width");
  }
  if (!l.holds.inputs && !l.holds.weights && !l.holds.outputs) {
    b.fail("cluster_buffer.holds", "cluster_buffer holds no tensor; leave the section out");
  }
}

// A level split per tensor: every tensor it holds has a pool.
void checkPools(const Building& b, const StorageLevel& l) {
  const bool holds[3] = {l.holds.inputs, l.holds.weights, l.holds.outputs};
  const char* names[3] = {"inputs", "weights", "outputs"};
  for (size_t t = 0; t < 3 && l.partitioned; ++t) {
    if (holds[t] && l.tensor_capacity[t] == 0) {
      b.fail(l.name + ".holds", l.name + " holds " + names[t] +
                                    " but its capacity gives them no pool; add " + names[t] +
                                    " to capacity or leave them out of holds");
    }
  }
}

void checkFanout(const Building& b, const StorageLevel& l) {
  const Fanout& f = l.fanout;
  if (f.mesh_x < 0) b.fail(l.name + ".fanout.mesh_x", "mesh_x must not be negative");
  if (l.kind == LevelKind::Accumulator && f.instances > 1) {
    b.fail(l.name + ".fanout", "give the fan-out on the scratchpad: it covers the accumulator too");
  }
}

void checkRegisters(const Building& b) {
  const ComputeArray& a = b.acc.array;
  if (a.hasRegisters() && a.kind == ArrayKind::Systolic) {
    b.fail("array.registers",
           "a systolic PE's pipeline registers are its storage; registers below a register "
           "file apply to spatial arrays (kind: spatial)");
  }
  if (a.hasRegisters() && a.pe_register_file_bytes == 0) {
    b.fail("array.registers",
           "registers are the level below the register file; give array.register_file (or "
           "give these bytes as the register file itself)");
  }
  for (const std::string& t : a.rf_sram) {
    const int bytes = t == "inputs" ? a.rf_input_bytes : t == "weights" ? a.rf_weight_bytes : a.rf_output_bytes;
    if (!a.rf_partitioned || bytes == 0) {
      b.fail("array.register_file_sram",
             "'" + t + "' has no scratch pad of its own to build as SRAM; give it one in "
             "array.register_file ({" + t + ": 448 B, ...})");
    }
  }
}

void checkLevel(Building& b, StorageLevel& l) {
  checkFanout(b, l);
  checkHolds(b, l);
  const ComputeArray& a = b.acc.array;
  if (l.kind == LevelKind::Accumulator && l.dtype != a.accum_dtype) {
    b.fail("accumulator.dtype", "accumulator dtype " + q(nameOf(l.dtype)) +
                                    " differs from array.accum_dtype " + q(nameOf(a.accum_dtype)));
  }
  if (l.kind == LevelKind::GlobalBuffer && l.bandwidth <= 0) {
    b.fail("global_buffer", "global_buffer needs 'bandwidth' when it has no row_width");
  }
  checkPools(b, l);
  if (l.kind == LevelKind::ClusterBuffer) checkCluster(b, l);
  checkRows(b, l);
  const bool local = l.kind == LevelKind::Scratchpad || l.kind == LevelKind::Accumulator ||
                     l.kind == LevelKind::GlobalBuffer;
  if (local) checkTile(b, l);
}

// Parameters the schema describes that the analytical engine does not time yet. Accepting them
// silently would suggest an effect they do not have: each one given is a warning at the value.
void warnUnmodeled(Building& b) {
  static const char* const kUnmodeled[] = {"scratchpad.latency", "cluster_buffer.latency",
                                           "accumulator.latency",
                                           "global_buffer.latency"};
  for (const char* path : kUnmodeled) {
    if (b.isGiven(path)) {
      b.warn(path, std::string(path) +
                       " is read but not modeled by the analytical engine yet: "
                       "it does not change any result");
    }
  }
  const ComputeArray& a = b.acc.array;
  if (b.isGiven("array.weight_dtype") && a.weight_dtype != a.input_dtype) {
    b.warn("array.weight_dtype",
           "array.weight_dtype differs from array.input_dtype: ops compute in one dtype each "
           "(--dtype or a precision plan), so it only sizes the one-tile check");
  }
}

}  // namespace

void validate(Building& b) {
  warnUnmodeled(b);
  checkArray(b);
  checkMemoryForm(b);
  checkRegisters(b);
  for (auto& l : b.acc.levels) checkLevel(b, l);
}

}  // namespace tessel::arch
