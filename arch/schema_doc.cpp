// schemaDoc(): the parameter reference printed by `tessel arch schema`, generated from schema().
#include <cstdio>
#include <sstream>

#include "arch/load.h"
#include "arch/schema.h"
#include "util/suggest.h"

namespace tessel::arch {
namespace {

std::string typeText(const ParamSpec& p) {
  std::string t(unitOf(p.type));
  if (p.type == ValueType::Choice || p.type == ValueType::NameList)
    t += ": " + joinNames(p.choices);
  if (p.type == ValueType::OpCosts) t += " (ops: " + joinNames(p.choices) + ")";
  if (p.type == ValueType::TensorBytes) t += " (tensors: " + joinNames(p.choices) + ")";
  return t;
}

std::string needText(const ParamSpec& p) {
  switch (p.need) {
    case Need::Required:
      return "required";
    case Need::Optional:
      return "default " + p.default_text;
    case Need::Derived:
      break;
  }
  return "derived: " + p.default_text;
}

void section(std::ostringstream& out, const SectionSpec& s) {
  out << "\n"
      << (s.path.empty() ? "(top level)" : s.path) << " - "
      << (s.required ? "required" : "optional") << ": " << s.description << "\n";
  for (const auto& p : s.params) {
    const std::string path = s.path.empty() ? p.key : s.path + "." + p.key;
    const bool list = p.type == ValueType::NameList || p.type == ValueType::DTypeRates ||
                      p.type == ValueType::OpCosts;
    std::string range = !p.positive ? "" : list ? ", non-empty" : ", > 0";
    const bool numeric = p.type != ValueType::Boolean && p.type != ValueType::Text &&
                         p.type != ValueType::DTypeName && p.type != ValueType::Choice &&
                         p.type != ValueType::NameList;
    if (numeric) {
      const ValueRange r = valueRange(p.type);
      char b[96];
      std::snprintf(b, sizeof b, "%s%g..%g%s%s", p.positive ? "" : "0 or ", r.min_positive,
                    p.max > 0 ? p.max : r.max, *r.unit ? " " : "", r.unit);
      range = (p.positive && !list ? ", " : range + ", ") + b;
    }
    out << "  " << path << "  [" << needText(p) << "]  " << typeText(p) << range << "\n      "
        << p.description << "\n";
  }
}

}  // namespace

std::string schemaDoc() {
  std::ostringstream out;
  out << "tessel accelerator YAML: every parameter, [required] or [default], its unit and "
         "meaning.\n"
         "Write units after numbers: 256 KiB, 2 MB (= 2,000,000 B), 16 B/cycle, 25.6 GB/s, "
         "1 GHz, 100 ns,\n"
         "20 cycles, 0.2 pJ, 20 pJ/B, 32 GFLOP/s. ns and GB/s values convert to cycles with "
         "`clock`.\n"
         "Optional sections whose parameters all have defaults (dma, controller, noc, host, "
         "host.link, cores, layout) exist even when left out.\n"
         "Unknown keys are errors. Override any value with -p path=value, e.g. -p "
         "accumulator.capacity=256KiB.\n";
  for (const auto& s : schema()) section(out, s);
  return out.str();
}

}  // namespace tessel::arch
