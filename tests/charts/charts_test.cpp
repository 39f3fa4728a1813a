// The charts library runs the real script (charts/veletas_charts.py, embedded in the binary)
// with the system's Python and matplotlib on a fixture run, and on bad input.
#include "charts/charts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "util/atomic_file.h"

namespace veletas::charts {
namespace {

namespace fs = std::filesystem;
using test_support::ReadAll;
using test_support::TempDir;

const fs::path kSource = VELETAS_SOURCE_DIR;

// Big-endian 32-bit integer at `at`.
uint32_t Be32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<uint8_t>(s[at + i]);
  return v;
}

// Success when `path` is a PNG file: the signature, an IHDR chunk of a chart-like size
// (at least 400x300 pixels), chunks that fit the file up to IEND, and more than `min_bytes`
// bytes (an empty canvas compresses to far less).
::testing::AssertionResult IsChartPng(const std::string& path, size_t min_bytes = 15000) {
  const std::string png = ReadAll(path);
  if (png.size() < 33 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 ||
      png.compare(12, 4, "IHDR") != 0) {
    return ::testing::AssertionFailure() << path << ": not a PNG (" << png.size() << " bytes)";
  }
  const uint32_t width = Be32(png, 16), height = Be32(png, 20);
  if (width < 400 || height < 300 || width > 4000 || height > 4000) {
    return ::testing::AssertionFailure() << path << ": " << width << "x" << height << " pixels";
  }
  size_t at = 8;
  std::string type;
  while (at + 12 <= png.size()) {
    const uint32_t length = Be32(png, at);
    type = png.substr(at + 4, 4);
    at += 12 + static_cast<size_t>(length);
    if (type == "IEND") break;
  }
  if (type != "IEND" || at != png.size()) {
    return ::testing::AssertionFailure() << path << ": chunks do not end with IEND at the end";
  }
  if (png.size() <= min_bytes) {
    return ::testing::AssertionFailure() << path << ": only " << png.size() << " bytes";
  }
  return ::testing::AssertionSuccess();
}

// A copy of the fixture run (matches, ratings.json, state.json, train/metrics.jsonl) plus a
// gate match with its SPRT evidence.
void CopyFixtureRun(const fs::path& to) {
  fs::copy(kSource / "tests/fixtures/ratings_run", to, fs::copy_options::recursive);
  fs::copy(kSource / "tests/fixtures/charts/gate_gen_2-vs-gen_1.json",
           to / "matches" / "gate_gen_2-vs-gen_1.json");
}

void Write(const std::string& path, const std::string& text) {
  ASSERT_TRUE(util::WriteFileAtomic(path, text).ok()) << path;
}

// Sets an environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    had_ = std::getenv(name) != nullptr;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(ChartsTest, TheEmbeddedScriptIsTheSourceFile) {
  EXPECT_EQ(std::string(ChartsScript()), ReadAll((kSource / "charts/veletas_charts.py").string()));
}

TEST(ChartsTest, DrawsEveryChartOfTheFixtureRun) {
  TempDir dir;
  CopyFixtureRun(dir.Path() / "run");
  auto drawn = DrawRunCharts(dir.File("run"), dir.File("report"));
  ASSERT_TRUE(drawn.ok()) << drawn.error();
  for (const char* name : {"elo.png", "losses.png", "speed.png", "gate.png"}) {
    EXPECT_TRUE(IsChartPng(dir.File(std::string("report/") + name)));
    EXPECT_NE(drawn.value().find(std::string("wrote ") + dir.File("report/" + std::string(name))),
              std::string::npos)
        << drawn.value();
  }
  // The truncated match record is named, and no temporary file is left.
  EXPECT_NE(drawn.value().find("corrupt.json"), std::string::npos) << drawn.value();
  for (const auto& entry : fs::directory_iterator(dir.Path() / "report")) {
    EXPECT_EQ(entry.path().extension(), ".png") << entry.path();
  }
}

TEST(ChartsTest, ARunWithoutDataSkipsEveryChart) {
  TempDir dir;
  fs::create_directories(dir.Path() / "run");
  auto drawn = DrawRunCharts(dir.File("run"), dir.File("report"));
  ASSERT_TRUE(drawn.ok()) << drawn.error();
  EXPECT_NE(drawn.value().find("skipped elo.png"), std::string::npos) << drawn.value();
  EXPECT_NE(drawn.value().find("skipped losses.png"), std::string::npos) << drawn.value();
  EXPECT_FALSE(fs::exists(dir.File("report/elo.png")));
  // A run directory that does not exist is bad input naming it.
  auto missing = DrawRunCharts(dir.File("missing"), dir.File("report"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.kind(), util::ErrorKind::kBadInput);
  EXPECT_NE(missing.error().find(dir.File("missing")), std::string::npos) << missing.error();
}

TEST(ChartsTest, RatingsAndLossChartsAlone) {
  TempDir dir;
  const fs::path fixture = kSource / "tests/fixtures/ratings_run";
  auto ratings = DrawRatingsChart((fixture / "ratings.json").string(), dir.File("ratings.png"));
  ASSERT_TRUE(ratings.ok()) << ratings.error();
  EXPECT_TRUE(IsChartPng(dir.File("ratings.png")));
  auto losses = DrawLossChart((fixture / "train/metrics.jsonl").string(), dir.File("loss.png"));
  ASSERT_TRUE(losses.ok()) << losses.error();
  EXPECT_TRUE(IsChartPng(dir.File("loss.png")));
}

// Values the old C++ axis code hung on (huge, nearly equal: issue 13, defect 3), NaN, null,
// infinities and values past any axis: the chart is drawn from what is finite.
TEST(ChartsTest, HugeNearlyEqualAndNonFiniteValuesAreDrawnWithoutHanging) {
  TempDir dir;
  Write(dir.File("near.jsonl"),
        "{\"generation\":1,\"step\":1,\"loss_total\":1e17,\"loss_policy\":1e17}\n"
        "{\"generation\":1,\"step\":2,\"loss_total\":100000000000000016,"
        "\"loss_policy\":100000000000000016}\n");
  auto near = DrawLossChart(dir.File("near.jsonl"), dir.File("near.png"));
  ASSERT_TRUE(near.ok()) << near.error();
  EXPECT_TRUE(IsChartPng(dir.File("near.png")));

  Write(dir.File("odd.jsonl"),
        "{\"generation\":1,\"step\":1,\"loss_total\":NaN,\"loss_value\":null}\n"
        "{\"generation\":1,\"step\":2,\"loss_total\":Infinity,\"loss_value\":1e308}\n"
        "{\"generation\":1,\"step\":3,\"loss_total\":2.5,\"loss_value\":-1e308}\n"
        "not json\n"
        "{\"generation\":1,\"step\":4,\"loss_total\":2.0,\"loss_value\":0.5}\n");
  auto odd = DrawLossChart(dir.File("odd.jsonl"), dir.File("odd.png"));
  ASSERT_TRUE(odd.ok()) << odd.error();
  EXPECT_TRUE(IsChartPng(dir.File("odd.png")));
  EXPECT_NE(odd.value().find("odd.jsonl:4: skipped"), std::string::npos) << odd.value();
  EXPECT_NE(odd.value().find("left out"), std::string::npos) << odd.value();
}

TEST(ChartsTest, EmptyAndHostileFilesAreErrorsOrSkipsNamingThem) {
  TempDir dir;
  Write(dir.File("empty.jsonl"), "");
  auto empty = DrawLossChart(dir.File("empty.jsonl"), dir.File("empty.png"));
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_NE(empty.value().find("skipped"), std::string::npos) << empty.value();
  EXPECT_FALSE(fs::exists(dir.File("empty.png")));

  Write(dir.File("empty.json"), "");
  Write(dir.File("deep.json"), std::string(100000, '[') + std::string(100000, ']'));
  for (const char* name : {"empty.json", "deep.json", "missing.json"}) {
    auto bad = DrawRatingsChart(dir.File(name), dir.File("r.png"));
    ASSERT_FALSE(bad.ok()) << name;
    EXPECT_EQ(bad.kind(), util::ErrorKind::kBadInput) << bad.error();
    EXPECT_NE(bad.error().find(dir.File(name)), std::string::npos) << bad.error();
  }
  EXPECT_FALSE(fs::exists(dir.File("r.png")));

  // In a run, a hostile match record and a broken state.json are skipped by name; the other
  // charts are drawn.
  CopyFixtureRun(dir.Path() / "run");
  Write(dir.File("run/matches/deep.json"), std::string(100000, '[') + std::string(100000, ']'));
  Write(dir.File("run/state.json"), "{\"generations\": [1, null, {\"generation\": \"x\"}]");
  auto run = DrawRunCharts(dir.File("run"), dir.File("report"));
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_NE(run.value().find("deep.json"), std::string::npos) << run.value();
  EXPECT_NE(run.value().find("state.json"), std::string::npos) << run.value();
  EXPECT_TRUE(IsChartPng(dir.File("report/elo.png")));
  EXPECT_TRUE(IsChartPng(dir.File("report/gate.png")));
}

TEST(ChartsTest, AWriteThatFailsIsAFailureNamingTheFile) {
  TempDir dir;
  const std::string png = dir.File("no/such/dir/loss.png");
  auto drawn =
      DrawLossChart((kSource / "tests/fixtures/ratings_run/train/metrics.jsonl").string(), png);
  ASSERT_FALSE(drawn.ok());
  EXPECT_EQ(drawn.kind(), util::ErrorKind::kFailure);
  EXPECT_NE(drawn.error().find(png), std::string::npos) << drawn.error();
}

TEST(ChartsTest, WithoutMatplotlibTheErrorSaysWhatToInstall) {
  TempDir dir;
  // A matplotlib package that cannot be imported shadows the real one for every interpreter.
  fs::create_directories(dir.Path() / "hide" / "matplotlib");
  Write(dir.File("hide/matplotlib/__init__.py"), "raise ImportError('hidden by the test')\n");
  ScopedEnv path("PYTHONPATH", dir.File("hide"));
  auto drawn = DrawLossChart((kSource / "tests/fixtures/ratings_run/train/metrics.jsonl").string(),
                             dir.File("l.png"));
  ASSERT_FALSE(drawn.ok());
  EXPECT_EQ(drawn.kind(), util::ErrorKind::kFailure);
  EXPECT_NE(drawn.error().find("python3-matplotlib"), std::string::npos) << drawn.error();
  EXPECT_NE(drawn.error().find("hidden by the test"), std::string::npos) << drawn.error();
  EXPECT_FALSE(fs::exists(dir.File("l.png")));

  // An interpreter that does not exist is named.
  ScopedEnv python("VELETAS_PYTHON", dir.File("no-python"));
  auto none = DrawLossChart("x.jsonl", dir.File("l.png"));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find(dir.File("no-python") + ": cannot run"), std::string::npos)
      << none.error();
}

}  // namespace
}  // namespace veletas::charts
