// The `sparsity:` rows of the accelerator schema (arch/sparse_support.h): what the datapath
// accelerates, skips or gates, and the compressed format each storage level keeps inputs and
// weights in (`sparsity.formats.<level>`).
#include <algorithm>

#include "arch/schema_levels.h"
#include "arch/schema_rows.h"

namespace tessel::arch {

namespace {

using T = ValueType;

SparseSupport& sp(Building& b) { return b.acc.sparse; }

const std::vector<std::string>& operandNames() {
  static const std::vector<std::string> names = {"inputs", "weights"};
  return names;
}

// Every N:M with M a power of two up to 16 and 1 <= N < M.
const std::vector<std::string>& patternNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int m : {2, 4, 8, 16}) {
      for (int n = 1; n < m; ++n) v.push_back(std::to_string(n) + ":" + std::to_string(m));
    }
    return v;
  }();
  return names;
}

std::array<bool, 2> operandsOf(const Value& v) {
  std::array<bool, 2> on{};
  for (const std::string& n : v.names) on[n == "weights" ? 1 : 0] = true;
  return on;
}

// The index of the design's level of `kind`; fails at `path` (saying it has no `level` to
// `what`) when there is none.
size_t levelIndex(Building& b, LevelKind kind, const std::string& path, const std::string& level,
                  const std::string& what) {
  size_t at = b.acc.levels.size();
  for (size_t i = 0; i < b.acc.levels.size(); ++i) {
    if (b.acc.levels[i].kind == kind) at = i;
  }
  if (at == b.acc.levels.size()) b.fail(path, "this design has no " + level + " to " + what);
  return at;
}

// The format level `kind` keeps `operand` in; a compressed format on a level the design does
// not have (or one that never holds the operand) is an error at the value.
Apply formatOf(LevelKind kind, const std::string& level, int operand) {
  return [kind, level, operand](Building& b, const Value& v) {
    const SparseFormat f = sparseFormatFrom(v.text);
    if (f == SparseFormat::None) return;
    const std::string& name = operandNames()[size_t(operand)];
    const size_t at = levelIndex(b, kind, "sparsity.formats." + level + "." + name, level,
                                 "keep " + name + " compressed in");
    SparseSupport& s = b.acc.sparse;
    s.formats.resize(b.acc.levels.size(), {SparseFormat::None, SparseFormat::None});
    s.formats[at][size_t(operand)] = f;
  };
}

// Reads of `operand` at level `kind` skipped or gated where the named leader operand is zero.
Apply readsOf(LevelKind kind, const std::string& level, int operand, bool skip) {
  return [kind, level, operand, skip](Building& b, const Value& v) {
    if (v.text == "none") return;
    const std::string& name = operandNames()[size_t(operand)];
    const size_t at =
        levelIndex(b, kind, std::string("sparsity.") + (skip ? "skip_reads." : "gate_reads.") +
                                level + "." + name,
                   level, std::string(skip ? "skip" : "gate") + " reads of " + name + " in");
    auto& reads = skip ? b.acc.sparse.skip_reads : b.acc.sparse.gate_reads;
    reads.resize(b.acc.levels.size(), {int8_t{-1}, int8_t{-1}});
    reads[at][size_t(operand)] = static_cast<int8_t>(v.text == "weights" ? 1 : 0);
  };
}

std::vector<ParamSpec> readParams(LevelKind kind, const std::string& level, bool skip) {
  static const std::vector<std::string> leaders = {"none", "inputs", "weights"};
  std::vector<ParamSpec> rows;
  for (int operand = 0; operand < 2; ++operand) {
    const std::string& name = operandNames()[size_t(operand)];
    rows.push_back(among(leaders, opt(name, T::Choice, "none",
                                      "the operand whose zeros " + std::string(skip ? "skip" : "gate") +
                                          " the " + level + "'s reads of " + name,
                                      readsOf(kind, level, operand, skip))));
  }
  return rows;
}

std::vector<ParamSpec> sparsityParams() {
  return {
      among(patternNames(),
            opt("structured", T::NameList, "[]",
                "N:M patterns the datapath runs compressed (the reduction takes N/M of its steps)",
                [](Building& b, const Value& v) {
                  for (const std::string& p : v.names) {
                    const auto colon = p.find(':');
                    sp(b).structured.push_back(
                        {std::stoi(p.substr(0, colon)), std::stoi(p.substr(colon + 1))});
                  }
                })),
      among(operandNames(),
            opt("structured_operand", T::Choice, "weights",
                "the operand whose N:M pattern the datapath accelerates",
                [](Building& b, const Value& v) {
                  sp(b).structured_operand = v.text == "weights" ? 1 : 0;
                })),
      among(operandNames(),
            opt("skip", T::NameList, "[]",
                "operands whose zeros the MACs skip: no cycle, no energy",
                [](Building& b, const Value& v) { sp(b).skip = operandsOf(v); })),
      among(operandNames(),
            opt("gate", T::NameList, "[]",
                "operands whose zeros the MACs gate: the cycle spent, the energy saved",
                [](Building& b, const Value& v) { sp(b).gate = operandsOf(v); })),
      upTo(16, pos(opt("run_bits", T::Integer, "4",
                       "run_length format: bits per run of zeros (assumed 4)",
                       into(sp, &SparseSupport::run_bits)))),
      der("decode_energy", T::Energy, "the technology's 32-bit integer add",
          "energy per non-zero value decoded or intersected at the array",
          into(sp, &SparseSupport::decode_pj)),
  };
}

// The PEs' register files: only a design whose PEs have one (a spatial array's register file).
std::vector<ParamSpec> registerFileFormatParams() {
  std::vector<ParamSpec> rows;
  for (int operand = 0; operand < 2; ++operand) {
    const std::string& name = operandNames()[size_t(operand)];
    rows.push_back(among(
        sparseFormatNames(),
        opt(name, T::Choice, "none", "how the PEs' register files keep " + name,
            [operand, name](Building& b, const Value& v) {
              const SparseFormat f = sparseFormatFrom(v.text);
              if (f == SparseFormat::None) return;
              const ComputeArray& a = b.acc.array;
              const int64_t bytes = a.rf_partitioned
                                        ? (operand == 0 ? a.rf_input_bytes : a.rf_weight_bytes)
                                        : a.pe_register_file_bytes;
              if (a.kind == ArrayKind::Systolic || bytes <= 0) {
                b.fail("sparsity.formats.register_file." + name,
                       "this design's PEs have no register file for " + name +
                           " to keep compressed in");
              }
              b.acc.sparse.pe_formats[size_t(operand)] = f;
            })));
  }
  return rows;
}

std::vector<ParamSpec> formatParams(LevelKind kind, const std::string& level) {
  std::vector<ParamSpec> rows;
  for (int operand = 0; operand < 2; ++operand) {
    rows.push_back(among(sparseFormatNames(),
                         opt(operandNames()[size_t(operand)], T::Choice, "none",
                             "how " + level + " keeps " + operandNames()[size_t(operand)],
                             formatOf(kind, level, operand))));
  }
  return rows;
}

}  // namespace

std::vector<SectionSpec> sparsitySections() {
  std::vector<SectionSpec> s = {
      {"sparsity", false, "what the design does with zeros (docs/sparsity.md); absent = dense",
       sparsityParams(), nullptr},
      {"sparsity.formats", false, "the compressed format each storage level keeps operands in",
       {}, nullptr},
  };
  const std::pair<LevelKind, const char*> levels[] = {
      {LevelKind::DRAM, "dram"},
      {LevelKind::L2, "l2"},
      {LevelKind::Scratchpad, "scratchpad"},
      {LevelKind::GlobalBuffer, "global_buffer"},
      {LevelKind::ClusterBuffer, "cluster_buffer"},
  };
  for (const auto& [kind, name] : levels) {
    s.push_back({std::string("sparsity.formats.") + name, false,
                 std::string("how the ") + name + " keeps inputs and weights",
                 formatParams(kind, name), nullptr});
  }
  s.push_back({"sparsity.formats.register_file", false,
               "how the PEs' register files keep inputs and weights", registerFileFormatParams(),
               nullptr});
  s.push_back({"sparsity.skip_reads", false,
               "reads a storage level skips where the other operand is zero (no slot, no energy)",
               {}, nullptr});
  s.push_back({"sparsity.gate_reads", false,
               "reads a storage level gates where the other operand is zero (energy only)", {},
               nullptr});
  for (bool skip : {true, false}) {
    for (const auto& [kind, name] : levels) {
      s.push_back({std::string("sparsity.") + (skip ? "skip_reads." : "gate_reads.") + name, false,
                   std::string("the ") + name + "'s reads " + (skip ? "skipped" : "gated") +
                       " on the other operand's zeros",
                   readParams(kind, name, skip), nullptr});
    }
  }
  return s;
}

}  // namespace tessel::arch
