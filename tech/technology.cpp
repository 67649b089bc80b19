#include "tech/technology.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "util/suggest.h"
#include "util/yaml.h"

namespace tessel::tech {

const std::vector<std::pair<std::string, std::string>>& embeddedTables();  // builtin_tables.cpp

namespace {

constexpr const char* kDramTable = "dram";

const std::string* embedded(std::string_view stem) {
  for (const auto& [name, text] : embeddedTables()) {
    if (name == stem) return &text;
  }
  return nullptr;
}

// Every quantity of a table is below this: the shipped tables' largest is 1.1e5 (a leakage in
// pW per bit), and a cell area or halo of 1e9 um keeps a petabyte's area finite.
constexpr double kLargestTableNumber = 1e9;

// A positive finite number, or zero where `zero_ok`, at most kLargestTableNumber.
double number(yaml::MapReader& r, const std::string& key, std::string_view what, bool zero_ok = false) {
  const yaml::Node n = r.require(key, what);
  const double v = n.as<double>();
  if (v < 0 || (!zero_ok && v == 0)) {
    const std::string expected = zero_ok ? "expected a number >= 0 (" : "expected a positive number (";
    n.fail(expected + std::string(what) + ")");
  }
  if (v > kLargestTableNumber) n.fail("expected at most 1e9 (" + std::string(what) + ")");
  return v;
}

// {energy_pj, area_um2, source}
OpCost opCost(const yaml::Node& n) {
  yaml::MapReader r(n);
  OpCost c;
  c.energy_pj = number(r, "energy_pj", "pJ per operation");
  c.area_um2 = number(r, "area_um2", "um^2 of one unit");
  r.find("source");
  r.finish();
  return c;
}

SramTable sram(const yaml::Node& n) {
  yaml::MapReader r(n);
  SramTable s;
  s.fixed_pj_per_bit = number(r, "fixed_pj_per_bit", "per-bit read energy independent of size", true);
  s.sqrt_pj_per_bit = number(r, "sqrt_pj_per_bit", "per-bit read energy per sqrt(bits of a bank)", true);
  s.write_ratio = number(r, "write_ratio", "write energy / read energy");
  s.cell_area_um2 = number(r, "cell_area_um2", "area of one bit cell");
  s.array_efficiency = number(r, "array_efficiency", "bit-cell area / macro area");
  if (s.array_efficiency > 1) r.require("array_efficiency", "").fail("expected a fraction in (0, 1]");
  s.leakage_pw_per_bit = number(r, "leakage_pw_per_bit", "leakage per bit", true);
  s.extra_port_area = number(r, "extra_port_area", "area factor per extra port", true);
  if (r.find("macro_halo_um")) {
    s.macro_halo_um = number(r, "macro_halo_um", "space around a placed macro, um", true);
  }
  r.find("source");
  r.finish();
  return s;
}

CellTable cells(const yaml::Node& n) {
  yaml::MapReader r(n);
  CellTable c;
  c.pj_per_bit = number(r, "pj_per_bit", "energy to read or write one bit");
  c.area_um2_per_bit = number(r, "area_um2_per_bit", "area per bit");
  c.leakage_pw_per_bit = number(r, "leakage_pw_per_bit", "leakage per bit", true);
  r.find("source");
  r.finish();
  return c;
}

double single(const yaml::Node& n, const std::string& key, std::string_view what) {
  yaml::MapReader r(n);
  const double v = number(r, key, what, true);
  r.find("source");
  r.finish();
  return v;
}

void readAdds(const yaml::Node& n, Technology& t) {
  yaml::MapReader r(n);
  t.int_add = opCost(r.require("int", "a 32-bit integer add"));
  t.fp_add = opCost(r.require("fp", "an fp32 add"));
  r.finish();
}

Technology parse(const yaml::Document& doc, double voltage) {
  yaml::MapReader r(doc.root());
  Technology t;
  t.source = doc.source();
  t.node = r.required<std::string>("node", "the node's name, e.g. 28nm");
  t.feature_nm = number(r, "feature_nm", "feature size in nm");
  t.nominal_voltage = number(r, "nominal_voltage", "the supply the energies are given at");
  r.find("sources");
  r.find("scaling");
  for (const auto& [key, value] : r.require("mac", "MAC energy and area by dtype").entries()) {
    t.mac.emplace_back(key.scalar(), opCost(value));
  }
  readAdds(r.require("add", "elementwise adds: int and fp"), t);
  t.sram = sram(r.require("sram", "the SRAM model"));
  t.register_file = cells(r.require("register_file", "a PE's register file"));
  t.flip_flop = cells(r.require("flip_flop", "pipeline registers"));
  t.wire_pj_per_bit_mm = single(r.require("wire", "on-chip wires"), "pj_per_bit_mm", "per bit per mm");
  t.logic_leakage_pw_per_um2 =
      single(r.require("logic", "standard-cell logic"), "leakage_pw_per_um2", "leakage density");
  r.finish();
  // 0.3x to 1.5x nominal covers near-threshold to overdrive; outside it the V^2 rule is not
  // credible.
  t.voltage = voltage > 0 ? voltage : t.nominal_voltage;
  if (t.voltage < 0.3 * t.nominal_voltage || t.voltage > 1.5 * t.nominal_voltage) {
    throw ConfigError(SourceLocation{t.source, 0, 0, "nominal_voltage"},
                      "voltage " + std::to_string(t.voltage) + " V is outside 0.3-1.5x the node's nominal " +
                          std::to_string(t.nominal_voltage) + " V");
  }
  return t;
}

bool isNode(const std::string& stem) { return stem != kDramTable; }

}  // namespace

namespace {

// The table row a dtype's MAC is costed by. The tables list int4, int8, int16, int32, fp8
// (E4M3), fp16, bf16 and fp32 MACs. Assumed for the rest: E5M2 as E4M3; uint4 as int4; fp6 and
// fp4 as fp8 (no published MAC cost at these nodes; an upper bound); a block-scaled type as its
// element (one scale multiply per block of 32 or more MACs is left out).
std::string_view macRowOf(DType d) {
  if (const auto s = blockScalingOf(d)) d = s->element;
  switch (d) {
    case DType::UInt4:
      return "int4";
    case DType::FP8_E4M3:
    case DType::FP8_E5M2:
    case DType::FP6_E3M2:
    case DType::FP6_E2M3:
    case DType::FP4_E2M1:
      return "fp8";
    default:
      return nameOf(d);
  }
}

}  // namespace

const OpCost* Technology::macOf(DType d) const {
  const std::string_view name = macRowOf(d);
  for (const auto& [key, cost] : mac) {
    if (key == name) return &cost;
  }
  return nullptr;
}

double Technology::dynamicScale() const {
  const double r = voltage / nominal_voltage;
  return r * r;
}

double Technology::leakageScale() const { return voltage / nominal_voltage; }

std::vector<std::string> shippedNodes() {
  std::vector<std::pair<double, std::string>> nodes;
  for (const auto& [stem, text] : embeddedTables()) {
    if (isNode(stem)) nodes.emplace_back(std::atof(stem.c_str()), stem);
  }
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(n.second);
  return out;
}

Technology shippedTechnology(std::string_view node, double voltage) {
  const std::string* text = isNode(std::string(node)) ? embedded(node) : nullptr;
  if (text == nullptr) {
    std::string list;
    for (const auto& n : shippedNodes()) list += (list.empty() ? "" : ", ") + n;
    throw ConfigError(SourceLocation{}, "unknown technology node '" + std::string(node) +
                                            "'; shipped: " + list + didYouMean(std::string(node), shippedNodes()));
  }
  return parse(yaml::Document::fromString(*text, "<shipped>/configs/tech/" + std::string(node) + ".yaml"),
               voltage);
}

Technology technologyFromFile(const std::string& path, double voltage) {
  return parse(yaml::Document::fromFile(path), voltage);
}

namespace {

struct DramRow {
  double pj_per_bit = 0;
  DramInterface io;
};

const std::map<std::string, DramRow, std::less<>>& dramTable() {
  static const std::map<std::string, DramRow, std::less<>> table = [] {
    std::map<std::string, DramRow, std::less<>> out;
    const std::string* text = embedded(kDramTable);
    if (text == nullptr) return out;
    const auto doc = yaml::Document::fromString(*text, "<shipped>/configs/tech/dram.yaml");
    yaml::MapReader r(doc.root());
    r.find("sources");
    for (const auto& [key, value] : r.require("types", "DRAM types").entries()) {
      yaml::MapReader t(value);
      DramRow row;
      row.pj_per_bit = number(t, "energy_pj_per_bit", "energy per bit transferred");
      row.io.channel_gb_per_s = number(t, "channel_gb_per_s", "one channel's (or stack's) peak bandwidth");
      row.io.signals = number(t, "signals", "signal pins of one channel");
      row.io.bump_pitch_um = number(t, "bump_pitch_um", "pitch of the bumps the signals leave the die on");
      t.find("source");
      t.finish();
      out[key.scalar()] = row;
    }
    r.finish();
    return out;
  }();
  return table;
}

}  // namespace

std::vector<std::string> dramTypes() {
  std::vector<std::string> out;
  for (const auto& [name, row] : dramTable()) out.push_back(name);
  return out;
}

double dramPjPerBit(std::string_view type) {
  const auto& t = dramTable();
  const auto it = t.find(type);
  return it == t.end() ? -1 : it->second.pj_per_bit;
}

const DramInterface* dramInterface(std::string_view type) {
  const auto& t = dramTable();
  const auto it = t.find(type);
  return it == t.end() ? nullptr : &it->second.io;
}

}  // namespace tessel::tech
