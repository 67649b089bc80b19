// SCALE-Sim .cfg -> tessel design YAML (scalesim_config.h).
#include "arch/scalesim_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "util/error.h"
#include "util/input_file.h"
#include "util/suggest.h"

namespace tessel::arch {
namespace {

// Every section and key SCALE-Sim v2 and v3 read, in their documented spelling.
const std::vector<std::pair<std::string, std::vector<std::string>>>& schema() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> s = {
      {"general", {"run_name"}},
      {"architecture_presets",
       {"ArrayHeight", "ArrayWidth", "IfmapSramSzkB", "FilterSramSzkB", "OfmapSramSzkB",
        "IfmapOffset", "FilterOffset", "OfmapOffset", "Dataflow", "Bandwidth", "MemoryBanks",
        "OnChipMemoryBanks", "OnChipMemoryBankPorts", "ReadRequestBuffer", "WriteRequestBuffer"}},
      {"run_presets", {"InterfaceBandwidth", "UseRamulatorTrace"}},
      {"layout",
       {"IfmapCustomLayout", "IfmapSRAMBankBandwidth", "IfmapSRAMBankNum", "IfmapSRAMBankPort",
        "FilterCustomLayout", "FilterSRAMBankBandwidth", "FilterSRAMBankNum",
        "FilterSRAMBankPort"}},
      {"sparsity",
       {"SparsitySupport", "SparseRep", "OptimizedMapping", "BlockSize",
        "RandomNumberGeneratorSeed"}},
      {"network_presets", {"TopologyCsvLoc"}},
  };
  return s;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

struct Entry {
  std::string key;  // documented spelling
  std::string value;
  int line = 0, column = 0;  // of the value
};

struct Section {
  int line = 0;
  std::map<std::string, Entry> keys;  // by documented spelling
};

struct Cfg {
  std::string source;
  std::map<std::string, Section> sections;

  [[noreturn]] void fail(int line, int column, const std::string& path,
                         const std::string& message) const {
    SourceLocation where{source, line, column, path};
    throw ConfigError(where, message);
  }
  const Entry* find(const std::string& section, const std::string& key) const {
    const auto s = sections.find(section);
    if (s == sections.end()) return nullptr;
    const auto k = s->second.keys.find(key);
    return k == s->second.keys.end() ? nullptr : &k->second;
  }
  const Entry& need(const std::string& section, const std::string& key) const {
    if (const Entry* e = find(section, key)) return *e;
    const auto s = sections.find(section);
    fail(s == sections.end() ? 0 : s->second.line, s == sections.end() ? 0 : 1,
         section + "." + key,
         "missing required key '" + key + "' in [" + section + "]" +
             (s == sections.end() ? " (the file has no [" + section + "] section)" : ""));
  }
  int64_t integer(const Entry& e, const std::string& section, int64_t min, int64_t max) const {
    int64_t v = 0;
    const char* end = e.value.data() + e.value.size();
    const auto [ptr, ec] = std::from_chars(e.value.data(), end, v);
    const std::string path = section + "." + e.key;
    if (e.value.empty() || ptr != end || ec == std::errc::invalid_argument) {
      fail(e.line, e.column, path, "expected an integer, got '" + e.value + "'");
    }
    if (ec == std::errc::result_out_of_range || v < min || v > max) {
      fail(e.line, e.column, path,
           e.key + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
               " (got " + e.value + ")");
    }
    return v;
  }
  std::string choice(const Entry& e, const std::string& section,
                     const std::vector<std::string>& allowed) const {
    if (std::find(allowed.begin(), allowed.end(), e.value) != allowed.end()) return e.value;
    fail(e.line, e.column, section + "." + e.key,
         "unknown " + e.key + " '" + e.value + "'; expected one of " + joinNames(allowed) +
             didYouMean(e.value, allowed));
  }
};

std::optional<std::pair<std::string, const std::vector<std::string>*>> knownSection(
    const std::string& name) {
  for (const auto& [section, keys] : schema()) {
    if (section == name) return std::make_pair(section, &keys);
  }
  return std::nullopt;
}

void addKey(Cfg& cfg, const std::string& section, const std::string& line, int line_no) {
  const size_t delim = line.find_first_of("=:");
  const size_t indent = line.find_first_not_of(" \t");
  if (delim == std::string::npos) {
    cfg.fail(line_no, static_cast<int>(indent) + 1, section,
             "expected 'Key = value' or 'Key: value', a [section] or a comment, got '" +
                 trim(line) + "'");
  }
  const std::string key = trim(line.substr(0, delim));
  if (section.empty()) {
    cfg.fail(line_no, static_cast<int>(indent) + 1, key,
             "key '" + key + "' before any [section]");
  }
  const auto& names = *knownSection(section)->second;
  const auto it = std::find_if(names.begin(), names.end(),
                               [&](const std::string& n) { return lower(n) == lower(key); });
  if (it == names.end()) {
    cfg.fail(line_no, static_cast<int>(indent) + 1, section + "." + key,
             "unknown key '" + key + "' in [" + section + "]" + didYouMean(key, names) +
                 "; known: " + joinNames(names));
  }
  Section& s = cfg.sections[section];
  if (s.keys.count(*it) != 0) {
    cfg.fail(line_no, static_cast<int>(indent) + 1, section + "." + *it,
             "'" + *it + "' repeats (first at line " + std::to_string(s.keys[*it].line) + ")");
  }
  const size_t value_at = line.find_first_not_of(" \t", delim + 1);
  const int column = static_cast<int>(value_at == std::string::npos ? line.size() : value_at) + 1;
  s.keys[*it] = Entry{*it, trim(line.substr(delim + 1)), line_no, column};
}

Cfg parse(const std::string& text, const std::string& source) {
  Cfg cfg{source, {}};
  std::istringstream in(text);
  std::string line, section;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    if (t[0] != '[') {
      addKey(cfg, section, line, line_no);
      continue;
    }
    const int column = static_cast<int>(line.find('[')) + 1;
    if (t.back() != ']') cfg.fail(line_no, column, "", "expected '[section]', got '" + t + "'");
    section = trim(t.substr(1, t.size() - 2));
    if (!knownSection(section)) {
      std::vector<std::string> names;
      for (const auto& s : schema()) names.push_back(s.first);
      cfg.fail(line_no, column, section,
               "unknown section [" + section + "]" + didYouMean(section, names) +
                   "; known: " + joinNames(names));
    }
    if (cfg.sections.count(section) != 0) {
      cfg.fail(line_no, column, section,
               "section [" + section + "] repeats (first at line " +
                   std::to_string(cfg.sections[section].line) + ")");
    }
    cfg.sections[section].line = line_no;
  }
  return cfg;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The values every shipped key must have, even those the design ignores.
void checkIgnored(const Cfg& cfg) {
  const int64_t big = int64_t{1} << 40;
  for (const char* key : {"IfmapOffset", "FilterOffset", "OfmapOffset"}) {
    if (const Entry* e = cfg.find("architecture_presets", key)) {
      cfg.integer(*e, "architecture_presets", 0, big);
    }
  }
  for (const char* key : {"MemoryBanks", "OnChipMemoryBanks", "OnChipMemoryBankPorts",
                          "ReadRequestBuffer", "WriteRequestBuffer"}) {
    if (const Entry* e = cfg.find("architecture_presets", key)) {
      cfg.integer(*e, "architecture_presets", 1, big);
    }
  }
  const std::vector<std::string> booleans = {"True", "False", "true", "false"};
  for (const auto& [section, key] : std::vector<std::pair<std::string, std::string>>{
           {"run_presets", "UseRamulatorTrace"},
           {"layout", "IfmapCustomLayout"},
           {"layout", "FilterCustomLayout"},
           {"sparsity", "SparsitySupport"},
           {"sparsity", "OptimizedMapping"}}) {
    if (const Entry* e = cfg.find(section, key)) cfg.choice(*e, section, booleans);
  }
  for (const char* key : {"IfmapSRAMBankBandwidth", "IfmapSRAMBankNum", "IfmapSRAMBankPort",
                          "FilterSRAMBankBandwidth", "FilterSRAMBankNum", "FilterSRAMBankPort"}) {
    if (const Entry* e = cfg.find("layout", key)) cfg.integer(*e, "layout", 1, big);
  }
  for (const char* key : {"BlockSize", "RandomNumberGeneratorSeed"}) {
    if (const Entry* e = cfg.find("sparsity", key)) cfg.integer(*e, "sparsity", 0, big);
  }
}

// Bandwidth: "10" or SCALE-Sim's list "10, 20" (it reads only the first).
int64_t bandwidth(const Cfg& cfg, const Entry& e, std::vector<std::string>& assumptions) {
  std::vector<int64_t> values;
  std::istringstream in(e.value);
  std::string item;
  while (std::getline(in, item, ',')) {
    Entry one = e;
    one.value = trim(item);
    values.push_back(cfg.integer(one, "architecture_presets", 1, int64_t{1} << 30));
  }
  if (values.empty()) cfg.integer(e, "architecture_presets", 1, 1);  // reports the empty value
  if (values.size() > 1) {
    assumptions.push_back("Bandwidth lists " + std::to_string(values.size()) +
                          " values; SCALE-Sim uses only the first, and so does tessel");
  }
  return values.front();
}

}  // namespace

namespace {

struct Design {
  std::string name;
  int64_t rows = 0, cols = 0, ifmap_kib = 0, filter_kib = 0, ofmap_kib = 0, bandwidth = 0;
  std::string dataflow;
  bool user_bandwidth = false;
  // v3 [sparsity] SparsitySupport: the array runs the topology's N:M filters compressed, every
  // N < BlockSize (or every pattern tessel has), the filters kept as SparseRep says.
  std::vector<std::string> patterns;
  std::string weight_format;
};

// SparsitySupport = true: N:M patterns of M = BlockSize (0 or absent: all of them) and the
// format SparseRep names (CSR and CSC index each kept value and point at each fiber: csr;
// Blocked ELLPACK keeps each block's values with their in-block indices: nm_indices).
void readSparsity(const Cfg& cfg, Design& d, std::vector<std::string>& notes) {
  const Entry* support = cfg.find("sparsity", "SparsitySupport");
  if (!support || (support->value != "true" && support->value != "True")) return;
  const Entry* block = cfg.find("sparsity", "BlockSize");
  const int64_t m = block ? cfg.integer(*block, "sparsity", 0, 16) : 0;
  for (int mm : {2, 4, 8, 16}) {
    if (m != 0 && m != mm) continue;
    for (int n = 1; n < mm; ++n) d.patterns.push_back(std::to_string(n) + ":" + std::to_string(mm));
  }
  if (d.patterns.empty()) {
    cfg.fail(block->line, block->column, "sparsity.BlockSize",
             "expected 2, 4, 8 or 16 (the M of the N:M patterns the array runs), got " + block->value);
  }
  d.weight_format = "csr";
  if (const Entry* rep = cfg.find("sparsity", "SparseRep")) {
    const std::string r = cfg.choice(*rep, "sparsity", {"csr", "csc", "ellpack_block"});
    d.weight_format = r == "ellpack_block" ? "nm_indices" : "csr";
  }
  notes.push_back("[sparsity] SparsitySupport: the array runs the topology's N:M filters "
                  "compressed (sparsity.structured, M = " + (m ? std::to_string(m) : "any") +
                  "), the filters kept as " + d.weight_format + " in DRAM and the scratchpad");
}

Design readDesign(const Cfg& cfg, const std::string& source, std::vector<std::string>& notes) {
  const std::string ap = "architecture_presets";
  Design d;
  const Entry* run_name = cfg.find("general", "run_name");
  d.name = run_name && !run_name->value.empty()
               ? run_name->value
               : std::filesystem::path(source).stem().string();
  d.rows = cfg.integer(cfg.need(ap, "ArrayHeight"), ap, 1, int64_t{1} << 20);
  d.cols = cfg.integer(cfg.need(ap, "ArrayWidth"), ap, 1, int64_t{1} << 20);
  const int64_t max_kib = int64_t{1} << 30;
  d.ifmap_kib = cfg.integer(cfg.need(ap, "IfmapSramSzkB"), ap, 1, max_kib);
  d.filter_kib = cfg.integer(cfg.need(ap, "FilterSramSzkB"), ap, 1, max_kib);
  d.ofmap_kib = cfg.integer(cfg.need(ap, "OfmapSramSzkB"), ap, 1, max_kib);
  d.dataflow = cfg.choice(cfg.need(ap, "Dataflow"), ap, {"os", "ws", "is"});
  const Entry& mode = cfg.need("run_presets", "InterfaceBandwidth");
  d.user_bandwidth = cfg.choice(mode, "run_presets", {"USER", "CALC"}) == "USER";
  const Entry* bw = cfg.find(ap, "Bandwidth");
  if (d.user_bandwidth) {
    d.bandwidth = bandwidth(cfg, cfg.need(ap, "Bandwidth"), notes);
    notes.push_back("InterfaceBandwidth USER: dram.bandwidth is Bandwidth, " +
                    std::to_string(d.bandwidth) + " words/cycle = " +
                    std::to_string(d.bandwidth) + " B/cycle; dma.bus_width matches it so the DMA "
                    "never narrows it. SCALE-Sim v3 feeds ifmap and filter at the [layout] "
                    "*SRAMBankBandwidth values instead; tessel's DRAM has one bandwidth");
  } else {
    d.bandwidth = bw ? bandwidth(cfg, *bw, notes) : 10;
    notes.push_back("InterfaceBandwidth CALC: SCALE-Sim sizes DRAM bandwidth so the array never "
                    "stalls and reports what it needed; tessel needs a number, so dram.bandwidth "
                    "is " + std::to_string(d.bandwidth) + " B/cycle (" +
                    (bw ? "the file's Bandwidth" : "SCALE-Sim's placeholder of 10 words/cycle") +
                    "); run with --ideal-memory for CALC's stall-free timing");
  }
  checkIgnored(cfg);
  readSparsity(cfg, d, notes);
  return d;
}

void ignoredNotes(const Cfg& cfg, std::vector<std::string>& notes) {
  notes.push_back("IfmapOffset/FilterOffset/OfmapOffset only place SCALE-Sim's address traces; "
                  "ignored");
  if (cfg.find("architecture_presets", "MemoryBanks") ||
      cfg.find("architecture_presets", "OnChipMemoryBanks") ||
      cfg.find("architecture_presets", "ReadRequestBuffer")) {
    notes.push_back("MemoryBanks/OnChipMemoryBanks/OnChipMemoryBankPorts and the request buffers "
                    "are not mapped: each SRAM is one bank, one port");
  }
  if (cfg.sections.count("layout") != 0) {
    notes.push_back("[layout] (v3 custom data layouts and SRAM banking) is not mapped");
  }
  const Entry* ram = cfg.find("run_presets", "UseRamulatorTrace");
  if (ram && lower(ram->value) == "true") {
    notes.push_back("UseRamulatorTrace: tessel uses its own DRAM model (bandwidth, no Ramulator)");
  }
  if (const Entry* topo = cfg.find("network_presets", "TopologyCsvLoc")) {
    notes.push_back("TopologyCsvLoc " + topo->value + " is not read: pass it as --workload");
  }
}

std::string render(const Design& d, const std::string& source,
                   const std::vector<std::string>& notes) {
  const std::string df = d.dataflow, bw = std::to_string(d.bandwidth) + " B/cycle";
  std::ostringstream y;
  y << "# Imported from the SCALE-Sim config " << source << " by `tessel arch import`.\n"
    << "# Assumptions (SCALE-Sim does not give these; edit them to match your design):\n";
  for (const std::string& n : notes) y << "#   - " << n << "\n";
  y << "name: " << quoted(d.name) << "\n"
    << "description: "
    << quoted("SCALE-Sim " + d.name + ": " + std::to_string(d.rows) + "x" + std::to_string(d.cols) +
              " systolic array (" + df + "), " + std::to_string(d.ifmap_kib) + " KiB ifmap + " +
              std::to_string(d.filter_kib) + " KiB filter + " + std::to_string(d.ofmap_kib) +
              " KiB ofmap SRAM, " + std::to_string(d.bandwidth) + " words/cycle DRAM")
    << "\n"
    << "clock: 1 GHz                 # assumed: SCALE-Sim counts cycles only\n"
    << "technology:\n  node: 45nm                 # assumed: tessel's default node (energy, area)\n"
    << "dram:\n"
    << "  bandwidth: " << bw << "      # Bandwidth x 1-byte words\n"
    << "  latency: 0 cycles          # assumed: SCALE-Sim's memory model charges bandwidth only\n"
    << "  capacity: 0 B              # assumed: unbounded\n"
    << "scratchpad:                  # IfmapSram and FilterSram, a pool each\n"
    << "  capacity: {inputs: " << d.ifmap_kib << " KiB, weights: " << d.filter_kib << " KiB}\n"
    << "  bandwidth: " << d.rows + d.cols
    << " B/cycle      # assumed: one word per edge PE a cycle\n"
    << "accumulator:                 # OfmapSram\n"
    << "  capacity: " << d.ofmap_kib << " KiB\n"
    << "  holds: [outputs]\n"
    << "dma:\n  bus_width: " << bw << "      # as wide as the DRAM bandwidth\n"
    << "array:\n  kind: systolic\n"
    << "  rows: " << d.rows << "                   # ArrayHeight\n"
    << "  cols: " << d.cols << "                   # ArrayWidth\n"
    << "  input_dtype: int8          # SCALE-Sim words are 1 byte\n"
    << "  weight_dtype: int8\n"
    << "  accum_dtype: int8          # 1-byte ofmap words, as SCALE-Sim counts them\n"
    << "  dataflows: [" << df << "]             # Dataflow\n";
  if (!d.patterns.empty()) {
    y << "sparsity:                    # [sparsity] SparsitySupport\n  structured: [";
    for (size_t i = 0; i < d.patterns.size(); ++i) y << (i ? ", " : "") << '"' << d.patterns[i] << '"';
    y << "]\n  formats:\n"
      << "    dram: {weights: " << d.weight_format << "}        # SparseRep\n"
      << "    scratchpad: {weights: " << d.weight_format << "}\n";
  }
  return y.str();
}

}  // namespace

ScalesimImport convertScalesimConfig(const std::string& text, const std::string& source) {
  const Cfg cfg = parse(text, source);
  ScalesimImport out;
  std::vector<std::string>& notes = out.assumptions;
  notes.push_back("clock 1 GHz: SCALE-Sim counts cycles only, so one cycle is one ns");
  notes.push_back("word size 1 byte for ifmap, filter and ofmap (SCALE-Sim's word_size = 1); "
                  "the array is int8 x int8 with int8 outputs (accum_dtype int8), so each SRAM "
                  "holds as many words as in SCALE-Sim");
  notes.push_back("SRAM sizes in kB are KiB (SCALE-Sim multiplies by 1024)");
  const Design d = readDesign(cfg, source, notes);
  notes.push_back("the ifmap and filter SRAMs become the scratchpad's inputs and weights pools (" +
                  std::to_string(d.ifmap_kib) + " and " + std::to_string(d.filter_kib) +
                  " KiB, each its own buffer, as SCALE-Sim's fixed SRAMs are); the ofmap SRAM "
                  "becomes the accumulator");
  notes.push_back(
      "scratchpad bandwidth ArrayHeight + ArrayWidth = " + std::to_string(d.rows + d.cols) +
      " B/cycle on each pool's port, at least one word per edge PE a cycle "
      "(SCALE-Sim's SRAMs never stall the array); the accumulator's derives from "
      "ArrayWidth");
  notes.push_back("DRAM latency 0, capacity unbounded, type ddr4; technology 45nm: energies and "
                  "areas are tessel's defaults (SCALE-Sim models neither)");
  notes.push_back("host: tessel's default host (SCALE-Sim has none; its topologies hold only "
                  "conv and GEMM layers)");
  ignoredNotes(cfg, notes);
  out.yaml = render(d, source, notes);
  return out;
}

ScalesimImport importScalesimConfig(const std::string& path) {
  // The one rule every input file follows (util/input_file.h); a .cfg is a few hundred bytes.
  return convertScalesimConfig(readInputFile(path, "a SCALE-Sim .cfg file", size_t{1} << 20), path);
}

}  // namespace tessel::arch
