// Helpers shared by the model tests.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "model/net_config.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace veletas::model::testing {

// A small network so the tests stay fast.
inline NetConfig TinyArch() {
  NetConfig c;
  c.blocks = 2;
  c.channels = 16;
  c.head_channels = 8;
  c.value_hidden = 16;
  c.threads = 2;
  return c;
}

// A fresh directory for one test, removed at the end.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("veletas_model_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Square index of `name` (e.g. "c5") on a board of `size`.
inline int Sq(int size, const char* name) {
  const auto sq = rules::ParseSquare(size, name);
  EXPECT_TRUE(sq.has_value()) << name;
  return sq.value_or(0);
}

}  // namespace veletas::model::testing
