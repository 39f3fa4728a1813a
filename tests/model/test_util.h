// Helpers shared by the model tests.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "model/base/net_config.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "tests/support/temp_dir.h"

namespace veletas::model::testing {

// A small network so the tests stay fast.
inline NetConfig TinyArch() {
  NetConfig c;
  c.blocks = 2;
  c.channels = 16;
  c.head_channels = 8;
  c.value_hidden = 16;
  c.threads = 2;
  // The LibTorch path; inference_test.cpp tests the others.
  c.inference_precision = model::InferencePrecision::kTorch;
  return c;
}

using test_support::TempDir;

// Square index of `name` (e.g. "c5") on a board of `size`.
inline int Sq(int size, const char* name) {
  const auto sq = rules::ParseSquare(size, name);
  EXPECT_TRUE(sq.has_value()) << name;
  return sq.value_or(0);
}

}  // namespace veletas::model::testing
