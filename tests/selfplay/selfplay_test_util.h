// Helpers for the self-play engine tests: small fast configurations, temporary output
// directories, and an independent replay of written games (records through the rules).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "data/sample_dir.h"
#include "data/sample_file.h"
#include "rules/notation.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "util/atomic_file.h"

namespace veletas::selfplay {
// The self-play tests read what the engine writes in the data layer's format.
using data::AuxTarget;
using data::ChunkPath;
using data::GameRecord;
using data::Owner;
using data::PolicyEntry;
using data::ReadSampleFile;
using data::Sample;
using data::SampleFile;
}  // namespace veletas::selfplay

namespace veletas::selfplay::testing {

namespace fs = std::filesystem;

// The bytes of `path`; a read error fails the test.
inline std::string Bytes(const std::string& path) {
  std::string data;
  EXPECT_TRUE(test_support::ReadInto(path, data)) << path;
  return data;
}

using test_support::Joined;

// Small budgets and batches: fast runs on 7x7.
inline SelfplayConfig SmallConfig() {
  SelfplayConfig c;
  c.threads = 1;
  c.games_in_flight = 4;
  c.leaves_per_search = 2;
  c.full_simulations = 16;
  c.cheap_simulations = 4;
  c.full_search_probability = 0.5f;
  c.games_per_file = 4;
  c.resign_threshold = -1.0f;  // off unless a test turns it on
  c.seed = 7;
  return c;
}

inline search::BatchingConfig SmallBatching() {
  search::BatchingConfig b;
  b.max_batch = 32;
  b.max_wait_us = 0;  // one worker: nothing else to wait for
  b.cache_size = 4096;
  return b;
}

using test_support::TempDir;

// A game of a sample file with its samples.
struct FileGame {
  data::GameRecord record;
  std::vector<data::Sample> samples;
};

// Every game of every file <dir>/<prefix>_<k>.vzs, k = 0 .. files - 1, in order. Fails the
// test when a file is unreadable.
inline std::vector<FileGame> ReadGames(const std::string& dir, int64_t files,
                                       const std::string& prefix = "samples") {
  std::vector<FileGame> out;
  for (int64_t k = 0; k < files; ++k) {
    const auto file = data::ReadSampleFile(data::ChunkPath(dir, prefix, k));
    EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error());
    if (!file.ok()) continue;
    size_t next = 0;
    for (const data::GameRecord& g : file.value().games) {
      FileGame fg;
      fg.record = g;
      EXPECT_LE(next + g.samples, file.value().samples.size());
      for (uint32_t i = 0; i < g.samples && next < file.value().samples.size(); ++i) {
        fg.samples.push_back(file.value().samples[next++]);
      }
      out.push_back(std::move(fg));
    }
    EXPECT_EQ(next, file.value().samples.size()) << "samples not claimed by a game";
  }
  return out;
}

// A game replayed from its record: every sub-decision position with the action played
// there, and the position where the record ends.
struct Replay {
  std::vector<rules::Position> positions;
  std::vector<rules::Action> actions;
  rules::Position final;
};

inline Replay ReplayRecord(rules::RuleSet rs, int size, const std::string& record) {
  Replay r;
  const auto game = rules::PlayRecord(rs, size, record);
  EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error());
  if (!game.ok()) return r;
  for (size_t t = 0; t < game.value().turns.size(); ++t) {
    rules::Position p = game.value().before[t];
    const rules::Turn& turn = game.value().turns[t];
    for (int i = 0; i < turn.length; ++i) {
      r.positions.push_back(p);
      r.actions.push_back(turn[i]);
      p.Apply(turn[i]);
    }
  }
  r.final = game.value().final;
  return r;
}

// The setup decisions of a record: its moves up to the start of the play phase.
inline std::string SetupPart(const std::string& record, rules::RuleSet rs, int size) {
  const auto game = rules::PlayRecord(rs, size, record);
  EXPECT_TRUE(game.ok());
  std::string out;
  if (!game.ok()) return out;
  for (size_t t = 0; t < game.value().turns.size(); ++t) {
    const rules::Position& p = game.value().before[t];
    if (p.Pending() == rules::Decision::kChooseShooter) break;
    out += rules::TurnToString(p, game.value().turns[t]) + " ";
  }
  return out;
}

}  // namespace veletas::selfplay::testing
