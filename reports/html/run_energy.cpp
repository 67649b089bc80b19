// A run report's energy, traffic and area: where the energy goes by component (static included),
// the bytes each storage level moved by operand, and the area by component when the design has
// one. Documents written before these totals existed get what they hold.
#include <cctype>
#include <map>

#include "reports/html/json_input.h"
#include "reports/html/palette.h"
#include "reports/html/report_doc.h"
#include "reports/html/text.h"

namespace tessel::reports::html {
namespace {

const char* const kOperands[] = {"input", "weight", "output"};

double numberOr(const Json& obj, const char* key) {
  return obj.contains(key) && obj[key].is_number() ? obj[key].get<double>() : 0.0;
}

// One row split by the entries of `by` (name -> value), coloured per component.
StackedBars::Row componentRow(const std::string& label, const Json& by, const Unit& u,
                              const char* attr, const std::string& what) {
  StackedBars::Row row{label, {}};
  for (const auto& [name, v] : by.items()) {
    if (!v.is_number()) continue;
    const double x = v.get<double>();
    row.segments.push_back({name,
                            componentColor(name),
                            {x,
                             what + name + ": " + unitText(u, x),
                             {{"component", name}, {"row", label}, {attr, exactNumber(x)}}}});
  }
  return row;
}

Chart energyChart(const Json& totals) {
  const Unit u = metricUnit("energy_pj");
  StackedBars c{"chart-energy-by-component", u, {}, {}};
  c.rows.push_back(componentRow("all energy", totals.value("energy_by_component", Json::object()),
                                u, "energy_pj", ""));
  if (numberOr(totals, "static_energy_pj") > 0) {
    c.rows.push_back(componentRow("static",
                                  totals.value("static_energy_by_component", Json::object()), u,
                                  "energy_pj", "static, "));
  }
  return {c.id, "Energy by component", stackedBarsSvg(c),
          "totals.energy_by_component: each storage level's accesses, the register files, the "
          "array's MACs, the NoC, SFU and host, and the static (leakage) energy; the second bar, "
          "when the design leaks, splits the static energy by component."};
}

// Bytes read + written per level and operand, summed over ops[].traffic.
std::map<std::string, std::map<std::string, double>> levelBytes(const Json& ops) {
  std::map<std::string, std::map<std::string, double>> bytes;
  for (const Json& op : ops) {
    for (const Json& t : op.value("traffic", Json::array())) {
      auto& by = bytes[t.value("level", "")];
      for (const char* dir : {"read", "write"}) {
        const Json per = t.value(dir, Json::object());
        for (const char* o : kOperands) by[o] += numberOr(per, o);
      }
    }
  }
  return bytes;
}

// NoC bytes sent to the PEs per operand (ops[].network, kind array).
std::map<std::string, double> nocBytes(const Json& ops) {
  std::map<std::string, double> by;
  for (const Json& op : ops) {
    for (const Json& n : op.value("network", Json::array())) {
      if (n.value("kind", "") != "array") continue;
      const Json sent = n.value("sent_bytes", Json::object());
      for (const char* o : kOperands) by[o] += numberOr(sent, o);
    }
  }
  return by;
}

StackedBars::Row operandRow(const std::string& label, const std::map<std::string, double>& by) {
  StackedBars::Row row{label, {}};
  const Unit u = metricUnit("bytes");
  for (const char* o : kOperands) {
    const double v = by.count(o) ? by.at(o) : 0;
    row.segments.push_back({o,
                            operandColor(o),
                            {v,
                             label + ", " + o + ": " + unitText(u, v),
                             {{"level", label}, {"operand", o}, {"bytes", exactNumber(v)}}}});
  }
  return row;
}

Chart trafficChart(const Json& doc) {
  const Json& totals = doc.at("totals");
  StackedBars c{"chart-traffic-by-level", metricUnit("traffic_bytes"), {}, {}};
  c.unit.noun = "traffic";
  const auto by_level = levelBytes(doc.at("ops"));
  const Json levels = totals.value("bytes_by_level", Json::object());  // items() keeps a reference
  for (const auto& [level, total] : levels.items()) {
    c.rows.push_back(operandRow(
        level, by_level.count(level) ? by_level.at(level) : std::map<std::string, double>{}));
  }
  const double rf = numberOr(totals, "register_file_bytes");
  if (rf > 0) {
    StackedBars::Row row{"register_file", {}};
    row.segments.push_back(
        {"all operands",
         componentColor("all operands"),
         {rf,
          "register_file: " + unitText(c.unit, rf),
          {{"level", "register_file"}, {"operand", "all operands"}, {"bytes", exactNumber(rf)}}}});
    c.rows.push_back(std::move(row));
  }
  if (numberOr(totals, "noc_bytes") > 0) c.rows.push_back(operandRow("noc", nocBytes(doc["ops"])));
  return {c.id, "Traffic by level", stackedBarsSvg(c),
          "Bytes read + written at each storage level over all ops, by operand (ops[].traffic; "
          "they sum to totals.bytes_by_level); the PEs' register files (all operands); the bytes "
          "the NoC sent to the PEs, a multicast once."};
}

Chart areaChart(const Json& totals) {
  const Unit u = metricUnit("area_mm2");
  StackedBars c{"chart-area-by-component", u, {}, {}};
  c.rows.push_back(
      componentRow("chip", totals.value("area_by_component", Json::object()), u, "mm2", ""));
  return {c.id, "Area by component", stackedBarsSvg(c),
          "totals.area_by_component: on-chip area of every core; off-chip DRAM is not counted."};
}

// The chip by the categories publications use (totals.by_category): one bar of dynamic power
// (the run's activity) and one of leakage, each split by category; DRAM and host are off the die.
Chart categoryChart(const Json& totals) {
  const Unit u = metricUnit("power_w");
  StackedBars c{"chart-power-by-category", u, {}, {}};
  for (const char* kind : {"dynamic_w", "leakage_w"}) {
    const std::string label = std::string(kind) == "dynamic_w" ? "dynamic" : "leakage";
    StackedBars::Row row{label, {}};
    for (const Json& cat : totals.at("by_category")) {
      const double w = numberOr(cat, kind);
      if (w <= 0) continue;
      const std::string name = cat.value("category", "");
      row.segments.push_back({name,
                              componentColor(name),
                              {w,
                               label + ", " + name + ": " + unitText(u, w),
                               {{"category", name}, {"row", label}, {"w", exactNumber(w)}}}});
    }
    if (!row.segments.empty()) c.rows.push_back(std::move(row));
  }
  return {c.id, "Power by category", stackedBarsSvg(c),
          "totals.by_category: compute, on-chip memory, NoC, and off the die DRAM and host; "
          "dynamic power is each category's energy over the run's time, leakage what it draws. "
          "Not modeled yet: " + totals.value("not_modeled", std::string("-")) + "."};
}

}  // namespace

Section energySection(const Json& doc) {
  const Json& totals = doc.at("totals");
  Section s{"energy", "Energy, traffic and area", {}, {}, {}};
  if (totals.contains("energy_by_component")) s.charts.push_back(energyChart(totals));
  if (totals.contains("bytes_by_level")) s.charts.push_back(trafficChart(doc));
  if (numberOr(totals, "area_mm2") > 0) {
    s.charts.push_back(areaChart(totals));
  } else {
    s.notes.push_back(
        {"No area: the design's area model gave 0 mm\u00b2, so there is no area chart.",
         "no-area",
         {}});
  }
  if (totals.contains("by_category") && totals["by_category"].is_array() &&
      !totals["by_category"].empty()) {
    s.charts.push_back(categoryChart(totals));
  }
  return s;
}

void addSiliconHeadlines(Report& r, const Json& totals) {
  for (const char* m : {"power_w", "area_mm2", "tops_per_w"}) {
    const double v = numberOr(totals, m);
    if (!totals.contains(m) || (v == 0 && std::string(m) != "power_w")) continue;
    const Unit u = metricUnit(m);
    std::string label = u.noun;
    label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    r.headlines.push_back({m, label, unitText(u, v), exactNumber(v)});
  }
}

}  // namespace tessel::reports::html
