#include "rules/bench.h"

#include "rules/notation.h"
#include "rules/turns.h"
#include "util/byte_io.h"
#include "util/checksum.h"
#include "util/random.h"

namespace veletas::rules {

namespace {

constexpr BenchPerft kPerfts[] = {
    {RuleSet::kStandard, 7, "e3/e4 b4,b6/a4", 3},
    {RuleSet::kStandard, 9, "c8,h4/g8 d6,g6,h2/d8", 2},
    {RuleSet::kStandard, 10, "b2,b4,f4/d7 c3,e4,g7,g8/g4", 2},
    {RuleSet::kClassic, 7, "c7 a4,g1", 3},
    {RuleSet::kClassic, 9, "g6,i7 b9,d8,f3", 2},
    {RuleSet::kClassic, 10, "a5,f5,h4 d5,d8,g1,i10", 2},
};

}  // namespace

std::span<const BenchPerft> BenchPerfts() { return kPerfts; }

uint64_t MixSignature(uint64_t signature, uint64_t value) {
  util::Writer w;
  w.U64(signature);
  w.U64(value);
  return util::Checksum64(w.str());
}

uint64_t PlayBenchGames(RuleSet rules, int size, long long games, uint64_t* signature) {
  util::Rng rng(0xBE7C4 + size * 2 + static_cast<int>(rules));
  uint64_t turns = 0;
  for (long long g = 0; g < games; ++g) {
    Position p = Position::Initial(rules, size);
    while (!p.IsTerminal()) ApplyTurn(p, RandomTurn(p, rng));
    turns += p.TurnsPlayed();
    *signature = MixSignature(*signature, p.Hash());
  }
  return turns;
}

util::Result<uint64_t> BenchSignature(long long games) {
  uint64_t signature = 0;
  for (const BenchPerft& c : BenchPerfts()) {
    auto game = PlayRecord(c.rules, c.size, c.record);
    if (!game) return util::Error{game.error()};
    signature = MixSignature(signature, Perft(game.value().final, c.depth));
  }
  for (RuleSet rules : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) PlayBenchGames(rules, size, games, &signature);
  }
  return signature;
}

}  // namespace veletas::rules
