// The per-class cause split and the per-layer table of a run report.
#include <map>

#include "reports/format.h"
#include "reports/html/json_input.h"
#include "reports/html/palette.h"
#include "reports/html/report_doc.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

const char* const kCauses[] = {"compute", "fill_drain", "memory_stall", "noc", "sfu", "host"};

// Bytes the op moved at the outermost level (the first of totals.bytes_by_level).
double outerBytes(const Json& op, const std::string& outer) {
  double bytes = 0;
  for (const Json& t : op.value("traffic", Json::array())) {
    if (t.value("level", "") != outer) continue;
    for (const char* dir : {"read", "write"}) {
      const Json per_operand = t.value(dir, Json::object());  // a copy: items() keeps a reference
      for (const auto& [operand, b] : per_operand.items()) bytes += b.get<double>();
    }
  }
  return bytes;
}

std::string mappingEntry(const Json& op, const char* key) {
  const Json m = op.value("mapping", Json::object());
  return m.contains(key) ? scalarText(m[key]) : "";
}

std::string mappingAll(const Json& op) {
  std::string s;
  const Json mapping = op.value("mapping", Json::object());
  for (const auto& [k, v] : mapping.items()) {
    s += (s.empty() ? "" : ";") + k + "=" + scalarText(v);
  }
  return s;
}

}  // namespace

Chart classByCauseChart(const Json& ops) {
  std::vector<std::string> classes;  // first-seen order, as the ops list them
  std::map<std::string, std::map<std::string, double>> sums;
  for (const Json& op : ops) {
    const std::string cls = op.at("class").get<std::string>();
    if (!sums.count(cls)) classes.push_back(cls);
    auto& by = sums[cls];
    for (const char* cause : kCauses) {
      by[cause] += op.at("cycles_by_cause").value(cause, 0.0);
    }
  }
  StackedBars c{"chart-class-by-cause", metricUnit("cycles"), {}, {}};
  for (const char* cause : kCauses) c.legend.push_back({cause, causeColor(cause)});
  for (const std::string& cls : classes) {
    StackedBars::Row row{cls, {}};
    for (const char* cause : kCauses) {
      const double v = sums[cls][cause];
      row.segments.push_back({cause,
                              causeColor(cause),
                              {v,
                               cls + " / " + cause + ": " + cyclesText(v) + " cycles",
                               {{"class", cls}, {"cause", cause}, {"cycles", exactNumber(v)}}}});
    }
    double total = 0;
    for (const auto& s : row.segments) total += s.mark.value;
    if (total > 0) c.rows.push_back(std::move(row));
  }
  return {c.id, "Each op class split by cause", stackedBarsSvg(c),
          "Sums of ops[].cycles_by_cause over the ops of each class."};
}

Table layersTable(const Json& doc) {
  std::string outer;
  const Json levels = doc.at("totals").value("bytes_by_level", Json::object());
  if (!levels.empty()) outer = levels.begin().key();
  Table t{"layers",
          "Per-layer results",
          {{"id", true},
           {"name", false},
           {"kind", false},
           {"class", false},
           {"placement", false},
           {"cycles", true},
           {"utilization", true},
           {"dram_bytes", true},
           {"dataflow", false},
           {"spatial", false},
           {"local_tile", false},
           {"mapping", false}},
          {}};
  for (const Json& op : doc.at("ops")) {
    const double cyc = op.at("cycles").get<double>(), util = op.at("utilization").get<double>();
    const double bytes = outerBytes(op, outer);
    t.addRow({countCell(op.at("id").get<double>()), textCell(op.at("name").get<std::string>()),
              textCell(op.at("kind").get<std::string>()),
              textCell(op.at("class").get<std::string>()),
              textCell(op.at("placement").get<std::string>()), numberCell(cyc, cyclesText(cyc)),
              numberCell(util, percentText(util) + "%"),
              numberCell(bytes, metricText("dram_bytes", bytes)),
              textCell(mappingEntry(op, "dataflow")), textCell(mappingEntry(op, "spatial")),
              textCell(mappingEntry(op, "local_tile")), textCell(mappingAll(op))});
  }
  return t;
}

}  // namespace tessel::reports::html
