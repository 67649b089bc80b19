// Walks schema() over a YAML document: presence, types, units and ranges of each value.
#include <climits>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "arch/building.h"
#include "arch/schema.h"
#include "util/suggest.h"
#include "util/units.h"
#include "util/yaml.h"

namespace tessel::arch {
namespace {

using T = ValueType;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// What one element of a list or map key is called in messages: a tensor wherever the choices
// are the three tensors.
std::string nounFor(const std::string& key, const std::vector<std::string>& choices) {
  if (key == "dataflows") return "dataflow";
  if (choices == std::vector<std::string>{"inputs", "weights", "outputs"}) return "tensor";
  if (key == "skip" || key == "gate") return "operand";
  if (key == "structured") return "N:M pattern";
  return "op";
}

std::string pick(const yaml::Node& n, const std::string& noun,
                 const std::vector<std::string>& choices) {
  const std::string& s = n.scalar("a name");
  for (const auto& c : choices) {
    if (c == s) return s;
  }
  n.fail("unknown " + noun + " " + quoted(s) + "; accepted: " + joinNames(choices) +
         didYouMean(s, choices));
}

DType dtypeOf(const yaml::Node& n) {
  const std::string& s = n.scalar("a dtype name");
  auto t = parseDType(s);
  if (!t) n.fail(dtypeError(s));
  return *t;
}

// A throughput key: a dtype, or "<activations>*<weights>" for a mixed pair.
std::string rateKeyOf(const yaml::Node& key) {
  const std::string& s = key.scalar("a dtype name");
  const size_t star = s.find('*');
  if (star == std::string::npos) return std::string(nameOf(dtypeOf(key)));
  const auto in = parseDType(s.substr(0, star)), w = parseDType(s.substr(star + 1));
  if (!in || !w) {
    key.fail("in the dtype pair " + quoted(s) + " (<activation dtype>*<weight dtype>, e.g. bf16*int4): " +
             dtypeError(!in ? s.substr(0, star) : s.substr(star + 1)));
  }
  return std::string(nameOf(*in)) + "*" + std::string(nameOf(*w));
}

std::vector<std::string> namesOf(const ParamSpec& p, const yaml::Node& n, Building* record) {
  std::vector<std::string> names;
  for (const auto& item : n.items()) {
    const std::string name = pick(item, nounFor(p.key, p.choices), p.choices);
    for (const auto& earlier : names) {
      if (earlier == name) item.fail(quoted(name) + " is listed twice");
    }
    names.push_back(name);
    if (record) record->where[item.path()] = item.where();
  }
  return names;
}

void checkRange(ValueType t, double value, const yaml::Node& n);

// {name: number} maps; keys are dtypes (DTypeRates) or op names (OpCosts).
std::vector<std::pair<std::string, double>> pairsOf(const ParamSpec& p, const yaml::Node& n) {
  std::vector<std::pair<std::string, double>> pairs;
  for (const auto& [key, value] : n.entries()) {
    const std::string name = p.type == T::DTypeRates ? rateKeyOf(key) : pick(key, nounFor(p.key, p.choices), p.choices);
    const double number = value.as<double>();
    if (number < 0) value.fail("must not be negative, got " + value.describe());
    if (number == 0 && p.type == T::DTypeRates) {
      value.fail("must be greater than zero (leave out dtypes the array cannot run)");
    }
    checkRange(T::Real, number, value);
    pairs.emplace_back(name, number);
  }
  return pairs;
}

std::string numberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void checkRange(ValueType t, double value, const yaml::Node& n) {
  const ValueRange r = valueRange(t);
  const std::string unit = *r.unit ? std::string(" ") + r.unit : "";
  if (value == 0 && !r.zero_ok) {
    n.fail("must be greater than zero, got " + n.describe() + " (0 has no physical meaning here)");
  }
  if (value > 0 && value < r.min_positive) {
    n.fail("must be 0 or at least " + numberText(r.min_positive) + unit + ", got " + n.describe() +
           " (" + numberText(value) + unit + "): so small a value makes times " +
           "and rates degenerate");
  }
  if (value > r.max) {
    // A finite number can still overflow once converted ("1e300 TB/s"): say so, not "inf".
    const std::string got = std::isfinite(value) ? " (" + numberText(value) + unit + ")"
                                                 : " (beyond any double once converted)";
    n.fail("must be at most " + numberText(r.max) + unit + ", got " + n.describe() + got);
  }
}

void convertQuantity(const ParamSpec& p, const yaml::Node& n, const Building& b, Value& v) {
  const SourceLocation& at = n.where();
  switch (p.type) {
    case T::Bytes:
      v.bytes = units::parseBytes(n.scalar("a size"), at);
      v.number = static_cast<double>(v.bytes);
      break;
    case T::Bandwidth:
      v.number = units::parseBandwidth(n.scalar("a bandwidth"), b.acc.clock_hz, at);
      break;
    case T::ByteRate:
      v.number = units::parseByteRate(n.scalar("a byte rate"), b.acc.host.clock_hz, at);
      break;
    case T::Frequency:
      v.number = units::parseFrequency(n.scalar("a frequency"), at);
      break;
    case T::Time:
      v.number = units::parseCycles(n.scalar("a time"), b.acc.clock_hz, at);
      break;
    case T::Energy:
      v.number = units::parseEnergy(n.scalar("an energy"), at);
      break;
    case T::EnergyPerByte:
      v.number = units::parseEnergyPerByte(n.scalar("an energy per byte"), at);
      break;
    case T::FlopRate:
      v.number = units::parseFlopRate(n.scalar("a FLOP rate"), at);
      break;
    case T::Area:
      v.number = units::parseArea(n.scalar("an area"), at);
      break;
    case T::Power:
      v.number = units::parsePower(n.scalar("a power"), at);
      break;
    case T::Voltage:
      v.number = units::parseVoltage(n.scalar("a voltage"), at);
      break;
    case T::Length:
      v.number = units::parseLength(n.scalar("a length"), at);
      break;
    case T::Integer:
      v.number = n.as<int>();
      break;
    default:
      v.number = n.as<double>();
      break;  // T::Real
  }
  if (v.number < 0) n.fail("must not be negative, got " + n.describe());
  if (p.positive && v.number == 0) n.fail("must be greater than zero, got " + n.describe());
  if (p.max > 0 && v.number > p.max) {
    n.fail("must be at most " + numberText(p.max) + ", got " + n.describe());
  }
  checkRange(p.type, v.number, n);
}

Value convert(const ParamSpec& p, const yaml::Node& n, Building& b, bool record) {
  Value v;
  switch (p.type) {
    case T::Boolean:
      v.flag = n.as<bool>();
      break;
    case T::Text:
      v.text = n.as<std::string>();
      break;
    case T::DTypeName:
      v.dtype = dtypeOf(n);
      break;
    case T::Choice:
      v.text = pick(n, "value", p.choices);
      break;
    case T::NameList:
      v.names = namesOf(p, n, record ? &b : nullptr);
      break;
    case T::DTypeRates:
    case T::OpCosts:
      v.pairs = pairsOf(p, n);
      break;
    case T::TensorBytes:
      if (n.isMap()) {
        for (const auto& [key, value] : n.entries()) {
          const std::string name = pick(key, nounFor(p.key, p.choices), p.choices);
          const uint64_t bytes = units::parseBytes(value.scalar("a size"), value.where());
          if (bytes == 0) {
            value.fail("a capacity of " + value.describe() + " holds nothing: leave " + name +
                       " out of the map (it bypasses this level) or give it a size");
          }
          checkRange(T::Bytes, static_cast<double>(bytes), value);
          if (bytes > INT_MAX) value.fail(value.describe() + " is too large for " + quoted(p.key));
          v.pairs.emplace_back(name, static_cast<double>(bytes));
        }
        if (v.pairs.empty()) n.fail("must name at least one tensor's size");
        return v;
      }
      v.bytes = units::parseBytes(n.scalar("a size, or a map tensor -> size"), n.where());
      v.number = static_cast<double>(v.bytes);
      if (p.positive && v.number == 0) n.fail("must be greater than zero, got " + n.describe());
      checkRange(T::Bytes, v.number, n);
      return v;
    default:
      convertQuantity(p, n, b, v);
      return v;
  }
  const bool is_list = p.type == T::NameList || p.type == T::DTypeRates || p.type == T::OpCosts;
  if (p.positive && is_list && v.names.empty() && v.pairs.empty()) n.fail("must not be empty");
  return v;
}

void store(const ParamSpec& p, const yaml::Node& n, Building& b, bool record) {
  const Value v = convert(p, n, b, record);
  try {
    p.apply(b, v);
  } catch (const std::out_of_range&) {
    n.fail(n.describe() + " is too large for " + quoted(p.key));
  }
}

bool isMapType(ValueType t) { return t == T::DTypeRates || t == T::OpCosts; }

void readParam(const ParamSpec& p, yaml::MapReader* r, const std::string& section, Building& b) {
  const std::string path = yaml::joinPath(section, p.key);
  std::optional<yaml::Node> node;
  if (r) node = p.need == Need::Required ? r->require(p.key, p.description) : r->find(p.key);
  // Defaults are YAML text read like user input; maps merge the user's entries over them.
  if (p.need == Need::Optional && (!node || isMapType(p.type))) {
    const auto doc = yaml::Document::fromString(p.default_text, "<default of " + path + ">");
    store(p, doc.root(), b, false);
  }
  if (!node) return;
  b.given.insert(path);
  b.where[path] = node->where();
  store(p, *node, b, true);
}

std::string lastKey(const std::string& path) { return path.substr(path.find_last_of('.') + 1); }

bool hasRequiredParams(const SectionSpec& s) {
  for (const auto& p : s.params) {
    if (p.need == Need::Required) return true;
  }
  return false;
}

void readSection(const SectionSpec& s, const std::optional<yaml::Node>& node, Building& b);

void readChildren(const SectionSpec& s, yaml::MapReader* r, Building& b) {
  for (const auto& child : schema()) {
    if (child.path.empty() || yaml::parentPath(child.path) != s.path) continue;
    const std::string key = lastKey(child.path);
    std::optional<yaml::Node> n;
    if (r) n = child.required ? r->require(key, child.description) : r->find(key);
    // A section whose every parameter has a default exists even when left out.
    if (n || !hasRequiredParams(child)) readSection(child, n, b);
  }
}

void readSection(const SectionSpec& s, const std::optional<yaml::Node>& node, Building& b) {
  std::optional<yaml::MapReader> r;
  if (node) {
    b.where[s.path] = node->where();
    r.emplace(*node);
    // Misspelled keys first: "did you mean 'capacity'" beats "missing 'capacity'".
    for (const auto& p : s.params) r->find(p.key);
    for (const auto& child : schema()) {
      if (!child.path.empty() && yaml::parentPath(child.path) == s.path)
        r->find(lastKey(child.path));
    }
    r->finish();
  }
  if (s.enter) s.enter(b);
  for (const auto& p : s.params) readParam(p, r ? &*r : nullptr, s.path, b);
  readChildren(s, r ? &*r : nullptr, b);
}

}  // namespace

void readSections(const yaml::Node& root, Building& b) { readSection(schema().front(), root, b); }

}  // namespace tessel::arch
