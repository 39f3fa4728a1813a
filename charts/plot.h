// A small line-chart renderer that writes PNG files: axes, grid, ticks with numeric labels,
// axis titles, a title, several series with markers, vertical error bars and a legend,
// plus dashed horizontal reference lines. Text uses the embedded bitmap font
// (selfplay/plot_font.h), so no font files are needed. Used for "Elo against generation"
// (veletas ratings) and for training losses over steps.
// Functions are pure and thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/result.h"

namespace veletas::charts {

struct Rgb {
  uint8_t r = 0;
  uint8_t g = 0;
  uint8_t b = 0;
  bool operator==(const Rgb&) const = default;
};

// An RGB image, rows top first, 3 bytes per pixel.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;

  Image() = default;
  Image(int w, int h, Rgb fill);
  // Preconditions: 0 <= x < width, 0 <= y < height.
  Rgb At(int x, int y) const;
  void Set(int x, int y, Rgb c);
};

// The colour of the i-th series when none is given (a palette of 10 distinct colours).
Rgb SeriesColor(int i);

struct PlotSeries {
  std::string label;  // shown in the legend ("" = not listed)
  std::vector<double> x;
  std::vector<double> y;
  // Error bars: the lower and upper end of each point's bar (absolute y values). Either
  // empty (no bars) or the same length as x.
  std::vector<double> y_low;
  std::vector<double> y_high;
  std::optional<Rgb> color;  // default SeriesColor(index)
  bool line = true;          // connect the points in the given order
  bool markers = true;       // a filled disc at each point
};

// A dashed horizontal line across the plot at `y`, labelled at its right end.
struct ReferenceLine {
  std::string label;
  double y = 0.0;
  std::optional<Rgb> color;  // default grey
};

struct Chart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<PlotSeries> series;
  std::vector<ReferenceLine> references;
  int width = 960;   // pixels, >= 240
  int height = 600;  // pixels, >= 180
  // Axis ranges; by default they enclose all points, bars and reference lines, widened to
  // whole tick steps.
  std::optional<double> x_min, x_max, y_min, y_max;
  bool integer_x = false;  // x ticks at integers only (e.g. generations)
};

// Where data lands in the image: the plot area in pixels and the axis ranges.
struct ChartLayout {
  int left = 0;  // plot area, inclusive pixel bounds
  int top = 0;
  int right = 0;
  int bottom = 0;
  double x_min = 0.0;
  double x_max = 1.0;
  double y_min = 0.0;
  double y_max = 1.0;
  // The pixel column of data x and row of data y (rounded).
  int PixelX(double x) const;
  int PixelY(double y) const;
};

// Draws the chart. Errors: size too small, x/y/bar lengths that differ, non-finite values,
// an empty or inverted explicit range. `layout`, when given, receives the plot geometry.
util::Result<Image> RenderChart(const Chart& chart, ChartLayout* layout = nullptr);

// Encodes `image` as an 8-bit RGB PNG into `out`. Returns "" or an error.
std::string EncodePng(const Image& image, std::string& out);

// Renders and writes a chart to `path` as PNG (temporary name, then rename). The error
// names the file.
util::Status WriteChartPng(const std::string& path, const Chart& chart);

}  // namespace veletas::charts
