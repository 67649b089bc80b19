#include "sweep/points.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "sweep/base_values.h"
#include "sweep/expression.h"
#include "util/budget.h"
#include "util/checked.h"

namespace tessel::sweep {
namespace {

std::string pointId(const std::string& workload, const std::vector<Assignment>& values) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over "workload;key=value;..."
  auto mix = [&](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ ';') * 1099511628211ull;
  };
  mix(workload);
  for (const Assignment& a : values) mix(a.key + "=" + a.value);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Sets (or replaces) key = value.
void assign(std::vector<Assignment>& values, const Assignment& a) {
  for (Assignment& v : values) {
    if (v.key == a.key) {
      v.value = a.value;
      return;
    }
  }
  values.push_back(a);
}

// Orders a point's values as the spec lists its keys.
std::vector<Assignment> ordered(const Spec& spec, const std::vector<Assignment>& values) {
  std::vector<Assignment> out;
  for (const std::string& key : spec.keys) {
    for (const Assignment& a : values) {
      if (a.key == key) out.push_back(a);
    }
  }
  return out;
}

// A derived value as text an override accepts: whole numbers without a decimal point.
std::string numberText(double v) {
  char buf[64];
  if (std::fabs(v) < 9e15 && v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%.12g", v);
  }
  return buf;
}

// A constraint over metrics is checked after the run; the keys it reads must have values now,
// so that a key nobody sets is an error before anything runs.
void checkKeysOf(const Constraint& c, const Lookup& lookup) {
  for (const std::string& name : identifiers(c.expression, c.where)) {
    if (!canonicalMetric(name)) lookup(name);
  }
}

// Heap bytes of a key or value string longer than the small-string buffer ("scratchpad.capacity").
constexpr size_t kStringPayload = 32;

class Generator {
 public:
  Generator(const Spec& spec, int64_t limit)
      : spec_(spec), base_(spec), limit_(limit) {}

  PointSet run() {
    // Every point is held (values of each key, its id) until the sweep runs: the product of the
    // axes over all workloads must fit the memory budget before the first point is made.
    const auto point_bytes = static_cast<int64_t>(
        sizeof(Point) + (spec_.keys.size() + 2) * (sizeof(Assignment) + 2 * kStringPayload));
    int64_t total = 0;
    for (const WorkloadSpec& w : spec_.workloads) {
      std::vector<const Choices*> axes;
      for (const Choices& c : w.swept) axes.push_back(&c);
      for (const Choices& c : spec_.sources) axes.push_back(&c);
      int64_t count = 1;
      for (const Choices* c : axes) {
        count = checked::mul(count, static_cast<int64_t>(c->size()), [] { return "sweep points"; });
        if (count > limit_) {
          throw ConfigError({spec_.path, 0, 0, ""},
                            "the sweep has more than " + std::to_string(limit_) +
                                " combinations; split it or use a random sample");
        }
      }
      total = checked::add(total, count, [] { return "sweep points"; });
      budget::checkCount(total, point_bytes, "sweep points (the product of the axes)",
                         {spec_.path, 0, 0, "grid"});
      std::vector<Assignment> values = w.options;
      values.insert(values.begin(), Assignment{"workload", w.name});
      walk(w, axes, 0, values);
    }
    return std::move(set_);
  }

 private:
  void walk(const WorkloadSpec& w, const std::vector<const Choices*>& axes, size_t axis,
            std::vector<Assignment> values) {
    if (axis == axes.size()) {
      finish(w, std::move(values));
      return;
    }
    for (const std::vector<Assignment>& option : *axes[axis]) {
      std::vector<Assignment> next = values;
      for (const Assignment& a : option) assign(next, a);
      walk(w, axes, axis + 1, std::move(next));
    }
  }

  void finish(const WorkloadSpec& w, std::vector<Assignment> values) {
    if (!spec_.dataflow.empty()) {
      bool set = false;
      for (const Assignment& a : values) set = set || a.key == "dataflow";
      if (!set) values.push_back({"dataflow", spec_.dataflow});
    }
    const Lookup lookup = [&](const std::string& key) { return keyValue(values, base_, spec_, key); };
    for (const Derived& d : spec_.derived) {
      assign(values, {d.key, numberText(evaluate(d.expression, lookup, d.where))});
    }
    for (const Constraint& c : spec_.constraints) {
      if (c.on_metrics) {
        checkKeysOf(c, lookup);  // the metrics come after the run
        continue;
      }
      if (evaluate(c.expression, lookup, c.where) == 0) {
        ++set_.skipped;
        return;
      }
    }
    Point p;
    p.index = static_cast<int64_t>(set_.points.size());
    p.workload = w.name;
    p.values = ordered(spec_, values);
    p.id = pointId(p.workload, p.values);
    set_.points.push_back(std::move(p));
  }

  const Spec& spec_;
  BaseValues base_;
  int64_t limit_;
  PointSet set_;
};

}  // namespace

std::vector<std::string> Point::overrides() const {
  std::vector<std::string> out;
  for (const Assignment& a : values) {
    if (a.key == "workload" || a.key == "dataflow" || a.key == "arch" ||
        a.key.rfind("workload.", 0) == 0) {
      continue;
    }
    out.push_back(a.key + "=" + a.value);
  }
  return out;
}

std::string Point::value(const std::string& key) const {
  for (const Assignment& a : values) {
    if (a.key == key) return a.value;
  }
  return "";
}

PointSet generatePoints(const Spec& spec, int64_t limit) { return Generator(spec, limit).run(); }

}  // namespace tessel::sweep
