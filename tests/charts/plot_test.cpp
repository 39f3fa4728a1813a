// The PNG chart renderer: a valid PNG read back with libpng, with the series drawn where
// the data says; the embedded font; input validation.
#include "charts/plot.h"
#include "tests/support/files.h"

#include <gtest/gtest.h>
#include <png.h>

#include <unistd.h>
#include <cmath>
#include <cstring>

#include <filesystem>
#include <set>

#include "charts/plot_font.h"

namespace veletas::charts {
namespace {

namespace fs = std::filesystem;

// Reads a PNG file with libpng as 8-bit RGB; false when it is not a valid PNG.
bool ReadPng(const std::string& path, Image& out) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) return false;
  png.format = PNG_FORMAT_RGB;
  out = Image(static_cast<int>(png.width), static_cast<int>(png.height), Rgb{});
  if (!png_image_finish_read(&png, nullptr, out.pixels.data(), 0, nullptr)) return false;
  return true;
}

constexpr Rgb kRed{220, 0, 0};
constexpr Rgb kBlue{0, 0, 230};

Chart TestChart() {
  Chart c;
  c.title = "Elo against generation";
  c.x_label = "generation";
  c.y_label = "Elo";
  c.width = 800;
  c.height = 500;
  c.integer_x = true;
  PlotSeries red;
  red.label = "gen";
  red.color = kRed;
  red.x = {1, 2, 3, 4, 5, 6};
  red.y = {0, 100, 150, 300, 320, 500};
  red.y_low = {-60, 40, 90, 240, 260, 440};
  red.y_high = {60, 160, 210, 360, 380, 560};
  PlotSeries blue;
  blue.label = "other";
  blue.color = kBlue;
  blue.line = false;
  blue.x = {2, 5};
  blue.y = {400, -100};
  c.series = {red, blue};
  c.references = {{"random", 0.0, std::nullopt}};
  return c;
}

TEST(PlotTest, WritesAValidPngWithSeriesWhereExpected) {
  const std::string path =
      (fs::temp_directory_path() / ("veletas_plot_test_" + std::to_string(::getpid()) + ".png"))
          .string();
  const Chart chart = TestChart();
  ASSERT_EQ(test_support::ErrorText(WriteChartPng(path, chart)), "");
  Image img;
  ASSERT_TRUE(ReadPng(path, img));
  fs::remove(path);
  EXPECT_EQ(img.width, 800);
  EXPECT_EQ(img.height, 500);

  ChartLayout layout;
  ASSERT_TRUE(RenderChart(chart, &layout));
  // The axis ranges enclose the data, bars and reference line.
  EXPECT_LE(layout.x_min, 1.0);
  EXPECT_GE(layout.x_max, 6.0);
  EXPECT_LE(layout.y_min, -100.0);
  EXPECT_GE(layout.y_max, 560.0);
  EXPECT_GT(layout.right - layout.left, 400);
  EXPECT_GT(layout.bottom - layout.top, 250);
  // Markers at every point, error bars halfway between a point and its bar ends.
  const PlotSeries& red = chart.series[0];
  for (size_t i = 0; i < red.x.size(); ++i) {
    const int px = layout.PixelX(red.x[i]);
    EXPECT_EQ(img.At(px, layout.PixelY(red.y[i])), kRed) << "point " << i;
    EXPECT_EQ(img.At(px, layout.PixelY((red.y[i] + red.y_high[i]) / 2 + 15)), kRed) << i;
    EXPECT_EQ(img.At(px, layout.PixelY((red.y[i] + red.y_low[i]) / 2 - 15)), kRed) << i;
  }
  EXPECT_EQ(img.At(layout.PixelX(2), layout.PixelY(400)), kBlue);
  EXPECT_EQ(img.At(layout.PixelX(5), layout.PixelY(-100)), kBlue);
  // Nothing drawn in the empty region between x = 5 and 6 far below the red line.
  EXPECT_EQ(img.At(layout.PixelX(5.5), layout.PixelY(50)), (Rgb{255, 255, 255}));
  // The frame of the plot area is black.
  EXPECT_EQ(img.At(layout.left, (layout.top + layout.bottom) / 2), (Rgb{0, 0, 0}));
  EXPECT_EQ(img.At((layout.left + layout.right) / 2, layout.bottom), (Rgb{0, 0, 0}));

  // Independently of the layout: red pixels rise from left to right (the data increase),
  // and the lowest red pixel is left of the highest.
  int lowest_y = -1, lowest_x = 0, highest_y = img.height, highest_x = 0;
  int red_count = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      if (!(img.At(x, y) == kRed)) continue;
      ++red_count;
      if (y > lowest_y) lowest_y = y, lowest_x = x;
      if (y < highest_y) highest_y = y, highest_x = x;
    }
  }
  EXPECT_GT(red_count, 500);
  EXPECT_LT(lowest_x, highest_x);
  // Title text is drawn above the plot area (black pixels in the top band).
  int title_pixels = 0;
  for (int y = 0; y < layout.top; ++y) {
    for (int x = 0; x < img.width; ++x) title_pixels += img.At(x, y) == Rgb{0, 0, 0};
  }
  EXPECT_GT(title_pixels, 100);
}

TEST(PlotTest, FontGlyphsAreDistinctAndVisible) {
  std::set<std::vector<uint8_t>> seen;
  for (int c = 33; c < 127; ++c) {
    const uint8_t* rows = GlyphRows(static_cast<char>(c));
    std::vector<uint8_t> v(rows, rows + kGlyphRows);
    int bits = 0;
    for (uint8_t r : v) {
      EXPECT_LT(r, 1 << kGlyphWidth) << static_cast<char>(c);
      bits += __builtin_popcount(r);
    }
    EXPECT_GT(bits, 2) << "glyph '" << static_cast<char>(c) << "'";
    EXPECT_TRUE(seen.insert(v).second) << "glyph '" << static_cast<char>(c) << "' repeats another";
  }
  EXPECT_EQ(GlyphRows('\n'), GlyphRows('?'));
  // Space is empty.
  for (int r = 0; r < kGlyphRows; ++r) EXPECT_EQ(GlyphRows(' ')[r], 0);
}

TEST(PlotTest, RejectsBadInput) {
  Chart c = TestChart();
  c.series[0].y.pop_back();
  EXPECT_FALSE(RenderChart(c));
  c = TestChart();
  c.series[1].y[0] = NAN;
  auto r = RenderChart(c);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("\"other\": point 0 is not finite"), std::string::npos) << r.error();
  c = TestChart();
  c.series[0].y_high.pop_back();
  EXPECT_FALSE(RenderChart(c));
  c = TestChart();
  c.width = 10;
  EXPECT_FALSE(RenderChart(c));
  c = TestChart();
  c.y_min = 5;
  c.y_max = 5;
  EXPECT_FALSE(RenderChart(c));
  // An empty chart still renders (axes only).
  Chart empty;
  EXPECT_TRUE(RenderChart(empty));
}

}  // namespace
}  // namespace veletas::charts
