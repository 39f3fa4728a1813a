#include "cluster/learner/validate.h"

#include "rules/notation.h"
#include "rules/turns.h"

namespace veletas::cluster {

util::Status ValidateSelfplayGame(const data::SampleFile& file, rules::RuleSet rules, int size,
                                  std::string* canonical, rules::Position* end_out) {
  using S = util::Status;
  if (file.rules != rules || file.size != size) {
    return S::Error("illegal record: not a game of this run's rules and board size");
  }
  if (file.games.size() != 1) {
    return S::Error("malformed: " + std::to_string(file.games.size()) + " games, expected one");
  }
  const data::GameRecord& record = file.games.front();
  if (record.samples != file.samples.size()) {
    return S::Error("inconsistent samples: the game says " + std::to_string(record.samples) +
                    " samples, it has " + std::to_string(file.samples.size()));
  }
  const auto game = rules::PlayRecord(rules, size, record.record);
  if (!game) return S::Error("illegal record: " + game.error());
  const rules::Position& end = game.value().final;
  rules::Color winner;
  if (record.resigned) {
    // A player resigns at the start of a play-phase turn, when they are to move.
    if (end.IsTerminal() || end.Pending() != rules::Decision::kChooseShooter) {
      return S::Error("illegal record: resigned, but not at a play-phase turn start");
    }
    winner = rules::Opponent(end.ToMove());
  } else {
    if (!end.IsTerminal()) return S::Error("illegal record: the game is not finished");
    winner = *end.Winner();
  }
  if (record.winner != static_cast<int8_t>(winner)) {
    return S::Error("wrong outcome: the record's winner is " +
                    std::string(rules::ColorName(winner)));
  }
  const int winner_person = end.PlayerOf(winner);
  // Samples are taken at sub-decisions with more than one legal action, in order.
  size_t next = 0;
  const std::vector<rules::Turn>& turns = game.value().turns;
  for (size_t t = 0; t < turns.size() && next < file.samples.size(); ++t) {
    rules::Position pos = game.value().before[t];
    for (int i = 0; i < turns[t].length && next < file.samples.size(); ++i) {
      if (pos.LegalActions().Count() > 1 && file.samples[next].position == pos) ++next;
      pos.Apply(turns[t][i]);
    }
  }
  if (next < file.samples.size()) {
    return S::Error("inconsistent samples: sample " + std::to_string(next) +
                    " is not a position of the game's record (in order)");
  }
  for (size_t i = 0; i < file.samples.size(); ++i) {
    const data::Sample& s = file.samples[i];
    const float expected = s.position.ToMovePlayer() == winner_person ? 1.0f : -1.0f;
    if (s.outcome != expected) {
      return S::Error("wrong outcome: sample " + std::to_string(i) +
                      " has the other outcome for its player to move");
    }
    if (static_cast<int>(s.aux.size()) != s.position.AllShooters().Count()) {
      return S::Error("inconsistent samples: sample " + std::to_string(i) +
                      " does not have one aux target per shooter");
    }
  }
  if (canonical != nullptr) *canonical = rules::RecordToString(game.value());
  if (end_out != nullptr) *end_out = end;
  return util::Ok();
}

std::string RejectionReason(const std::string& message) {
  const size_t colon = message.find(':');
  if (colon == std::string::npos || colon == 0 || colon > 24) return "rejected";
  return message.substr(0, colon);
}

}  // namespace veletas::cluster
