// Test support for the resignation check (selfplay::CheckResignation): an honest self-play
// game made into one that ends by resignation, as a worker could send it.
#pragma once

#include <optional>

#include "rules/notation.h"
#include "selfplay/selfplay_game.h"

namespace veletas::cluster::testing {

// `g` (a game of `rules` on a board of `size`) cut at the last play-phase turn start where
// `person` is to move and has at least one sample before it, with `person` resigning there:
// the record ends there, later samples and summaries are dropped and every sample's outcome
// is that of the resignation. nullopt when the game has no such turn start.
inline std::optional<selfplay::FinishedGame> ResignedBy(const selfplay::FinishedGame& g, int person,
                                                        rules::RuleSet rules, int size) {
  auto played = rules::PlayRecord(rules, size, g.record.record);
  if (!played) return std::nullopt;
  const rules::Game& game = played.value();
  // samples_before[t]: the samples taken before turn t (as cluster::ValidateSelfplayGame
  // matches them).
  std::vector<size_t> samples_before{0};
  size_t next = 0;
  for (size_t t = 0; t < game.turns.size(); ++t) {
    rules::Position pos = game.before[t];
    for (int i = 0; i < game.turns[t].length; ++i) {
      if (next < g.samples.size() && pos.LegalActions().Count() > 1 &&
          g.samples[next].position == pos) {
        ++next;
      }
      pos.Apply(game.turns[t][i]);
    }
    samples_before.push_back(next);
  }
  for (size_t t = game.turns.size(); t-- > 0;) {
    const rules::Position& at = game.before[t];
    if (at.Pending() != rules::Decision::kChooseShooter || at.ToMovePlayer() != person ||
        samples_before[t] == 0) {
      continue;
    }
    rules::Game cut;
    cut.start = game.start;
    cut.final = at;
    cut.turns.assign(game.turns.begin(), game.turns.begin() + static_cast<long>(t));
    cut.before.assign(game.before.begin(), game.before.begin() + static_cast<long>(t));
    selfplay::FinishedGame out = g;
    out.samples.resize(samples_before[t]);
    out.summaries.resize(std::min(out.summaries.size(), samples_before[t]));
    const rules::Color winner = rules::Opponent(at.ToMove());
    const int winner_person = at.PlayerOf(winner);
    for (data::Sample& s : out.samples) {
      s.outcome = s.position.ToMovePlayer() == winner_person ? 1.0f : -1.0f;
    }
    out.record.record = rules::RecordToString(cut);
    out.record.resigned = true;
    out.record.winner = static_cast<int8_t>(winner);
    out.record.samples = static_cast<uint32_t>(out.samples.size());
    out.resigned = true;
    out.winner_color = winner;
    out.winner_person = winner_person;
    return out;
  }
  return std::nullopt;
}

}  // namespace veletas::cluster::testing
