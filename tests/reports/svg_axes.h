// Reads the axes, legends and stacked charts back out of generated HTML, as a script would from
// the DOM, and checks the report's axis rules on their data attributes (no screenshot):
//   - a value axis starts at 0 or is marked broken (data-axis-break="true" and a break mark);
//   - its unit matches its ticks: data-axis-factor is what the unit's prefix says (mJ from pJ:
//     1e9), every tick label times the factor is the tick's value, and the title names the unit;
//   - every stacked chart's legend lists exactly the series its segments draw.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace tessel::reports::testing {

struct AxisGroup {
  std::map<std::string, std::string> attrs;
  std::string body;  // everything inside the <g>
};

inline std::map<std::string, std::string> attrsOf(const std::string& tag) {
  std::map<std::string, std::string> out;
  const std::regex attr("([a-zA-Z0-9_:-]+)=\"([^\"]*)\"");
  for (auto m = std::sregex_iterator(tag.begin(), tag.end(), attr); m != std::sregex_iterator();
       ++m) {
    out[(*m)[1]] = (*m)[2];
  }
  return out;
}

// The <g> elements whose class contains `cls` (as a word prefix: "axis" matches "axis y"), with
// their bodies up to the matching </g>.
inline std::vector<AxisGroup> groups(const std::string& html, const std::string& cls) {
  std::vector<AxisGroup> out;
  const std::string open = "<g class=\"" + cls;
  for (size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
    const size_t tag_end = html.find('>', at);
    int depth = 1;
    size_t pos = tag_end + 1;
    while (depth > 0 && pos < html.size()) {
      const size_t next_open = html.find("<g", pos), next_close = html.find("</g>", pos);
      if (next_close == std::string::npos) break;
      if (next_open != std::string::npos && next_open < next_close) {
        ++depth, pos = next_open + 2;
      } else {
        --depth, pos = next_close + 4;
      }
    }
    out.push_back(
        {attrsOf(html.substr(at, tag_end - at)), html.substr(tag_end + 1, pos - 4 - tag_end - 1)});
  }
  return out;
}

// 10^k for an SI prefix ("" is 0), NaN for anything else.
inline double siPower(const std::string& p) {
  static const std::map<std::string, int> kPowers = {
      {"p", -12}, {"n", -9}, {"\u00b5", -6}, {"m", -3}, {"", 0},  {"k", 3},
      {"M", 6},   {"G", 9},  {"T", 12},      {"P", 15}, {"E", 18}};
  const auto it = kPowers.find(p);
  return it == kPowers.end() ? NAN : it->second;
}

// How many base units one `unit` is, from the names alone ("mJ" of "pJ": 1e9; "G cycles" of
// "cycles": 1e9; "MiB" of "B": 2^20; "%" of "ratio": 0.01); NaN when they do not match.
inline double expectedFactor(const std::string& unit, const std::string& base) {
  if (unit == "%") return base == "ratio" ? 0.01 : NAN;
  if (unit == base) return 1;
  if (base == "B") {
    const std::vector<std::string> binary = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    for (size_t i = 0; i < binary.size(); ++i) {
      if (unit == binary[i]) return std::pow(1024.0, static_cast<double>(i));
    }
    return NAN;
  }
  // unit = P [" "] S, base = Q S for prefixes P, Q and a common symbol S.
  for (size_t q = 0; q <= std::min<size_t>(2, base.size()); ++q) {
    const double qp = siPower(base.substr(0, q));
    const std::string symbol = base.substr(q);
    for (size_t p = 0; p <= std::min<size_t>(2, unit.size()); ++p) {
      const double pp = siPower(unit.substr(0, p));
      std::string rest = unit.substr(p);
      if (!symbol.empty() && rest.rfind(' ', 0) == 0) rest = rest.substr(1);
      if (!std::isnan(pp) && !std::isnan(qp) && rest == symbol && (p > 0 || q > 0)) {
        return std::pow(10.0, pp - qp);
      }
    }
  }
  return NAN;
}

// Every value axis of `html` follows the rules; returns how many were checked.
inline int checkValueAxes(const std::string& html, const std::string& where) {
  int checked = 0;
  const std::regex tick("<text [^>]*class=\"tick\" data-tick=\"([^\"]*)\"[^>]*>([^<]*)</text>");
  const std::regex title("<text [^>]*class=\"axis-label\"[^>]*>([^<]*)</text>");
  for (const AxisGroup& g : groups(html, "axis ")) {
    if (g.attrs.count("data-axis-role") == 0) continue;
    if (g.attrs.at("data-axis-role") != "value") continue;
    ++checked;
    const std::string what =
        where + " axis " + g.attrs.at("data-axis") + " (" + g.attrs.at("data-axis-unit") + ")";
    const double lo = std::stod(g.attrs.at("data-axis-min"));
    const bool broken = g.attrs.at("data-axis-break") == "true";
    EXPECT_EQ(g.attrs.at("data-axis-scale"), "linear") << what;
    if (broken) {
      EXPECT_GT(lo, 0) << what;
      EXPECT_NE(g.body.find("class=\"axis-break\""), std::string::npos) << what << ": no mark";
    } else {
      EXPECT_LE(lo, 0) << what << " starts at " << lo << " without a break";
      EXPECT_EQ(g.body.find("class=\"axis-break\""), std::string::npos) << what;
    }
    const std::string unit = g.attrs.at("data-axis-unit");
    const double factor = std::stod(g.attrs.at("data-axis-factor"));
    const double want = expectedFactor(unit, g.attrs.at("data-axis-base-unit"));
    EXPECT_NEAR(factor, want, std::fabs(want) * 1e-12) << what;
    int ticks = 0;
    for (auto m = std::sregex_iterator(g.body.begin(), g.body.end(), tick);
         m != std::sregex_iterator(); ++m, ++ticks) {
      const double value = std::stod((*m)[1]), label = std::stod((*m)[2]);
      EXPECT_NEAR(label * factor, value, 1e-9 * std::max(std::fabs(value), factor))
          << what << ": tick " << (*m)[2] << " for " << (*m)[1];
    }
    EXPECT_GE(ticks, 2) << what;
    std::smatch t;
    const bool titled = std::regex_search(g.body, t, title);
    EXPECT_TRUE(titled) << what << ": no title";
    if (titled && !unit.empty()) {
      EXPECT_NE(t[1].str().find("(" + unit + ")"), std::string::npos) << what << ": " << t[1];
    }
  }
  return checked;
}

// Every stacked chart of `html` has a legend listing exactly the series it draws; returns how
// many charts were checked.
inline int checkStackedLegends(const std::string& html, const std::string& where) {
  int checked = 0;
  const std::regex svg("<svg [^>]*id=\"([^\"]*)\"[^>]*data-chart=\"stacked\"[^>]*>");
  const std::regex series("<rect class=\"mark\"[^>]* data-series=\"([^\"]*)\"");
  const std::regex entry("<g class=\"legend-entry\" data-series=\"([^\"]*)\"><rect ");
  for (auto m = std::sregex_iterator(html.begin(), html.end(), svg); m != std::sregex_iterator();
       ++m, ++checked) {
    const size_t begin = static_cast<size_t>(m->position());
    const std::string chart = html.substr(begin, html.find("</svg>", begin) - begin);
    std::set<std::string> drawn, listed;
    for (auto s = std::sregex_iterator(chart.begin(), chart.end(), series);
         s != std::sregex_iterator(); ++s) {
      drawn.insert((*s)[1]);
    }
    for (auto e = std::sregex_iterator(chart.begin(), chart.end(), entry);
         e != std::sregex_iterator(); ++e) {
      listed.insert((*e)[1]);
    }
    EXPECT_FALSE(drawn.empty()) << where << " " << (*m)[1];
    EXPECT_EQ(listed, drawn) << where << " " << (*m)[1];
  }
  return checked;
}

}  // namespace tessel::reports::testing
