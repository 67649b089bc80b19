// Chart primitives as inline SVG, drawn in C++ so a report opens with no script and no network.
// Every mark (bar segment, cell, point) carries a <title> (the browser's tooltip) and data-*
// attributes with the exact numbers it plots, so a test can read them back from the DOM.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

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

// Horizontal bars, one per row, each split into coloured segments whose lengths are
// proportional to their values on one shared axis. Zero segments are not drawn.
struct StackedBars {
  struct Segment {
    std::string color;
    Mark mark;
  };
  struct Row {
    std::string label;
    std::vector<Segment> segments;
  };
  std::string id;
  std::string axis_label;  // "cycles"
  std::vector<Row> rows;
  std::vector<LegendEntry> legend;
};
std::string stackedBarsSvg(const StackedBars& c);

// Vertical bars grouped along x (e.g. workloads), one bar per series (e.g. dataflows).
struct GroupedBars {
  struct Bar {
    int group = 0;
    int series = 0;
    Mark mark;
  };
  std::string id;
  std::string y_label;
  Formatter y_format;  // tick labels; humanNumber when empty
  std::vector<std::string> groups;
  std::vector<LegendEntry> series;
  std::vector<Bar> bars;
};
std::string groupedBarsSvg(const GroupedBars& c);

// A grid of cells over two categorical axes, coloured by value (darker = larger).
struct Heatmap {
  struct Cell {
    int x = 0;
    int y = 0;
    Mark mark;
  };
  std::string id;
  std::string x_label, y_label, value_label;
  std::vector<std::string> x_ticks, y_ticks;
  std::vector<Cell> cells;
};
std::string heatmapSvg(const Heatmap& c);

// A line through points at equally spaced categorical x positions (sorted by the caller).
struct LinePlot {
  struct Point {
    std::string x_text;
    Mark mark;  // value = y
  };
  std::string id;
  std::string x_label, y_label;
  Formatter y_format;
  std::vector<Point> points;
};
std::string linePlotSvg(const LinePlot& c);

// Lines over a numeric x axis, one per series, each through its points in the order given. A
// `step` plot holds each value until the next point's x (a queue's depth over time). The x axis
// is logarithmic when x spans more than 16x and starts above 0.
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
  std::string x_label, y_label;
  Formatter x_format, y_format;
  bool step = false;
  std::vector<Series> series;
};
std::string seriesPlotSvg(const SeriesPlot& c);

// Points on two numeric axes; front points are highlighted and joined in x order, the others
// grey. The x axis is logarithmic when `x_log` is set or x spans more than 16x.
struct Scatter {
  struct Point {
    double x = 0;
    double y = 0;
    bool front = false;
    std::string tooltip;
    Attrs data;
  };
  std::string id;
  std::string x_label, y_label;
  Formatter x_format, y_format;
  bool x_log = false;  // sizes in bytes read best on powers of two
  std::vector<Point> points;
};
std::string scatterSvg(const Scatter& c);

}  // namespace tessel::reports::html
