#include "data/sample_file.h"
#include "tests/support/files.h"

#include <gtest/gtest.h>

#include <zstd.h>

#include <filesystem>
#include <fstream>

#include "data/game_journal.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "util/atomic_file.h"
#include "util/byte_io.h"
#include "util/checksum.h"

namespace veletas::data {
namespace {

namespace fs = std::filesystem;

// Samples from a seeded random game: every sub-decision position, a policy spread over
// its legal actions, the real outcome, and each shooter's final state as aux target.
SampleFile RandomGameFile(rules::RuleSet rs, int size, uint64_t seed) {
  SampleFile file;
  file.rules = rs;
  file.size = size;
  util::Rng rng(seed);
  rules::Position p = rules::Position::Initial(rs, size);
  std::vector<rules::Position> positions;
  rules::Game game{p, p, {}, {}};
  while (!p.IsTerminal()) {
    const rules::Turn turn = rules::RandomTurn(p, rng);
    game.before.push_back(p);
    game.turns.push_back(turn);
    for (int i = 0; i < turn.length; ++i) {
      positions.push_back(p);
      p.Apply(turn[i]);
    }
  }
  game.final = p;
  const rules::Color winner = *p.Winner();
  for (const rules::Position& pos : positions) {
    Sample s;
    s.position = pos;
    const rules::ActionSet legal = pos.LegalActions();
    std::vector<int> actions(legal.squares.begin(), legal.squares.end());
    if (legal.pass) actions.push_back(pos.PassAction());
    for (size_t i = 0; i < actions.size(); ++i) {
      s.policy.push_back(
          {static_cast<uint8_t>(actions[i]), 1.0f / static_cast<float>(actions.size())});
    }
    s.outcome = pos.ToMove() == winner ? 1.0f : -1.0f;
    s.root_value = static_cast<float>(rng.Uniform() * 2 - 1);
    for (int sq : pos.AllShooters()) {
      s.aux.push_back({static_cast<uint8_t>(sq), static_cast<Owner>(rng.Below(3))});
    }
    file.samples.push_back(s);
  }
  file.games.push_back({rules::RecordToString(game), static_cast<int8_t>(winner), false,
                        static_cast<uint32_t>(file.samples.size()), GameId{}});
  return file;
}

class SampleFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vz_sample_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

void ExpectSameSamples(const SampleFile& a, const SampleFile& b) {
  ASSERT_EQ(a.rules, b.rules);
  ASSERT_EQ(a.size, b.size);
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (size_t i = 0; i < a.samples.size(); ++i) {
    const Sample& x = a.samples[i];
    const Sample& y = b.samples[i];
    EXPECT_TRUE(x.position == y.position) << "sample " << i;
    EXPECT_EQ(x.outcome, y.outcome);
    EXPECT_EQ(x.root_value, y.root_value);
    ASSERT_EQ(x.policy.size(), y.policy.size());
    for (size_t k = 0; k < x.policy.size(); ++k) {
      EXPECT_EQ(x.policy[k].action, y.policy[k].action);
      EXPECT_EQ(x.policy[k].prob, y.policy[k].prob);
    }
    ASSERT_EQ(x.aux.size(), y.aux.size());
    for (size_t k = 0; k < x.aux.size(); ++k) {
      EXPECT_EQ(x.aux[k].square, y.aux[k].square);
      EXPECT_EQ(x.aux[k].owner, y.aux[k].owner);
    }
  }
  ASSERT_EQ(a.games.size(), b.games.size());
  for (size_t i = 0; i < a.games.size(); ++i) {
    EXPECT_EQ(a.games[i].record, b.games[i].record);
    EXPECT_EQ(a.games[i].winner, b.games[i].winner);
    EXPECT_EQ(a.games[i].resigned, b.games[i].resigned);
    EXPECT_EQ(a.games[i].samples, b.games[i].samples);
  }
}

TEST_F(SampleFileTest, RoundTripEverySizeAndRuleSet) {
  for (rules::RuleSet rs : {rules::RuleSet::kStandard, rules::RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      const SampleFile file = RandomGameFile(rs, size, 100 + size);
      ASSERT_GT(file.samples.size(), 20u);
      const std::string path = Path("round_trip.vzs");
      ASSERT_EQ(test_support::ErrorText(WriteSampleFile(path, file)), "");
      const auto read = ReadSampleFile(path);
      ASSERT_TRUE(read.ok()) << read.error();
      ExpectSameSamples(file, read.value());
      // The stored record replays to a game whose winner is the recorded one.
      const auto game = rules::PlayRecord(rs, size, read.value().games[0].record);
      ASSERT_TRUE(game.ok()) << game.error();
      EXPECT_EQ(static_cast<int>(*game.value().final.Winner()), read.value().games[0].winner);
    }
  }
}

TEST_F(SampleFileTest, NoTemporaryFileIsLeftBehind) {
  ASSERT_EQ(test_support::ErrorText(
                WriteSampleFile(Path("a.vzs"), RandomGameFile(rules::RuleSet::kStandard, 7, 1))),
            "");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "a.vzs");
  }
  EXPECT_EQ(files, 1);
}

TEST_F(SampleFileTest, EveryTruncationIsRejectedWithTheFileName) {
  const std::string path = Path("t.vzs");
  ASSERT_EQ(test_support::ErrorText(
                WriteSampleFile(path, RandomGameFile(rules::RuleSet::kStandard, 7, 2))),
            "");
  std::string data;
  ASSERT_TRUE(test_support::ReadInto(path, data));
  for (size_t len = 0; len < data.size(); len += 1 + len / 7) {
    const std::string cut = Path("cut.vzs");
    std::ofstream(cut, std::ios::binary).write(data.data(), static_cast<std::streamsize>(len));
    const auto read = ReadSampleFile(cut);
    ASSERT_FALSE(read.ok()) << "length " << len;
    EXPECT_NE(read.error().find(cut), std::string::npos) << read.error();
    EXPECT_NE(read.error().find("truncated"), std::string::npos) << read.error();
  }
}

TEST_F(SampleFileTest, EveryFlippedByteIsRejected) {
  const std::string path = Path("c.vzs");
  ASSERT_EQ(test_support::ErrorText(
                WriteSampleFile(path, RandomGameFile(rules::RuleSet::kClassic, 7, 3))),
            "");
  std::string data;
  ASSERT_TRUE(test_support::ReadInto(path, data));
  for (size_t i = 0; i < data.size(); i += 1 + i / 11) {
    std::string bad = data;
    bad[i] = static_cast<char>(bad[i] ^ 0x20);
    const std::string corrupt = Path("corrupt.vzs");
    std::ofstream(corrupt, std::ios::binary)
        .write(bad.data(), static_cast<std::streamsize>(bad.size()));
    const auto read = ReadSampleFile(corrupt);
    ASSERT_FALSE(read.ok()) << "byte " << i;
    EXPECT_NE(read.error().find(corrupt), std::string::npos) << read.error();
  }
}

TEST_F(SampleFileTest, MissingFileAndForeignFileAreErrors) {
  const auto missing = ReadSampleFile(Path("nope.vzs"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("nope.vzs"), std::string::npos);
  const std::string text = Path("text.vzs");
  std::ofstream(text) << std::string(200, 'x');
  const auto foreign = ReadSampleFile(text);
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.error().find("not a sample file"), std::string::npos) << foreign.error();
}

TEST_F(SampleFileTest, IllegalPolicyActionIsRejected) {
  SampleFile file = RandomGameFile(rules::RuleSet::kStandard, 9, 4);
  Sample& s = file.samples[10];
  const rules::ActionSet legal = s.position.LegalActions();
  int illegal = 0;
  while (legal.Contains(illegal, 9)) ++illegal;
  s.policy[0].action = static_cast<uint8_t>(illegal);
  const std::string path = Path("illegal.vzs");
  ASSERT_EQ(test_support::ErrorText(WriteSampleFile(path, file)), "");
  const auto read = ReadSampleFile(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(
      read.error().find("sample 10: policy action " + std::to_string(illegal) + " is not legal"),
      std::string::npos)
      << read.error();
}

TEST_F(SampleFileTest, PolicyThatDoesNotSumToOneIsRejected) {
  SampleFile file = RandomGameFile(rules::RuleSet::kStandard, 7, 5);
  file.samples[3].policy[0].prob += 0.5f;
  const std::string path = Path("sum.vzs");
  ASSERT_EQ(test_support::ErrorText(WriteSampleFile(path, file)), "");
  const auto read = ReadSampleFile(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("sample 3: policy probabilities sum to"), std::string::npos)
      << read.error();
}

TEST_F(SampleFileTest, AuxTargetWithoutShooterIsRejected) {
  SampleFile file = RandomGameFile(rules::RuleSet::kClassic, 10, 6);
  Sample& s = file.samples[20];
  int empty = 0;
  while (s.position.AllShooters().Test(empty)) ++empty;
  s.aux.push_back({static_cast<uint8_t>(empty), Owner::kNobody});
  const std::string path = Path("aux.vzs");
  ASSERT_EQ(test_support::ErrorText(WriteSampleFile(path, file)), "");
  const auto read = ReadSampleFile(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("sample 20: aux target on square"), std::string::npos)
      << read.error();
}

TEST_F(SampleFileTest, GameIdsRoundTripAndPrintAsHex) {
  SampleFile file = RandomGameFile(rules::RuleSet::kStandard, 7, 8);
  file.games.push_back(file.games[0]);
  const std::vector<Sample> copy = file.samples;
  file.samples.insert(file.samples.end(), copy.begin(), copy.end());
  for (int i = 0; i < 16; ++i) file.games[1].id.bytes[i] = static_cast<uint8_t>(0xF0 + i);
  const std::string path = Path("ids.vzs");
  ASSERT_EQ(test_support::ErrorText(WriteSampleFile(path, file)), "");
  const auto read = ReadSampleFile(path);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_TRUE(read.value().games[0].id.IsNone());
  EXPECT_EQ(read.value().games[1].id, file.games[1].id);
  EXPECT_EQ(file.games[1].id.Hex(), "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  EXPECT_EQ(GameId::FromHex("F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF"), file.games[1].id);
  EXPECT_FALSE(GameId::FromHex("f0f1").has_value());
  EXPECT_FALSE(GameId::FromHex("g0f1f2f3f4f5f6f7f8f9fafbfcfdfeff").has_value());
}

TEST_F(SampleFileTest, APayloadLargerThanTheCallersLimitIsRefusedBeforeReading) {
  const SampleFile file = RandomGameFile(rules::RuleSet::kStandard, 7, 10);
  auto bytes = EncodeSampleFile(file);
  ASSERT_TRUE(bytes.ok());
  util::Reader h(std::string_view(bytes.value()).substr(0, 64));
  h.Bytes(24);
  const uint64_t raw = h.U64();
  EXPECT_TRUE(DecodeSampleFile(bytes.value(), "x", raw).ok());
  const auto refused = DecodeSampleFile(bytes.value(), "x", raw - 1);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("more than the limit"), std::string::npos) << refused.error();
}

// The encoded file `file` with the 4- or 8-byte header field at `offset` set to `value` and
// the header checksum made right again: what a hostile hand can write.
std::string Reheadered(std::string file, size_t offset, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) file[offset + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
  const uint64_t sum = util::Checksum64(std::string_view(file).substr(0, 56));
  for (int i = 0; i < 8; ++i) file[56 + i] = static_cast<char>((sum >> (8 * i)) & 0xFF);
  return file;
}

// Defect 2 of issue 13 at the reader: counts and lengths in a header are checked against the
// bytes present before anything is allocated for them; the errors name the file.
TEST_F(SampleFileTest, HeaderClaimsBeyondTheBytesPresentAreRefusedBeforeAllocating) {
  const auto encoded = EncodeSampleFile(RandomGameFile(rules::RuleSet::kStandard, 7, 7));
  ASSERT_TRUE(encoded.ok());
  const std::string& good = encoded.value();
  const uint64_t zlen = good.size() - 64;
  uint64_t raw_len = 0;
  for (int i = 0; i < 8; ++i)
    raw_len |= static_cast<uint64_t>(static_cast<uint8_t>(good[24 + i])) << (8 * i);
  struct Case {
    std::string bytes;
    std::string error;
  };
  const Case cases[] = {
      {Reheadered(good, 24, uint64_t{1} << 30, 8),
       "x.vzs: corrupt header: a payload of 1073741824 bytes cannot come from " +
           std::to_string(zlen) + " compressed bytes (at most 64 times as many)"},
      {Reheadered(good, 16, 5'000'000, 4),
       "x.vzs: corrupt header: 5000000 samples and 1 games cannot fit in a payload of " +
           std::to_string(raw_len) + " bytes"},
      {Reheadered(good, 24, raw_len + 100, 8),
       "x.vzs: corrupt data (decompression failed: the frame holds " + std::to_string(raw_len) +
           " bytes, the header says " + std::to_string(raw_len + 100) + ")"},
  };
  for (const Case& c : cases) {
    const auto read = DecodeSampleFile(c.bytes, "x.vzs");
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error(), c.error);
    EXPECT_EQ(read.exit_code(), 2);
  }
  // The 83-byte file of the issue: 5,000,000 samples in a 1 GiB payload of 19 bytes.
  util::Writer h;
  h.Bytes("VELZSMPL");
  h.U32(kSampleFormatVersion);
  h.U8(0);
  h.U8(7);
  h.U16(0);
  h.U32(5'000'000);
  h.U32(1);
  h.U64(uint64_t{1} << 30);
  const std::string payload(19, '\x28');
  h.U64(payload.size());
  h.U64(0);
  h.U64(util::Checksum64(payload));
  h.U64(util::Checksum64(h.str()));
  const std::string tiny = h.str() + payload;
  // Issue 29: 8 GiB declared in a file of 8 MiB (1024:1 passed before): the reader refuses it
  // before decompressing, naming the file and the limit.
  {
    util::Writer big;
    big.Bytes("VELZSMPL");
    big.U32(kSampleFormatVersion);
    big.U8(0);
    big.U8(7);
    big.U16(0);
    big.U32(1);
    big.U32(1);
    big.U64(uint64_t{8} << 30);
    const std::string junk((size_t{8} << 20) + 1, '\x28');
    big.U64(junk.size());
    big.U64(0);
    big.U64(util::Checksum64(junk));
    big.U64(util::Checksum64(big.str()));
    const auto bomb = DecodeSampleFile(big.str() + junk, "bomb.vzs");
    ASSERT_FALSE(bomb.ok());
    EXPECT_EQ(bomb.error(),
              "bomb.vzs: corrupt header: a payload of 8589934592 bytes cannot come from 8388609 "
              "compressed bytes (at most 64 times as many)");
    EXPECT_EQ(bomb.exit_code(), 2);
  }
  ASSERT_EQ(tiny.size(), 83u);
  const auto read = DecodeSampleFile(tiny, "x.vzs");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "x.vzs: corrupt header: a payload of 1073741824 bytes cannot come from 19 compressed "
            "bytes (at most 64 times as many)");
  // The same file as the payload of a journal entry: the entry is dropped with a note.
  util::Writer entry;
  entry.Bytes("VZJ3");
  entry.U64(0);
  entry.U32(tiny.size());
  entry.U64(util::Checksum64(tiny));
  entry.Bytes(tiny);
  const auto parsed =
      ParseJournal(entry.str(), "samples_0.vzs.part", rules::RuleSet::kStandard, 7, 0, 4);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const JournalContents& journal = parsed.value();
  EXPECT_TRUE(journal.games.empty());
  EXPECT_EQ(journal.good_bytes, 0u);
  EXPECT_NE(journal.note.find("samples_0.vzs.part: entry 1 (byte 0): corrupt header"),
            std::string::npos)
      << journal.note;
}

}  // namespace
}  // namespace veletas::data
