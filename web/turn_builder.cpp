#include "web/turn_builder.h"

#include <algorithm>

#include "rules/notation.h"

namespace veletas::web {
namespace {

// The order in which the rules place the shooters of a setup turn (notation order).
bool PlacedBefore(int size, int a, int b) { return rules::GeometryFor(size).later[a].Test(b); }

void SortForPlacement(int size, std::vector<int>& squares) {
  std::sort(squares.begin(), squares.end(),
            [size](int a, int b) { return PlacedBefore(size, a, b); });
}

bool Contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

util::Result<bool> Refused(std::string why) { return util::Result<bool>::Error(std::move(why)); }

}  // namespace

TurnBuilder::TurnBuilder(const rules::Position& start) : start_(start), current_(start) {}

int TurnBuilder::SetupShare() const {
  const rules::SizeRules sr = rules::RulesForSize(start_.Size());
  return start_.ToMove() == rules::Color::kBlack ? sr.black_setup : sr.shooters - sr.black_setup;
}

bool TurnBuilder::SetupShooterPhase() const {
  const rules::Decision d = start_.Pending();
  return (d == rules::Decision::kSetupShooter || d == rules::Decision::kPie) && !setup_done_;
}

namespace {

// Places `req[idx..]` (sorted in notation order) from `pos`, with up to `extras` other
// shooters before them; `budget` bounds the search (squares no setup can hold would
// otherwise be tried against every combination of extras).
bool PlaceWithExtras(const rules::Position& pos, const std::vector<int>& req, size_t idx,
                     int extras, int& budget) {
  if (idx == req.size()) return true;  // the rules keep room for the rest after the last one
  if (--budget < 0) return false;
  const int n = pos.Size();
  const int r = req[idx];
  if (pos.IsLegal(r)) {
    rules::Position p = pos;
    p.Apply(r);
    if (PlaceWithExtras(p, req, idx + 1, extras, budget)) return true;
  }
  if (extras == 0) return false;
  std::vector<int> squares;
  for (int y : pos.LegalActions().squares) {
    if (PlacedBefore(n, y, r) && !Contains(req, y)) squares.push_back(y);
  }
  SortForPlacement(n, squares);
  for (int y : squares) {
    rules::Position p = pos;
    p.Apply(y);
    if (PlaceWithExtras(p, req, idx, extras - 1, budget)) return true;
  }
  return false;
}

}  // namespace

bool TurnBuilder::Extendable(const std::vector<int>& squares) const {
  const int n = start_.Size();
  std::vector<int> req = squares;
  SortForPlacement(n, req);
  if (std::adjacent_find(req.begin(), req.end()) != req.end()) return false;
  const int extras = SetupShare() - static_cast<int>(req.size());
  int budget = 400;
  return extras >= 0 && PlaceWithExtras(start_, req, 0, extras, budget);
}

void TurnBuilder::Rebuild() {
  const int n = start_.Size();
  rules::Position pos = start_;
  rules::Turn turn;
  if (!SetupShooterPhase() || !play_.empty()) {
    // A complete set of setup shooters (or none, after a swap): its notation order is a
    // legal placement path.
    std::vector<int> sorted = setup_;
    SortForPlacement(n, sorted);
    for (int sq : sorted) {
      pos.Apply(sq);
      turn.Push(sq);
    }
    for (rules::Action a : play_) {
      pos.Apply(a);
      turn.Push(a);
    }
  }
  current_ = pos;
  turn_ = turn;
  complete_ = pos.IsTerminal() || pos.TurnsPlayed() != start_.TurnsPlayed();
}

util::Result<bool> TurnBuilder::Choose(rules::Action action) {
  const int n = start_.Size();
  if (complete_) return Refused("the turn is already complete");
  if (action < 0 || action > n * n) return Refused("no such square");
  if (SetupShooterPhase()) {
    if (action == n * n) {
      if (!setup_.empty() || !current_.IsLegal(action)) return Refused("swap is not possible now");
      play_.push_back(action);
      Rebuild();
      return complete_;
    }
    if (Contains(setup_, action)) {
      setup_.erase(std::find(setup_.begin(), setup_.end(), action));
      Rebuild();
      return complete_;
    }
    std::vector<int> more = setup_;
    more.push_back(action);
    if (!Extendable(more)) {
      return Refused(rules::SquareName(n, action) + " cannot take a setup shooter" +
                     (setup_.empty() ? "" : " with those already chosen"));
    }
    setup_ = std::move(more);
    if (static_cast<int>(setup_.size()) == SetupShare()) setup_done_ = true;
    Rebuild();
    return complete_;
  }
  // A setup shooter clicked again while the stone is due, or the shooter chosen to move
  // clicked again, is taken back.
  if (setup_done_ && play_.empty() && Contains(setup_, action)) {
    setup_.erase(std::find(setup_.begin(), setup_.end(), action));
    setup_done_ = false;
    Rebuild();
    return complete_;
  }
  if (current_.Pending() == rules::Decision::kDestination && !play_.empty() &&
      play_.back() == action) {
    play_.pop_back();
    Rebuild();
    return complete_;
  }
  if (!current_.IsLegal(action)) {
    if (action == n * n) return Refused("no pass-like choice now");
    return Refused(rules::SquareName(n, action) + " is not a legal choice (" +
                   rules::DecisionName(current_.Pending()) + ")");
  }
  play_.push_back(action);
  Rebuild();
  return complete_;
}

TurnChoices TurnBuilder::Choices() const {
  TurnChoices c;
  const int n = start_.Size();
  c.chosen = setup_;
  if (current_.Pending() == rules::Decision::kDestination ||
      current_.Pending() == rules::Decision::kShot) {
    for (rules::Action a : play_) {
      if (a < n * n) c.chosen.push_back(a);
    }
  }
  if (complete_) return c;
  if (SetupShooterPhase()) {
    c.decision = start_.Pending() == rules::Decision::kPie && setup_.empty()
                     ? rules::Decision::kPie
                     : rules::Decision::kSetupShooter;
    c.pass = setup_.empty() && start_.IsLegal(n * n);
    c.placing = setup_;
    std::vector<int> more = setup_;
    more.push_back(0);
    for (int sq = 0; sq < n * n; ++sq) {
      if (Contains(setup_, sq)) continue;
      more.back() = sq;
      if (Extendable(more)) c.targets.push_back(sq);
    }
    return c;
  }
  c.decision = current_.Pending();
  const rules::ActionSet legal = current_.LegalActions();
  for (int sq : legal.squares) c.targets.push_back(sq);
  c.pass = legal.pass;
  return c;
}

}  // namespace veletas::web
