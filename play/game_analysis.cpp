#include "play/game_analysis.h"

#include <sstream>

namespace veletas::play {

std::string MarkFor(float drop, const AnalysisOptions& options) {
  if (drop > options.blunder_drop) return "??";
  if (drop > options.mistake_drop) return "?";
  return "";
}

std::vector<MoveAnalysis> AnalyseGame(const rules::Game& game, TurnSearcher& searcher,
                                      const AnalysisOptions& options,
                                      const std::function<void(const MoveAnalysis&)>& on_move) {
  const int n = static_cast<int>(game.turns.size());
  auto position = [&](int i) -> const rules::Position& {
    return i < n ? game.before[i] : game.final;
  };
  std::vector<MoveAnalysis> out;
  searcher.NewGame();
  TurnAnalysis current;
  if (options.first_move < n)
    current = searcher.Search(position(options.first_move), options.budget, 1);
  for (int i = options.first_move; i < n; ++i) {
    const rules::Position& before = position(i);
    const rules::Position& next = position(i + 1);
    MoveAnalysis m;
    m.index = i;
    m.player = before.ToMovePlayer();
    m.color = before.ToMove();
    m.move = rules::TurnToString(before, game.turns[i]);
    m.before = current.best.win_rate;
    m.best_move = rules::TurnToString(before, current.best.turn);
    m.best_win_rate = current.best.win_rate;
    std::istringstream pv(PvToString(before, current.best.pv));
    for (std::string t; pv >> t;) m.best_pv.push_back(t);
    if (next.IsTerminal()) {
      m.after_exact = true;
      m.after = next.Winner() == before.ToMove() ? 1.0f : 0.0f;
    } else {
      current = searcher.Search(next, options.budget, 1);
      const bool same_player = next.ToMovePlayer() == m.player;
      m.after = same_player ? current.best.win_rate : 1.0f - current.best.win_rate;
    }
    m.drop = m.before - m.after;
    m.mark = MarkFor(m.drop, options);
    if (on_move) on_move(m);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace veletas::play
