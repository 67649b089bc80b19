// The header and the table of points of a sweep report.
#include <algorithm>
#include <cmath>

#include "reports/html/report_doc.h"
#include "reports/html/sweep_input.h"
#include "reports/html/text.h"

namespace tessel::reports::html {

namespace {

// The metrics the points carry whose values pass `kind`: sweep.json's order first, then any
// other in the order the points show them.
template <class Kind>
std::vector<std::string> metricsOf(const SweepData& d, Kind kind) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) != names.end()) return;
    for (const SweepPoint& p : d.points) {
      if (p.metrics.contains(name) && kind(p.metrics[name])) {
        names.push_back(name);
        return;
      }
    }
  };
  for (const Json& m : d.meta.value("metrics", Json::array())) add(scalarText(m));
  for (const SweepPoint& p : d.points) {
    for (const auto& [name, v] : p.metrics.items()) add(name);
  }
  return names;
}

std::string joinedText(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : "; ") + x;
  return s;
}

}  // namespace

// The scalar metrics the points carry (by_class and by_cause are maps).
std::vector<std::string> scalarMetrics(const SweepData& d) {
  return metricsOf(d, [](const Json& v) { return v.is_number(); });
}

Table pointsTable(const SweepData& d) {
  Table t{"points", "Every point of the sweep", {{"index", true}, {"status", false}}, {}};
  std::vector<std::string> keys;
  for (const Json& k : d.meta["keys"]) keys.push_back(scalarText(k));
  for (const std::string& k : keys) t.columns.push_back({k, false});
  const auto metrics = scalarMetrics(d);
  const auto texts = metricsOf(d, [](const Json& v) { return v.is_string(); });
  for (const std::string& m : metrics) t.columns.push_back({m, true});
  for (const std::string& m : texts) t.columns.push_back({m, false});
  t.columns.push_back({"violated", false});
  t.columns.push_back({"error_kind", false});
  t.columns.push_back({"error", false});
  for (const SweepPoint& p : d.points) {
    std::vector<Cell> row = {countCell(static_cast<double>(p.index)),
                             textCell(p.ok ? "ok" : "failed")};
    for (const std::string& k : keys)
      row.push_back(textCell(p.params.contains(k) ? scalarText(p.params[k]) : ""));
    for (const std::string& m : metrics) {
      const bool has = p.metrics.contains(m) && p.metrics[m].is_number();
      row.push_back(
          has ? numberCell(p.metrics[m].get<double>(), metricText(m, p.metrics[m].get<double>()))
              : textCell(""));
    }
    for (const std::string& m : texts) {
      row.push_back(textCell(p.metrics.contains(m) ? scalarText(p.metrics[m]) : ""));
    }
    row.push_back(textCell(joinedText(p.violated)));
    row.push_back(textCell(p.error_kind));
    row.push_back(textCell(p.error));
    t.addRow(std::move(row));
  }
  return t;
}

// summary.json's findings: the keys that changed no result, and the fronts the spec asked for.
std::vector<Note> summaryNotes(const SweepData& d) {
  std::vector<Note> notes;
  if (!d.summary.is_object()) return notes;
  for (const Json& n : d.summary.value("notes", Json::array())) {
    if (n.is_object() && n.contains("message")) {
      notes.push_back({scalarText(n["message"]), "", {{"key", n.value("key", "")}}});
    }
  }
  const Json pareto = d.summary.value("pareto", Json::object());
  std::string objectives;
  for (const Json& o : pareto.value("objectives", Json::array())) {
    objectives += (objectives.empty() ? "" : ", ") + o.value("metric", "?") + " (" +
                  o.value("direction", "min") + ")";
  }
  for (const Json& f : pareto.value("fronts", Json::array())) {
    std::string idx;
    for (const Json& i : f.value("indices", Json::array()))
      idx += (idx.empty() ? "" : ", ") + scalarText(i);
    notes.push_back({"The sweep's Pareto front of " + objectives + " for " +
                         f.value("workload", "?") + ": points " + idx + " (of " +
                         scalarText(f.value("candidates", Json(0))) + " candidates).",
                     "",
                     {{"workload", f.value("workload", "")}, {"indices", idx}}});
  }
  return notes;
}

void addSweepHeader(Report& r, const SweepData& d) {
  const Json& m = d.meta;
  r.title = "Sweep " + m.value("name", "?");
  for (const char* k : {"spec", "spec_hash", "base_arch", "engine"}) {
    if (m.contains(k)) r.metadata.emplace_back(k, scalarText(m[k]));
  }
  std::string keys;
  for (const Json& k : m["keys"]) keys += (keys.empty() ? "" : ", ") + scalarText(k);
  r.metadata.emplace_back("keys", keys);
  r.metadata.emplace_back("read from", r.source + "/" + d.read_from);
  size_t ok = 0;
  for (const SweepPoint& p : d.points) ok += p.ok ? 1 : 0;
  const std::string total = m.contains("total_points") ? scalarText(m["total_points"]) : "?";
  const std::string n = std::to_string(d.points.size());
  r.headlines = {{"total_points", "Points planned", total, total},
                 {"points", "Points read", n, n},
                 {"ok", "Ran", std::to_string(ok), std::to_string(ok)},
                 {"failed", "Failed", std::to_string(d.points.size() - ok),
                  std::to_string(d.points.size() - ok)}};
  if (d.read_from == "points.jsonl") {
    r.metadata.emplace_back("status", "interrupted: results.jsonl is absent, so these are the " +
                                          n + " points finished before the sweep stopped");
  }
}

}  // namespace tessel::reports::html
