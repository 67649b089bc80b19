// The header and the table of points of a sweep report.
#include <cmath>

#include "reports/html/report_doc.h"
#include "reports/html/sweep_input.h"
#include "reports/html/text.h"

namespace tessel::reports::html {

// The scalar metrics the points carry, in sweep.json's order (by_class and by_cause are maps).
std::vector<std::string> scalarMetrics(const SweepData& d) {
  std::vector<std::string> names;
  for (const Json& m : d.meta.value("metrics", Json::array())) {
    const std::string name = scalarText(m);
    for (const SweepPoint& p : d.points) {
      if (p.metrics.contains(name) && p.metrics[name].is_number()) {
        names.push_back(name);
        break;
      }
    }
  }
  return names;
}

Table pointsTable(const SweepData& d) {
  Table t{"points", "Every point of the sweep", {{"index", true}, {"status", false}}, {}};
  std::vector<std::string> keys;
  for (const Json& k : d.meta["keys"]) keys.push_back(scalarText(k));
  for (const std::string& k : keys) t.columns.push_back({k, false});
  const auto metrics = scalarMetrics(d);
  for (const std::string& m : metrics) t.columns.push_back({m, true});
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
    row.push_back(textCell(p.error_kind));
    row.push_back(textCell(p.error));
    t.addRow(std::move(row));
  }
  return t;
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
