// The report of a dataflow comparison (`tessel compare --json`): cycles and energy per workload
// by dataflow, who wins, and the table of runs.
#include "reports/format.h"
#include "reports/html/build.h"
#include "reports/html/json_input.h"
#include "reports/html/palette.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

// One panel per workload, each with its own axis from 0 (ResNet-50 and GPT-2 differ by orders of
// magnitude), one bar per dataflow that ran.
Chart metricChart(const Json& doc, const std::string& metric, const std::string& id) {
  GroupedBars c;
  c.id = id;
  c.unit = metricUnit(metric);
  c.panels = true;
  const Json& dfs = doc.at("dataflows");
  for (size_t i = 0; i < dfs.size(); ++i) c.series.push_back({scalarText(dfs[i]), seriesColor(i)});
  int g = 0;
  for (const Json& w : doc.at("workloads")) {
    const std::string wl = w.at("workload").get<std::string>();
    c.groups.push_back(wl);
    for (const Json& run : w.at("runs")) {
      if (!run.at("ok").get<bool>()) continue;
      const std::string df = run.at("dataflow").get<std::string>();
      int s = 0;
      while (s < static_cast<int>(c.series.size()) && c.series[s].name != df) ++s;
      if (s == static_cast<int>(c.series.size())) c.series.push_back({df, seriesColor(s)});
      const double v = run.at(metric).get<double>();
      c.bars.push_back({g,
                        s,
                        {v,
                         wl + " / " + df + ": " + metricText(metric, v),
                         {{"workload", wl}, {"dataflow", df}, {metric, exactNumber(v)}}}});
    }
    ++g;
  }
  return {id, (metric == "cycles" ? "Latency" : "Energy") + std::string(" by dataflow"),
          groupedBarsSvg(c),
          "One panel per workload, each with its own scale from 0: compare the dataflows within a "
          "panel, not bar heights across panels. Dataflows that could not run a workload have no "
          "bar."};
}

Table runsTable(const Json& doc) {
  Table t{"dataflows",
          "Runs per workload and dataflow",
          {{"workload", false},
           {"dataflow", false},
           {"status", false},
           {"cycles", true},
           {"seconds", true},
           {"energy_pj", true},
           {"utilization", true},
           {"dram_bytes", true},
           {"reason", false}},
          {}};
  for (const Json& w : doc.at("workloads")) {
    for (const Json& run : w.at("runs")) {
      const bool ok = run.at("ok").get<bool>();
      std::vector<Cell> row = {textCell(w.at("workload").get<std::string>()),
                               textCell(run.at("dataflow").get<std::string>()),
                               textCell(ok ? "ok" : "refused")};
      for (const char* m : {"cycles", "seconds", "energy_pj", "utilization", "dram_bytes"}) {
        row.push_back(
            ok ? numberCell(run.at(m).get<double>(), metricText(m, run.at(m).get<double>()))
               : textCell(""));
      }
      row.push_back(textCell(ok ? "" : run.value("reason", "")));
      t.addRow(std::move(row));
    }
  }
  return t;
}

Note winnersNote(const Json& w) {
  const Json win = w.value("winners", Json::object());
  std::string s = w.at("workload").get<std::string>() + ": ";
  for (const char* m : {"latency", "energy", "edp", "dram_bytes", "utilization"}) {
    if (win.contains(m)) s += std::string(m) + " best with " + scalarText(win[m]) + "; ";
  }
  return {s.substr(0, s.size() - 2) + ".", "", {}};
}

Report buildCompare(const std::string& json_text, const std::string& source) {
  const Json doc = parseJson(json_text, source);
  if (!doc.is_object() || doc.value("kind", "") != "compare" || !doc.contains("workloads")) {
    badInput(source,
             "expected a comparison (`tessel compare --json`) with kind \"compare\" and "
             "workloads");
  }
  Report r;
  r.kind = "compare";
  r.source = source;
  r.title = "Dataflows on " + doc.value("arch", Json::object()).value("name", "?");
  const Json arch = doc.value("arch", Json::object());
  r.metadata = {
      {"accelerator", arch.value("name", "?") + " (hash " + arch.value("hash", "?") + ")"},
      {"mapper objective", doc.value("mapper", Json::object()).value("objective", "?")},
      {"tessel", doc.value("tool_version", "?")}};
  r.headlines = {{"workloads", "Workloads", std::to_string(doc["workloads"].size()),
                  std::to_string(doc["workloads"].size())},
                 {"dataflows", "Dataflows", std::to_string(doc.at("dataflows").size()),
                  std::to_string(doc.at("dataflows").size())}};
  Section s{"dataflows", "Dataflows compared", {}, {}, {"dataflows"}};
  for (const Json& w : doc["workloads"]) s.notes.push_back(winnersNote(w));
  s.charts.push_back(metricChart(doc, "cycles", "chart-compare-cycles"));
  s.charts.push_back(metricChart(doc, "energy_pj", "chart-compare-energy"));
  r.sections.push_back(std::move(s));
  r.tables.push_back(runsTable(doc));
  return r;
}

}  // namespace

Report compareReport(const std::string& json_text, const std::string& source) {
  try {
    return buildCompare(json_text, source);
  } catch (const nlohmann::json::exception& e) {
    badInput(source,
             std::string("not a comparison as `tessel compare --json` writes: ") + e.what());
  }
}

}  // namespace tessel::reports::html
