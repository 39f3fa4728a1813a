#include "training/synthetic_data.h"

#include <array>
#include <filesystem>

#include "data/sample_dir.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "util/random.h"

namespace veletas::training {

namespace {

// A sample whose outcome and shooter owners are known only at the end of its game: its index
// and the identity of the shooter on each of its aux squares (-1: none).
struct Pending {
  size_t sample;
  std::vector<int> ids;
};

// Plays one uniformly random game and appends its samples and record to `file`.
void AppendRandomGame(rules::RuleSet rs, int size, double played_weight, util::Rng& rng,
                      data::SampleFile& file) {
  rules::Position p = rules::Position::Initial(rs, size);
  rules::Game game{p, p, {}, {}};
  std::array<int, rules::kMaxSquares> id{};  // shooter identity on each square
  id.fill(-1);
  int next_id = 0;
  std::vector<Pending> pending;
  const size_t first = file.samples.size();
  while (!p.IsTerminal()) {
    const rules::Turn turn = rules::RandomTurn(p, rng);
    game.before.push_back(p);
    game.turns.push_back(turn);
    for (int i = 0; i < turn.length; ++i) {
      data::Sample s;
      s.position = p;
      const rules::ActionSet legal = p.LegalActions();
      const float spread = static_cast<float>((1.0 - played_weight) / legal.Count());
      auto add = [&](int a) {
        const float prob = spread + (a == turn[i] ? static_cast<float>(played_weight) : 0.0f);
        if (prob > 0) s.policy.push_back({static_cast<uint8_t>(a), prob});
      };
      for (int sq : legal.squares) add(sq);
      if (legal.pass) add(p.PassAction());
      s.root_value = static_cast<float>(rng.Uniform() * 2 - 1);
      Pending pend{file.samples.size(), {}};
      for (int sq : p.AllShooters()) {
        s.aux.push_back({static_cast<uint8_t>(sq), data::Owner::kNobody});
        pend.ids.push_back(id[sq]);
      }
      file.samples.push_back(std::move(s));
      pending.push_back(std::move(pend));
      const rules::Bitboard before = p.AllShooters();
      p.Apply(turn[i]);
      const rules::Bitboard after = p.AllShooters();
      const rules::Bitboard gone = before & ~after, added = after & ~before;
      if (gone.Count() == 1 && added.Count() == 1) {
        const int from = *gone.begin(), to = *added.begin();
        id[to] = id[from];
        id[from] = -1;
      } else {
        for (int sq : added) id[sq] = next_id++;
      }
    }
  }
  game.final = p;
  const rules::Color winner = *p.Winner();
  std::vector<int> final_owner(static_cast<size_t>(next_id), -1);
  for (int sq : p.AllShooters()) {
    if (id[sq] < 0) continue;
    if (p.Claimed(rules::Color::kBlack).Test(sq))
      final_owner[id[sq]] = p.PlayerOf(rules::Color::kBlack);
    if (p.Claimed(rules::Color::kWhite).Test(sq))
      final_owner[id[sq]] = p.PlayerOf(rules::Color::kWhite);
  }
  for (const Pending& pend : pending) {
    data::Sample& s = file.samples[pend.sample];
    const int person = s.position.ToMovePlayer();
    s.outcome = person == p.PlayerOf(winner) ? 1.0f : -1.0f;
    for (size_t k = 0; k < s.aux.size(); ++k) {
      const int owner = pend.ids[k] < 0 ? -1 : final_owner[pend.ids[k]];
      s.aux[k].owner = owner < 0         ? data::Owner::kNobody
                       : owner == person ? data::Owner::kToMove
                                         : data::Owner::kOpponent;
    }
  }
  file.games.push_back({rules::RecordToString(game), static_cast<int8_t>(winner), false,
                        static_cast<uint32_t>(file.samples.size() - first), data::GameId{}});
}

}  // namespace

data::SampleFile RandomGameSamples(rules::RuleSet rs, int size, int games, uint64_t seed,
                                   double played_weight) {
  data::SampleFile file;
  file.rules = rs;
  file.size = size;
  util::Rng rng(seed);
  for (int g = 0; g < games; ++g) AppendRandomGame(rs, size, played_weight, rng, file);
  return file;
}

util::Status WriteRandomSampleFiles(const std::string& dir, const std::string& prefix, int files,
                                    rules::RuleSet rs, int size, int games_per_file, uint64_t seed,
                                    double played_weight) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return util::Status::Failure(dir + ": cannot create directory: " + ec.message());
  for (int k = 0; k < files; ++k) {
    const std::string path = data::ChunkPath(dir, prefix, k);
    const data::SampleFile f =
        RandomGameSamples(rs, size, games_per_file, seed + static_cast<uint64_t>(k), played_weight);
    if (util::Status written = data::WriteSampleFile(path, f); !written.ok()) return written;
  }
  return util::Ok();
}

}  // namespace veletas::training
