// Chart primitives as inline SVG, drawn in C++ so a report opens with no script and no network.
// Every mark (bar segment, cell, point) carries a <title> (the browser's tooltip) and data-*
// attributes with the exact numbers it plots, so a test can read them back from the DOM. Every
// axis carries data-axis-* attributes (svg_axis.h): value axes start at 0 or are drawn broken,
// and their ticks read in the unit their title names.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "reports/html/units.h"

namespace tessel::reports::html {

using Attrs = std::vector<std::pair<std::string, std::string>>;  // data-<first>="<second>"
using Formatter = std::function<std::string(double)>;

// A drawn thing: what it plots, its tooltip and its data attributes.
struct Mark {
  double value = 0;
  std::string tooltip;
  Attrs data;
};

struct LegendEntry {
  std::string name;
  std::string color;
};

// Horizontal bars, one per row, each split into coloured segments (one per series) whose lengths
// are proportional to their values on one shared axis from 0. Zero segments are not drawn. The
// legend lists every series drawn, in `legend`'s order (series it lacks follow, in the order
// drawn), and nothing else; each segment gets data-series.
struct StackedBars {
  struct Segment {
    std::string series;
    std::string color;
    Mark mark;
  };
  struct Row {
    std::string label;
    std::vector<Segment> segments;
  };
  std::string id;
  Unit unit;  // what the bars measure: countUnit("latency", "cycles")
  std::vector<Row> rows;
  std::vector<LegendEntry> legend;
};
std::string stackedBarsSvg(const StackedBars& c);

// Vertical bars grouped along x (e.g. workloads), one bar per series (e.g. dataflows). With
// `panels`, each group is its own panel with its own axis from 0 (groups of different scales).
struct GroupedBars {
  struct Bar {
    int group = 0;
    int series = 0;
    Mark mark;
  };
  std::string id;
  Unit unit;
  std::vector<std::string> groups;
  std::vector<LegendEntry> series;
  std::vector<Bar> bars;
  bool panels = false;
};
std::string groupedBarsSvg(const GroupedBars& c);

// A grid of cells over two categorical axes, coloured by value on a ramp whose scale is a value
// axis (from 0 or broken, as any value axis). Panels of one figure share a range: set it.
struct Heatmap {
  struct Cell {
    int x = 0;
    int y = 0;
    Mark mark;
  };
  std::string id;
  std::string heading;  // above the grid: the panel ("dataflow=ws"); may be empty
  Attrs data;           // on the <svg>
  std::string x_label, y_label;
  Unit unit;
  std::vector<std::string> x_ticks, y_ticks;
  std::vector<Cell> cells;
  bool has_range = false;  // the colour scale covers [lo, hi] rather than the cells' range
  double lo = 0, hi = 0;
};
std::string heatmapSvg(const Heatmap& c);

// Lines through points at equally spaced categorical x positions, one per series (a legend
// when there are several); the value axis starts at 0 or is broken.
struct LinePlot {
  struct Point {
    int x = 0;  // position in x_ticks
    Mark mark;  // value = y
  };
  struct Series {
    std::string name;
    std::string color;
    std::vector<Point> points;
  };
  std::string id;
  std::string x_label;
  Unit unit;
  std::vector<std::string> x_ticks;
  std::vector<Series> series;
};
std::string linePlotSvg(const LinePlot& c);

// Lines over a numeric x axis (a key: workers, time), one per series, each through its points in
// the order given. A `step` plot holds each value until the next point's x (a queue's depth over
// time). The x axis is logarithmic when x spans more than 16x and starts above 0.
struct SeriesPlot {
  struct Point {
    double x = 0;
    Mark mark;  // value = y
  };
  struct Series {
    std::string name;
    std::string color;
    std::vector<Point> points;
  };
  std::string id;
  std::string x_label;
  Formatter x_format;
  Unit unit;  // the y axis
  bool step = false;
  std::vector<Series> series;
};
std::string seriesPlotSvg(const SeriesPlot& c);

// Points on two value axes. `front` points are highlighted, `joined` ones are joined in x order
// by a dashed line. With `shaded`, every point is filled by its `shade` on a colour ramp with a
// legend (`shade_unit`), and front points are ringed.
struct Scatter {
  struct Point {
    double x = 0;
    double y = 0;
    bool front = false;
    bool joined = false;
    std::string tooltip;
    Attrs data;
    double shade = 0;
  };
  std::string id;
  Unit x_unit, y_unit;
  bool shaded = false;
  Unit shade_unit;
  std::vector<Point> points;
};
std::string scatterSvg(const Scatter& c);

}  // namespace tessel::reports::html
