#include "sweep/axis_notes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace tessel::sweep {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::vector<std::string> derivedKeys(const Spec& spec) {
  std::vector<std::string> keys;
  for (const Derived& d : spec.derived) keys.push_back(d.key);
  return keys;
}

// The line's params but `key` and the derived keys: what "the other keys fixed" means.
std::string othersOf(const ResultLine& line, const std::string& key,
                     const std::vector<std::string>& derived) {
  nlohmann::ordered_json others = nlohmann::ordered_json::object();
  for (const auto& [k, v] : line.params.items()) {
    if (k != key && !contains(derived, k)) others[k] = v;
  }
  return others.dump();
}

// What the comparison of one key found over all its groups.
struct Verdict {
  int64_t groups = 0;  // groups with two ok points that differ in the key
  bool changed = false;
  std::set<std::string> limits;
  std::set<double> rates;
};

void judge(const std::vector<const ResultLine*>& group, const std::string& key, Verdict& v) {
  std::set<std::string> values;
  const ResultLine* first_ok = nullptr;
  bool failed = false;
  for (const ResultLine* line : group) {
    if (!line->ok) {
      failed = true;
      continue;
    }
    values.insert(line->params[key].dump());
    if (!first_ok) first_ok = line;
    if (line->metrics != first_ok->metrics) v.changed = true;
    v.limits.insert(line->metrics.value("offchip_limit", std::string()));
    const double rate = metricNumber(*line, "offchip_bytes_per_cycle");
    if (!std::isnan(rate)) v.rates.insert(rate);
  }
  if (first_ok && failed) v.changed = true;  // it ran at one value and not at another
  if (values.size() > 1) ++v.groups;
}

Verdict compare(const std::string& key, const std::vector<ResultLine>& lines,
                const std::vector<std::string>& derived) {
  std::map<std::string, std::vector<const ResultLine*>> groups;
  for (const ResultLine& line : lines) {
    if (line.params.contains(key)) groups[othersOf(line, key, derived)].push_back(&line);
  }
  Verdict v;
  for (const auto& [others, group] : groups) {
    if (group.size() > 1) judge(group, key, v);
  }
  return v;
}

bool onOffchipPath(const std::string& key) {
  for (const char* prefix : {"dram.", "l2.", "dma."}) {
    if (key.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

AxisNote noteOf(const std::string& key, const Verdict& v) {
  AxisNote n;
  n.key = key;
  n.groups = v.groups;
  n.message = key + " changed no result (every point equal when only it varies)";
  if (v.limits.size() == 1 && v.rates.size() == 1 && !v.limits.begin()->empty()) {
    n.offchip_limit = *v.limits.begin();
    n.offchip_bytes_per_cycle = *v.rates.begin();
  }
  if (!n.offchip_limit.empty() && onOffchipPath(key)) {
    const bool parameter = n.offchip_limit.find('.') != std::string::npos;
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.6g", n.offchip_bytes_per_cycle);
    n.message += "; the off-chip rate is set by " + std::string(parameter ? "" : "the ") +
                 n.offchip_limit + " (" + rate + " B/cycle)";
  }
  return n;
}

}  // namespace

std::vector<std::string> sweptKeys(const Spec& spec) {
  std::vector<std::string> set_by_axes;
  auto add = [&](const Choices& axis) {
    for (const std::vector<Assignment>& option : axis) {
      for (const Assignment& a : option) set_by_axes.push_back(a.key);
    }
  };
  for (const Choices& axis : spec.sources) add(axis);
  for (const WorkloadSpec& w : spec.workloads) {
    for (const Choices& axis : w.swept) add(axis);
  }
  const std::vector<std::string> derived = derivedKeys(spec);
  std::vector<std::string> keys;
  for (const std::string& k : spec.keys) {
    if (contains(set_by_axes, k) && !contains(derived, k)) keys.push_back(k);
  }
  return keys;
}

std::vector<AxisNote> flatAxes(const Spec& spec, const std::vector<ResultLine>& lines) {
  const std::vector<std::string> derived = derivedKeys(spec);
  std::vector<AxisNote> notes;
  for (const std::string& key : sweptKeys(spec)) {
    const Verdict v = compare(key, lines, derived);
    if (v.groups > 0 && !v.changed) notes.push_back(noteOf(key, v));
  }
  return notes;
}

}  // namespace tessel::sweep
