#include "charts/plot.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "charts/plot_font.h"
#include "util/atomic_file.h"

namespace veletas::charts {

Image::Image(int w, int h, Rgb fill) : width(w), height(h), pixels(size_t(w) * h * 3) {
  for (size_t i = 0; i < pixels.size(); i += 3) {
    pixels[i] = fill.r;
    pixels[i + 1] = fill.g;
    pixels[i + 2] = fill.b;
  }
}

Rgb Image::At(int x, int y) const {
  const size_t i = (size_t(y) * width + x) * 3;
  return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

void Image::Set(int x, int y, Rgb c) {
  const size_t i = (size_t(y) * width + x) * 3;
  pixels[i] = c.r;
  pixels[i + 1] = c.g;
  pixels[i + 2] = c.b;
}

Rgb SeriesColor(int i) {
  static constexpr Rgb kPalette[10] = {
      {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
      {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
  return kPalette[((i % 10) + 10) % 10];
}

int ChartLayout::PixelX(double x) const {
  return left + static_cast<int>(std::lround((x - x_min) / (x_max - x_min) * (right - left)));
}

int ChartLayout::PixelY(double y) const {
  return bottom - static_cast<int>(std::lround((y - y_min) / (y_max - y_min) * (bottom - top)));
}

namespace {

constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kGrid{228, 228, 228};
constexpr Rgb kGrey{110, 110, 110};

struct Rect {
  int x0, y0, x1, y1;  // inclusive
  bool Contains(int x, int y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

// Drawing on an image, clipped to a rectangle.
class Canvas {
 public:
  explicit Canvas(Image& image) : img_(image), clip_{0, 0, image.width - 1, image.height - 1} {}
  void Clip(Rect r) { clip_ = r; }
  void NoClip() { clip_ = {0, 0, img_.width - 1, img_.height - 1}; }

  void Dot(int x, int y, Rgb c) {
    if (clip_.Contains(x, y)) img_.Set(x, y, c);
  }
  void Fill(int x0, int y0, int x1, int y1, Rgb c) {
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) Dot(x, y, c);
    }
  }
  // A line `thickness` pixels wide (Bresenham with a square brush); dashed when dash > 0
  // (dash pixels on, dash * 2 / 3 off).
  void Line(int x0, int y0, int x1, int y1, Rgb c, int thickness = 1, int dash = 0) {
    const int dx = std::abs(x1 - x0);
    const int dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1;
    const int sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    const int lo = -(thickness - 1) / 2;
    const int hi = thickness / 2;
    for (int step = 0;; ++step) {
      if (dash == 0 || step % (dash + dash * 2 / 3) < dash) {
        Fill(x0 + lo, y0 + lo, x0 + hi, y0 + hi, c);
      }
      if (x0 == x1 && y0 == y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  void Disc(int cx, int cy, int radius, Rgb c) {
    for (int y = -radius; y <= radius; ++y) {
      for (int x = -radius; x <= radius; ++x) {
        if (x * x + y * y <= radius * radius + radius) Dot(cx + x, cy + y, c);
      }
    }
  }
  // Text with its top-left corner at (x, y), each font pixel scale x scale.
  void Text(int x, int y, const std::string& s, int scale, Rgb c) {
    for (size_t i = 0; i < s.size(); ++i) {
      const uint8_t* rows = GlyphRows(s[i]);
      for (int gy = 0; gy < kGlyphRows; ++gy) {
        for (int gx = 0; gx < kGlyphWidth; ++gx) {
          if (!(rows[gy] >> (kGlyphWidth - 1 - gx) & 1)) continue;
          const int px = x + (static_cast<int>(i) * kCellWidth + gx) * scale;
          Fill(px, y + gy * scale, px + scale - 1, y + gy * scale + scale - 1, c);
        }
      }
    }
  }
  // Text reading upwards (rotated a quarter turn anticlockwise); (x, y) is the bottom-left
  // corner of the first character.
  void TextUp(int x, int y, const std::string& s, int scale, Rgb c) {
    for (size_t i = 0; i < s.size(); ++i) {
      const uint8_t* rows = GlyphRows(s[i]);
      for (int gy = 0; gy < kGlyphRows; ++gy) {
        for (int gx = 0; gx < kGlyphWidth; ++gx) {
          if (!(rows[gy] >> (kGlyphWidth - 1 - gx) & 1)) continue;
          const int px = x + gy * scale;
          const int py = y - (static_cast<int>(i) * kCellWidth + gx) * scale - (scale - 1);
          Fill(px, py, px + scale - 1, py + scale - 1, c);
        }
      }
    }
  }

 private:
  Image& img_;
  Rect clip_;
};

int TextWidth(const std::string& s, int scale) {
  return s.empty() ? 0 : (static_cast<int>(s.size()) * kCellWidth - 1) * scale;
}

// A step of 1, 2 or 5 times a power of ten near `raw`.
double NiceStep(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / p;
  return (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * p;
}

struct Axis {
  double min = 0.0;
  double max = 1.0;
  double step = 0.2;
  std::vector<double> ticks;
  std::vector<std::string> labels;
};

// An axis over the data range [lo, hi] padded by pad_fraction of its span on each side (or
// the explicit range), with ticks at the multiples of a 1-2-5 step, about `target` of them.
// Integer axes are padded by half a unit and tick at integers.
Axis MakeAxis(double lo, double hi, std::optional<double> fixed_lo, std::optional<double> fixed_hi,
              int target, bool integer, double pad_fraction) {
  Axis a;
  if (hi < lo) {  // no data
    lo = 0.0;
    hi = 1.0;
  }
  if (hi == lo) {
    const double w = integer ? 1.0 : std::max(0.5, std::abs(lo) * 0.1);
    lo -= w;
    hi += w;
  }
  const double pad = integer ? 0.5 : (hi - lo) * pad_fraction;
  const double min = fixed_lo ? *fixed_lo : lo - pad;
  const double max = fixed_hi ? *fixed_hi : hi + pad;
  a.step = NiceStep((max - min) / target);
  if (integer) a.step = std::max(1.0, std::round(a.step));
  a.min = min;
  a.max = max;
  const int decimals = a.step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(a.step) - 1e-9));
  const bool large = std::max(std::abs(min), std::abs(max)) >= 1e6;
  for (double t = std::ceil(min / a.step - 1e-9) * a.step; t <= max + a.step * 1e-9; t += a.step) {
    const double v = std::abs(t) < a.step * 1e-9 ? 0.0 : t;
    char buf[48];
    if (large) {
      std::snprintf(buf, sizeof buf, "%.3g", v);
    } else {
      std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    }
    a.ticks.push_back(v);
    a.labels.push_back(buf);
  }
  return a;
}

std::string Validate(const Chart& chart) {
  if (chart.width < 240 || chart.height < 180 || chart.width > 8000 || chart.height > 8000) {
    return "chart: size " + std::to_string(chart.width) + "x" + std::to_string(chart.height) +
           " is outside 240x180 .. 8000x8000";
  }
  for (const PlotSeries& s : chart.series) {
    const std::string name = "chart: series \"" + s.label + "\"";
    if (s.x.size() != s.y.size()) return name + ": x and y have different lengths";
    if (s.y_low.size() != s.y_high.size() || (!s.y_low.empty() && s.y_low.size() != s.x.size())) {
      return name + ": error bars need one low and one high value per point";
    }
    for (size_t i = 0; i < s.x.size(); ++i) {
      const bool bad =
          !std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) ||
          (!s.y_low.empty() && (!std::isfinite(s.y_low[i]) || !std::isfinite(s.y_high[i])));
      if (bad) return name + ": point " + std::to_string(i) + " is not finite";
    }
  }
  for (const ReferenceLine& r : chart.references) {
    if (!std::isfinite(r.y)) return "chart: reference line \"" + r.label + "\" is not finite";
  }
  for (const auto* range : {&chart.x_min, &chart.x_max, &chart.y_min, &chart.y_max}) {
    if (*range && !std::isfinite(**range)) return "chart: an explicit axis limit is not finite";
  }
  if (chart.x_min && chart.x_max && !(*chart.x_min < *chart.x_max)) {
    return "chart: x range is empty";
  }
  if (chart.y_min && chart.y_max && !(*chart.y_min < *chart.y_max)) {
    return "chart: y range is empty";
  }
  return "";
}

}  // namespace

util::Result<Image> RenderChart(const Chart& chart, ChartLayout* layout_out) {
  if (std::string e = Validate(chart); !e.empty()) return util::Result<Image>::Error(e);
  // Data ranges.
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  for (const PlotSeries& s : chart.series) {
    for (size_t i = 0; i < s.x.size(); ++i) {
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min({y_lo, s.y[i], s.y_low.empty() ? s.y[i] : s.y_low[i]});
      y_hi = std::max({y_hi, s.y[i], s.y_high.empty() ? s.y[i] : s.y_high[i]});
    }
  }
  for (const ReferenceLine& r : chart.references) {
    y_lo = std::min(y_lo, r.y);
    y_hi = std::max(y_hi, r.y);
  }
  const int s = chart.width >= 720 && chart.height >= 450 ? 2 : 1;  // text scale
  const int title_scale = s + 1;
  const Axis ax = MakeAxis(x_lo, x_hi, chart.x_min, chart.x_max,
                           std::max(3, chart.width / (70 * s)), chart.integer_x, 0.02);
  const Axis ay = MakeAxis(y_lo, y_hi, chart.y_min, chart.y_max,
                           std::max(3, chart.height / (60 * s)), false, 0.05);
  // Margins.
  const int pad = 6 * s;
  const int tick = 3 * s;
  const int text_h = kCellHeight * s;
  int y_label_w = 0;
  for (const std::string& l : ay.labels) y_label_w = std::max(y_label_w, TextWidth(l, s));
  ChartLayout L;
  L.left = pad + (chart.y_label.empty() ? 0 : text_h + pad) + y_label_w + tick + 2 * s;
  L.top = pad + (chart.title.empty() ? text_h / 2 : kCellHeight * title_scale + pad);
  const int last_x_label = ax.labels.empty() ? 0 : TextWidth(ax.labels.back(), s);
  L.right = chart.width - 1 - std::max(pad * 2, last_x_label / 2 + pad);
  L.bottom =
      chart.height - 1 - (pad + tick + 2 * s + text_h + (chart.x_label.empty() ? 0 : text_h + pad));
  L.x_min = ax.min;
  L.x_max = ax.max;
  L.y_min = ay.min;
  L.y_max = ay.max;
  if (layout_out != nullptr) *layout_out = L;

  Image img(chart.width, chart.height, kWhite);
  Canvas c(img);
  const Rect plot{L.left, L.top, L.right, L.bottom};
  // Grid.
  for (double t : ax.ticks) c.Line(L.PixelX(t), L.top, L.PixelX(t), L.bottom, kGrid);
  for (double t : ay.ticks) c.Line(L.left, L.PixelY(t), L.right, L.PixelY(t), kGrid);
  // Reference lines, labelled above their right end.
  for (const ReferenceLine& r : chart.references) {
    const Rgb col = r.color.value_or(kGrey);
    const int py = L.PixelY(r.y);
    c.Clip(plot);
    c.Line(L.left, py, L.right, py, col, s, 6 * s);
    c.NoClip();
    const int tx = L.right - 4 * s - TextWidth(r.label, s);
    const int ty = py - text_h - s >= L.top ? py - text_h - s : py + 3 * s;
    c.Text(tx, ty, r.label, s, col);
  }
  // Series: error bars, lines, markers.
  const int radius = 2 + s;
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const PlotSeries& ser = chart.series[k];
    const Rgb col = ser.color.value_or(SeriesColor(static_cast<int>(k)));
    c.Clip(plot);
    for (size_t i = 0; i < ser.y_low.size(); ++i) {
      const int px = L.PixelX(ser.x[i]);
      const int lo = L.PixelY(ser.y_low[i]);
      const int hi = L.PixelY(ser.y_high[i]);
      c.Line(px, lo, px, hi, col, s);
      c.Line(px - 2 * radius, lo, px + 2 * radius, lo, col, s);
      c.Line(px - 2 * radius, hi, px + 2 * radius, hi, col, s);
    }
    if (ser.line) {
      for (size_t i = 1; i < ser.x.size(); ++i) {
        c.Line(L.PixelX(ser.x[i - 1]), L.PixelY(ser.y[i - 1]), L.PixelX(ser.x[i]),
               L.PixelY(ser.y[i]), col, s);
      }
    }
    if (ser.markers) {
      for (size_t i = 0; i < ser.x.size(); ++i) {
        c.Disc(L.PixelX(ser.x[i]), L.PixelY(ser.y[i]), radius, col);
      }
    }
  }
  c.NoClip();
  // Frame, ticks and tick labels.
  c.Line(L.left, L.top, L.right, L.top, kBlack);
  c.Line(L.left, L.bottom, L.right, L.bottom, kBlack);
  c.Line(L.left, L.top, L.left, L.bottom, kBlack);
  c.Line(L.right, L.top, L.right, L.bottom, kBlack);
  for (size_t i = 0; i < ax.ticks.size(); ++i) {
    const int px = L.PixelX(ax.ticks[i]);
    c.Line(px, L.bottom, px, L.bottom + tick, kBlack);
    c.Text(px - TextWidth(ax.labels[i], s) / 2, L.bottom + tick + 2 * s, ax.labels[i], s, kBlack);
  }
  for (size_t i = 0; i < ay.ticks.size(); ++i) {
    const int py = L.PixelY(ay.ticks[i]);
    c.Line(L.left - tick, py, L.left, py, kBlack);
    c.Text(L.left - tick - 2 * s - TextWidth(ay.labels[i], s), py - (7 * s) / 2, ay.labels[i], s,
           kBlack);
  }
  // Titles.
  if (!chart.title.empty()) {
    c.Text((chart.width - TextWidth(chart.title, title_scale)) / 2, pad, chart.title, title_scale,
           kBlack);
  }
  if (!chart.x_label.empty()) {
    c.Text((L.left + L.right - TextWidth(chart.x_label, s)) / 2, chart.height - pad - text_h,
           chart.x_label, s, kBlack);
  }
  if (!chart.y_label.empty()) {
    c.TextUp(pad, (L.top + L.bottom + TextWidth(chart.y_label, s)) / 2, chart.y_label, s, kBlack);
  }
  // Legend, in the corner of the plot area that covers the fewest data pixels.
  std::vector<size_t> entries;
  int label_w = 0;
  for (size_t k = 0; k < chart.series.size(); ++k) {
    if (chart.series[k].label.empty()) continue;
    entries.push_back(k);
    label_w = std::max(label_w, TextWidth(chart.series[k].label, s));
  }
  if (!entries.empty()) {
    const int sample_w = 12 * s;
    const int row_h = text_h + 2 * s;
    const int w = 3 * pad + sample_w + label_w;
    const int h = 2 * pad + static_cast<int>(entries.size()) * row_h - 2 * s;
    const int inset = 4 * s;
    const Rect corners[4] = {
        {L.left + inset, L.top + inset, L.left + inset + w, L.top + inset + h},
        {L.right - inset - w, L.top + inset, L.right - inset, L.top + inset + h},
        {L.right - inset - w, L.bottom - inset - h, L.right - inset, L.bottom - inset},
        {L.left + inset, L.bottom - inset - h, L.left + inset + w, L.bottom - inset}};
    Rect best = corners[0];
    long best_cost = -1;
    for (const Rect& r : corners) {
      long cost = 0;
      for (int y = std::max(0, r.y0); y <= std::min(chart.height - 1, r.y1); ++y) {
        for (int x = std::max(0, r.x0); x <= std::min(chart.width - 1, r.x1); ++x) {
          const Rgb p = img.At(x, y);
          cost += !(p == kWhite) && !(p == kGrid);
        }
      }
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = r;
      }
    }
    c.Fill(best.x0, best.y0, best.x1, best.y1, kWhite);
    c.Line(best.x0, best.y0, best.x1, best.y0, kGrey);
    c.Line(best.x0, best.y1, best.x1, best.y1, kGrey);
    c.Line(best.x0, best.y0, best.x0, best.y1, kGrey);
    c.Line(best.x1, best.y0, best.x1, best.y1, kGrey);
    for (size_t e = 0; e < entries.size(); ++e) {
      const PlotSeries& ser = chart.series[entries[e]];
      const Rgb col = ser.color.value_or(SeriesColor(static_cast<int>(entries[e])));
      const int ty = best.y0 + pad + static_cast<int>(e) * row_h;
      const int cy = ty + (7 * s) / 2;
      const int sx = best.x0 + pad;
      if (ser.line) c.Line(sx, cy, sx + sample_w, cy, col, s);
      if (ser.markers) c.Disc(sx + sample_w / 2, cy, radius, col);
      c.Text(sx + sample_w + pad, ty, ser.label, s, kBlack);
    }
  }
  return img;
}

std::string EncodePng(const Image& image, std::string& out) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&png, nullptr, &size, 0, image.pixels.data(), 0, nullptr)) {
    return std::string("png: ") + png.message;
  }
  out.resize(size);
  if (!png_image_write_to_memory(&png, out.data(), &size, 0, image.pixels.data(), 0, nullptr)) {
    return std::string("png: ") + png.message;
  }
  out.resize(size);
  return "";
}

util::Status WriteChartPng(const std::string& path, const Chart& chart) {
  auto image = RenderChart(chart);
  if (!image) return util::Prefixed(image.error_value(), path + ": ");
  std::string bytes;
  if (std::string e = EncodePng(image.value(), bytes); !e.empty()) {
    return util::Status::Failure(path + ": " + e);
  }
  return util::WriteFileAtomic(path, bytes);
}

}  // namespace veletas::charts
