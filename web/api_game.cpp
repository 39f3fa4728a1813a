// The C API's games (web/api.h): a play::GameState and the turn being clicked.
#include <memory>
#include <optional>

#include "play/game_state.h"
#include "rules/notation.h"
#include "web/api.h"
#include "web/api_util.h"
#include "web/turn_builder.h"

struct VzGame {
  veletas::play::GameState game;
  std::optional<veletas::web::TurnBuilder> turn;  // while the game goes on
};

namespace veletas::web {
namespace {

using nlohmann::json;

void NewTurn(VzGame& g) {
  const rules::Position& pos = g.game.Current();
  if (pos.IsTerminal()) {
    g.turn.reset();
  } else {
    g.turn.emplace(pos);
  }
}

json ColorJson(std::optional<rules::Color> c) {
  return c ? json(rules::ColorName(*c)) : json(nullptr);
}

// The squares a turn played from `before` touched (shooters placed or moved, stones).
json TurnSquares(const rules::Position& before, const rules::Turn& turn) {
  json squares = json::array();
  for (int i = 0; i < turn.length; ++i) {
    if (turn[i] != before.PassAction()) squares.push_back(turn[i]);
  }
  return squares;
}

json StateJson(const VzGame& g, int ply) {
  const bool current = ply < 0 || ply > g.game.Turns();
  if (current) ply = g.game.Turns();
  const rules::Position& pos = current && g.turn ? g.turn->Current() : g.game.Before(ply);
  json j;
  j["rules"] = rules::RuleSetName(pos.Rules());
  j["size"] = pos.Size();
  j["turns"] = g.game.Turns();
  j["ply"] = ply;
  json moves = json::array();
  for (int i = 0; i < g.game.Turns(); ++i) {
    moves.push_back(rules::TurnToString(g.game.Before(i), g.game.TurnAt(i)));
  }
  j["moves"] = moves;
  j["board"] = rules::BoardRows(pos);
  j["pending"] = rules::DecisionName(pos.Pending());
  j["to_move"] = rules::ColorName(pos.ToMove());
  j["to_move_player"] = pos.ToMovePlayer();
  j["black_player"] = pos.BlackPlayer();
  j["terminal"] = pos.IsTerminal();
  j["winner"] = ColorJson(pos.Winner());
  j["winner_player"] = pos.Winner() ? json(pos.PlayerOf(*pos.Winner())) : json(nullptr);
  j["claims"] = {{"black", pos.ClaimCount(rules::Color::kBlack)},
                 {"white", pos.ClaimCount(rules::Color::kWhite)},
                 {"to_win", pos.ClaimsToWin()}};
  j["status"] = play::StatusLines(pos);
  j["last"] = ply > 0 ? TurnSquares(g.game.Before(ply - 1), g.game.TurnAt(ply - 1)) : json::array();
  if (current && g.turn) {
    const TurnChoices c = g.turn->Choices();
    j["choice"] = {{"decision", rules::DecisionName(c.decision)},
                   {"chosen", c.chosen},
                   {"placing", c.placing},
                   {"targets", c.targets},
                   {"pass", c.pass}};
  }
  return j;
}

}  // namespace
}  // namespace veletas::web

using veletas::web::Out;

extern "C" {

VzGame* vz_game_new(const char* rules, int size) {
  const auto kind = veletas::web::ParseGameKind(rules, size);
  if (!kind) return nullptr;
  auto g = std::make_unique<VzGame>(VzGame{veletas::play::GameState(kind->rules, kind->size), {}});
  veletas::web::NewTurn(*g);
  return g.release();
}

void vz_game_free(VzGame* game) { delete game; }

const char* vz_game_load(VzGame* game, const char* record) {
  auto played =
      veletas::rules::PlayRecord(game->game.Rules(), game->game.Size(), record ? record : "");
  if (!played) return Out(played.error());
  veletas::play::GameState state(game->game.Rules(), game->game.Size());
  for (const veletas::rules::Turn& t : played.value().turns) state.Play(t);
  game->game = std::move(state);
  veletas::web::NewTurn(*game);
  return Out("");
}

const char* vz_game_play(VzGame* game, const char* move) {
  const veletas::rules::Position& pos = game->game.Current();
  if (pos.IsTerminal()) return Out("the game is over");
  auto turn = veletas::rules::ParseTurn(pos, move ? move : "");
  if (!turn) return Out("illegal move \"" + std::string(move ? move : "") + "\": " + turn.error());
  game->game.Play(turn.value());
  veletas::web::NewTurn(*game);
  return Out("");
}

const char* vz_game_choose(VzGame* game, int action) {
  if (!game->turn) return Out("the game is over");
  const auto chosen = game->turn->Choose(action);
  if (!chosen) return Out(chosen.error());
  if (chosen.value()) {
    game->game.Play(game->turn->Turn());
    veletas::web::NewTurn(*game);
  }
  return Out("");
}

void vz_game_reset_turn(VzGame* game) { veletas::web::NewTurn(*game); }

int vz_game_undo(VzGame* game) {
  const bool undone = game->game.Undo();
  veletas::web::NewTurn(*game);
  return undone ? 1 : 0;
}

const char* vz_game_state(VzGame* game, int ply) {
  return veletas::web::OutJson(veletas::web::StateJson(*game, ply));
}

const char* vz_game_moves(VzGame* game) {
  return veletas::web::OutJson(
      nlohmann::json(veletas::rules::SortedMoveNames(game->game.Current())));
}

}  // extern "C"
