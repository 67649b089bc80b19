// The report of one run (`tessel run --json`): headline totals, where the time goes by op class
// and by cause, where the energy goes, the traffic per level, the area, and the per-layer table.
#include <cmath>

#include "reports/format.h"
#include "reports/html/build.h"
#include "reports/html/json_input.h"
#include "reports/html/palette.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

void addMetadata(Report& r, const Json& doc) {
  const Json m = doc.value("metadata", Json::object());
  const Json arch = m.value("arch", Json::object());
  r.metadata.emplace_back("accelerator",
                          arch.value("name", "?") + " (hash " + arch.value("hash", "?") + ")");
  r.metadata.emplace_back("workload", m.value("workload", "?"));
  r.metadata.emplace_back("engine", m.value("engine", "?"));
  if (m.contains("clock_hz") && m["clock_hz"].is_number()) {
    r.metadata.emplace_back("clock", engHertz(m["clock_hz"].get<double>()));
  }
  if (m.contains("pes")) r.metadata.emplace_back("PEs", scalarText(m["pes"]));
  std::string options;
  const Json given = m.value("options", Json::object());  // items() keeps a reference to it
  for (const auto& [k, v] : given.items()) {
    options += (options.empty() ? "" : ", ") + k + "=" + scalarText(v);
  }
  if (!options.empty()) r.metadata.emplace_back("options", options);
  r.metadata.emplace_back("tessel", m.value("tool_version", "?"));
}

void addHeadlines(Report& r, const Json& totals, const std::string& src) {
  const double cycles = numberAt(totals, "cycles", src), seconds = numberAt(totals, "seconds", src);
  const double energy = numberAt(totals, "energy_pj", src), macs = numberAt(totals, "macs", src);
  const double util = numberAt(totals, "utilization", src);
  const double dram = numberAt(totals, "dram_bytes", src);
  r.headlines = {{"cycles", "Latency", humanCycles(cycles), exactNumber(cycles)},
                 {"seconds", "Time", engSeconds(seconds), exactNumber(seconds)},
                 {"energy_pj", "Energy", engEnergyPj(energy), exactNumber(energy)},
                 {"macs", "MACs", humanNumber(macs) + " MACs", exactNumber(macs)},
                 {"utilization", "Utilization", percentText(util) + "%", exactNumber(util)},
                 {"dram_bytes", "DRAM traffic", metricText("dram_bytes", dram), exactNumber(dram)}};
}

// One bar: `entries` (by_class or by_cause) as segments, coloured by name.
Chart breakdownChart(const Json& entries, const char* key, const std::string& id,
                     std::string (*color)(const std::string&), double total) {
  StackedBars c{id, metricUnit("cycles"), {{"all ops", {}}}, {}};
  for (const Json& e : entries) {
    const std::string name = e.at(key).get<std::string>();
    const double cyc = e.at("cycles").get<double>();
    if (!(cyc > 0)) continue;
    const std::string pct = total > 0 ? " (" + percentText(cyc / total) + "%)" : "";
    c.rows[0].segments.push_back({name,
                                  color(name),
                                  {cyc,
                                   name + ": " + cyclesText(cyc) + " cycles" + pct,
                                   {{key, name}, {"cycles", exactNumber(cyc)}}}});
    c.legend.push_back({name, color(name)});
  }
  return {id, std::string("Latency by ") + (std::string(key) == "class" ? "op class" : "cause"),
          stackedBarsSvg(c), ""};
}

Table breakdownTable(const Json& entries, const char* key, const char* name, const char* title) {
  Table t{name, title, {{key, false}, {"cycles", true}, {"fraction", true}}, {}};
  const bool with_ops = std::string(key) == "class";
  if (with_ops) t.columns.push_back({"ops", true});
  for (const Json& e : entries) {
    const double cyc = e.at("cycles").get<double>(), f = e.at("fraction").get<double>();
    std::vector<Cell> row = {textCell(e.at(key).get<std::string>()),
                             numberCell(cyc, cyclesText(cyc)), numberCell(f, percentText(f) + "%")};
    if (with_ops) row.push_back(countCell(e.at("ops").get<double>()));
    t.addRow(std::move(row));
  }
  return t;
}

}  // namespace

// Defined in run_layers.cpp.
Chart classByCauseChart(const Json& ops);
Table layersTable(const Json& doc);
// Defined in run_energy.cpp.
Section energySection(const Json& doc);
void addSiliconHeadlines(Report& r, const Json& totals);

namespace {

Report buildRun(const std::string& json_text, const std::string& source) {
  const Json doc = parseJson(json_text, source);
  if (!doc.is_object() || !doc.contains("schema_version") || !doc.contains("totals") ||
      !doc.contains("ops")) {
    badInput(source,
             "expected a run report (`tessel run --json`) with schema_version, totals "
             "and ops");
  }
  if (doc["schema_version"] != 1) {
    badInput(source,
             "expected schema_version 1 (reports/SCHEMA.md), got " + doc["schema_version"].dump());
  }
  Report r;
  r.kind = "run";
  r.source = source;
  const Json m = doc.value("metadata", Json::object());
  r.title =
      m.value("workload", "run") + " on " + m.value("arch", Json::object()).value("name", "?");
  addMetadata(r, doc);
  addHeadlines(r, doc.at("totals"), source);
  addSiliconHeadlines(r, doc.at("totals"));
  const Json& bd = doc.at("breakdown");
  const double total = numberAt(doc.at("totals"), "cycles", source);
  Section time{"time", "Where the time goes", {}, {}, {"classes", "causes"}};
  time.charts.push_back(
      breakdownChart(bd.at("by_class"), "class", "chart-by-class", classColor, total));
  time.charts.push_back(
      breakdownChart(bd.at("by_cause"), "cause", "chart-by-cause", causeColor, total));
  time.charts.push_back(classByCauseChart(doc.at("ops")));
  r.sections.push_back(std::move(time));
  r.sections.push_back(energySection(doc));
  r.tables.push_back(breakdownTable(bd.at("by_class"), "class", "classes", "Latency by op class"));
  r.tables.push_back(breakdownTable(bd.at("by_cause"), "cause", "causes", "Latency by cause"));
  r.tables.push_back(layersTable(doc));
  r.sections.push_back({"layers", "Per-layer results", {}, {}, {"layers"}});
  return r;
}

}  // namespace

Report runReport(const std::string& json_text, const std::string& source) {
  try {
    return buildRun(json_text, source);
  } catch (const nlohmann::json::exception& e) {
    badInput(source, std::string("not a run report as reports/SCHEMA.md describes: ") + e.what());
  }
}

}  // namespace tessel::reports::html
