// The entry format and the validation of self-play games: what a buggy or hostile worker can
// send is refused with the reason's name, and what a real worker sends passes.
#include <gtest/gtest.h>

#include "cluster/learner/validate.h"
#include "cluster/transport/entry.h"
#include "rules/notation.h"
#include "tests/cluster/cluster_test_util.h"
#include "tests/cluster/forge_bomb.h"
#include "util/atomic_file.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

using testing::Bytes;
using testing::PlayGames;
using testing::SelfplayEntry;

const std::string kNetwork = util::Sha256Hex("network");

TEST(Entry, SelfplayRoundTripAndValidGame) {
  const auto games = PlayGames(2);
  ASSERT_EQ(games.size(), 2u);
  Entry e = SelfplayEntry(games[0], kNetwork, "w-1");
  e.precision = model::InferencePrecision::kInt8;
  auto d = DecodeEntry(Bytes(e), kDefaultMaxEntryBytes);
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ(d.value().kind, EntryKind::kSelfplay);
  EXPECT_EQ(d.value().game_id, e.game_id);
  EXPECT_EQ(d.value().worker, "w-1");
  EXPECT_EQ(d.value().network, kNetwork);
  ASSERT_EQ(d.value().game.games.size(), 1u);
  EXPECT_EQ(d.value().game.games[0].id, e.game_id);
  EXPECT_EQ(d.value().game.games[0].record, games[0].record.record);
  EXPECT_EQ(d.value().game.samples.size(), games[0].samples.size());
  EXPECT_EQ(d.value().precision, model::InferencePrecision::kInt8);
  // The root summaries, one per sample, as searched.
  ASSERT_EQ(d.value().summaries.size(), games[0].samples.size());
  for (size_t i = 0; i < games[0].summaries.size(); ++i) {
    const selfplay::RootSummary& got = d.value().summaries[i];
    const selfplay::RootSummary& sent = games[0].summaries[i];
    EXPECT_EQ(got.chosen, sent.chosen);
    ASSERT_EQ(got.children.size(), sent.children.size());
    ASSERT_FALSE(sent.children.empty());
    for (size_t k = 0; k < sent.children.size(); ++k) {
      EXPECT_EQ(got.children[k].action, sent.children[k].action);
      EXPECT_EQ(got.children[k].visits, sent.children[k].visits);
      EXPECT_EQ(got.children[k].q, sent.children[k].q);
      EXPECT_EQ(got.children[k].proven, sent.children[k].proven);
    }
  }
  // Summaries that are not one per sample are refused.
  Entry short_of_one = e;
  short_of_one.summaries.pop_back();
  auto refused = DecodeEntry(Bytes(short_of_one), kDefaultMaxEntryBytes);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("root summaries"), std::string::npos) << refused.error();
  EXPECT_TRUE(ValidateSelfplayGame(d.value().game, rules::RuleSet::kStandard, 7).ok());
  // The other game, and the wrong board size.
  const Entry other = SelfplayEntry(games[1], kNetwork, "w-1");
  EXPECT_TRUE(ValidateSelfplayGame(other.game, rules::RuleSet::kStandard, 7).ok());
  EXPECT_EQ(RejectionReason(ValidateSelfplayGame(other.game, rules::RuleSet::kStandard, 9).error()),
            "illegal record");
}

// A game that ends by resignation, every decision searched in full and recorded (the
// resigning one included), passes the learner's checks as its worker sends it: the record
// stops at the turn start where its player resigned and no sample is of that position (an
// honest worker's resigned games were refused as "inconsistent samples: sample N is not a
// position of the game's record" when the resigning decision was drawn for a sample).
TEST(Entry, ResignedGamesAsPlayedPassValidation) {
  selfplay::SelfplayConfig config = testing::SmallSelfplay();
  config.full_search_probability = 1.0f;  // every play-phase decision recorded
  config.resign_threshold = -0.9f;
  config.resign_consecutive = 2;
  config.no_resign_fraction = 0.0f;
  // A network that finds person 0 losing everywhere: person 0 resigns every game.
  search::FunctionEvaluator evaluator([](const rules::Position& pos, search::EvalOutput& out) {
    search::FillUniformPolicy(pos, out);
    out.value = pos.ToMovePlayer() == 0 ? -0.95f : 0.95f;
  });
  selfplay::SelfplayJob job;
  job.games = 4;
  auto games = selfplay::PlayGamesInMemory(config, search::SearchConfig{}, testing::SmallBatching(),
                                           evaluator, job);
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games.value().size(), 4u);
  for (const selfplay::FinishedGame& g : games.value()) {
    ASSERT_TRUE(g.record.resigned) << g.record.record;
    ASSERT_FALSE(g.samples.empty());
    const Entry e = SelfplayEntry(g, kNetwork, "w-1");
    auto d = DecodeEntry(Bytes(e), kDefaultMaxEntryBytes);
    ASSERT_TRUE(d.ok()) << d.error();
    util::Status valid = ValidateSelfplayGame(d.value().game, rules::RuleSet::kStandard, 7);
    EXPECT_TRUE(valid.ok()) << valid.error() << " (" << g.samples.size()
                            << " samples, record: " << g.record.record << ")";
  }
}

TEST(Entry, ArenaRoundTrip) {
  Entry e;
  e.kind = EntryKind::kArena;
  e.game_id = ArenaGameId("gate_gen_2-vs-gen_1", 5);
  e.worker = "w";
  e.task = "1700000000000-0";
  e.match = "gate_gen_2-vs-gen_1";
  e.arena.index = 5;
  e.arena.a_first = false;
  e.arena.a_colour = rules::Color::kWhite;
  e.arena.a_won = true;
  e.arena.turns = 17;
  e.arena.record = "c3/c4 x";
  auto d = DecodeEntry(Bytes(e), kDefaultMaxEntryBytes);
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ(d.value().kind, EntryKind::kArena);
  EXPECT_EQ(d.value().match, e.match);
  EXPECT_EQ(d.value().task, e.task);
  EXPECT_EQ(d.value().arena.index, 5);
  EXPECT_FALSE(d.value().arena.a_first);
  EXPECT_EQ(d.value().arena.a_colour, rules::Color::kWhite);
  EXPECT_TRUE(d.value().arena.a_won);
  EXPECT_EQ(d.value().arena.turns, 17);
  EXPECT_EQ(d.value().arena.record, e.arena.record);
  EXPECT_EQ(ArenaGameId("m", 1), ArenaGameId("m", 1));
  EXPECT_NE(ArenaGameId("m", 1), ArenaGameId("m", 2));
  EXPECT_NE(ArenaGameId("m", 1), ArenaGameId("n", 1));
}

TEST(Entry, GarbageTruncatedCorruptAndOversizedAreRefused) {
  const auto games = PlayGames(1);
  const std::string good = Bytes(SelfplayEntry(games[0], kNetwork, "w"));
  auto reason = [](const std::string& bytes, int64_t limit = kDefaultMaxEntryBytes) {
    auto d = DecodeEntry(bytes, limit);
    return d.ok() ? std::string("accepted") : RejectionReason(d.error());
  };
  EXPECT_EQ(reason(""), "malformed");
  EXPECT_EQ(reason("garbage garbage garbage garbage garbage"), "malformed");
  // Every truncation is refused, never accepted and never a crash.
  for (size_t n = 0; n < good.size(); n += 1 + good.size() / 200) {
    EXPECT_NE(reason(good.substr(0, n)), "accepted") << n;
  }
  // A flipped bit anywhere: the checksum.
  for (size_t at = 0; at < good.size(); at += 1 + good.size() / 50) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    const std::string r = reason(bad);
    EXPECT_TRUE(r == "checksum" || r == "malformed" || r == "version") << at << ": " << r;
  }
  // An entry of version 1 (FNV-1a checksums, workers of earlier builds): named as such.
  std::string old = good;
  old[4] = 1;
  const auto d = DecodeEntry(old, kDefaultMaxEntryBytes);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(RejectionReason(d.error()), "version");
  EXPECT_NE(d.error().find("entry format version 1"), std::string::npos) << d.error();
  EXPECT_NE(d.error().find("reads version 3"), std::string::npos) << d.error();
  EXPECT_EQ(reason(good, static_cast<int64_t>(good.size()) - 1), "oversized");
  EXPECT_EQ(reason(good + "x"), "checksum");
}

TEST(Entry, AGameClaimingAHugePayloadIsRefusedBeforeAllocating) {
  // A sample file whose header declares 7 GiB of samples, inside a well-framed entry.
  const auto games = PlayGames(1);
  Entry e = SelfplayEntry(games[0], kNetwork, "w");
  const std::string f = testing::DeclaringHugeSamples(Bytes(e), e.game, 7ULL << 30);
  ASSERT_NE(f, Bytes(e));
  auto d = DecodeEntry(f, kDefaultMaxEntryBytes);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().find("more than the limit"), std::string::npos) << d.error();
}

TEST(Entry, AGameExpandingMoreThanSixteenTimesItsLimitIsRefused) {
  // Real sample files expand 3-3.5 times; one sample repeated 3,000 times compresses far
  // better: a decompression bomb within the entry limit.
  const auto games = PlayGames(1);
  Entry e = SelfplayEntry(games[0], kNetwork, "w");
  e.game.samples.assign(3000, e.game.samples.front());
  e.game.games[0].samples = 3000;
  e.summaries.assign(3000, selfplay::RootSummary{});
  const std::string bytes = Bytes(e);
  const auto file = data::EncodeSampleFile(e.game);
  ASSERT_TRUE(file.ok());
  const auto probe = data::DecodeSampleFile(file.value(), "x", 1);
  ASSERT_FALSE(probe.ok());
  const size_t at = probe.error().find("declares ");
  ASSERT_NE(at, std::string::npos) << probe.error();
  const int64_t payload = std::stoll(probe.error().substr(at + 9));
  // Between 16 and 64 times the limit (64 was the old bound): refused now.
  const int64_t limit = payload / 32;
  ASSERT_GE(limit, static_cast<int64_t>(bytes.size()));
  auto refused = DecodeEntry(bytes, limit);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("more than the limit"), std::string::npos) << refused.error();
  // Within 16 times the limit the entry bound passes it, but this bomb also expands more
  // than 64 times its compressed bytes (data/sample_file's bound; real files 2-2.5 times).
  auto within = DecodeEntry(bytes, payload / 16 + 1);
  ASSERT_FALSE(within.ok());
  EXPECT_NE(within.error().find("at most 64 times"), std::string::npos) << within.error();
}

TEST(Validate, ForgedGamesAreRefusedWithTheirReason) {
  const auto games = PlayGames(3);
  ASSERT_EQ(games.size(), 3u);
  const Entry e = SelfplayEntry(games[0], kNetwork, "w");
  auto reason = [](const data::SampleFile& f) {
    util::Status s = ValidateSelfplayGame(f, rules::RuleSet::kStandard, 7);
    return s.ok() ? std::string("accepted") : RejectionReason(s.error());
  };
  ASSERT_EQ(reason(e.game), "accepted");
  {  // an illegal move in the record
    data::SampleFile f = e.game;
    f.games[0].record = "a1-a9/a9 " + f.games[0].record;
    EXPECT_EQ(reason(f), "illegal record");
  }
  {  // a record that stops before the end without a resignation
    data::SampleFile f = e.game;
    const size_t cut = f.games[0].record.rfind(' ');
    f.games[0].record = f.games[0].record.substr(0, cut);
    EXPECT_EQ(reason(f), "illegal record");
  }
  {  // the other winner
    data::SampleFile f = e.game;
    f.games[0].winner = static_cast<int8_t>(1 - f.games[0].winner);
    EXPECT_EQ(reason(f), "wrong outcome");
  }
  {  // one sample with the other outcome
    data::SampleFile f = e.game;
    f.samples[f.samples.size() / 2].outcome *= -1;
    EXPECT_EQ(reason(f), "wrong outcome");
  }
  {  // samples of another game
    data::SampleFile f = e.game;
    f.samples = games[1].samples;
    f.games[0].samples = static_cast<uint32_t>(f.samples.size());
    EXPECT_EQ(reason(f), "inconsistent samples");
  }
  {  // samples out of order
    data::SampleFile f = e.game;
    ASSERT_GE(f.samples.size(), 3u);
    std::swap(f.samples[1], f.samples[f.samples.size() - 1]);
    EXPECT_EQ(reason(f), "inconsistent samples");
  }
  {  // a count that lies
    data::SampleFile f = e.game;
    f.games[0].samples += 1;
    EXPECT_EQ(reason(f), "inconsistent samples");
  }
  {  // a resignation where the game ended by the rules
    data::SampleFile f = e.game;
    f.games[0].resigned = true;
    EXPECT_EQ(reason(f), "illegal record");
  }
  {  // two games
    data::SampleFile f = e.game;
    f.games.push_back(f.games[0]);
    EXPECT_EQ(reason(f), "malformed");
  }
}

}  // namespace
}  // namespace veletas::cluster
