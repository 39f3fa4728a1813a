#include "model/base/features.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "rules/symmetry.h"
#include "rules/turns.h"
#include "util/random.h"

namespace veletas::model {
namespace {

struct PlaneInfo {
  const char* name;
  const char* meaning;
};

constexpr PlaneInfo kPlaneInfo[kNumPlanes] = {
    {"own_stones", "stones of the colour to move"},
    {"opp_stones", "stones of the other colour"},
    {"unclaimed_shooters", "unclaimed shooters"},
    {"own_claimed", "shooters claimed by the colour to move"},
    {"opp_claimed", "shooters claimed by the other colour"},
    {"active_shooter",
     "the shooter chosen earlier in this turn (at destination: the chosen shooter; at shot "
     "after a move: where it moved to)"},
    {"moved_from", "at shot after a move: the square the shooter left"},
    {"decision_setup_shooter", "constant 1 when the pending decision is setup_shooter"},
    {"decision_setup_stone", "constant 1 when the pending decision is setup_stone"},
    {"decision_pie", "constant 1 when the pending decision is pie (pass slot = swap)"},
    {"decision_choose_shooter",
     "constant 1 when the pending decision is choose_shooter (pass slot = no move)"},
    {"decision_destination", "constant 1 when the pending decision is destination"},
    {"decision_shot", "constant 1 when the pending decision is shot"},
    {"own_claims_needed", "constant (claims to win - own claims) / claims to win"},
    {"opp_claims_needed", "constant (claims to win - opponent claims) / claims to win"},
    {"classic_rules", "constant 1 under the classic rule set, 0 under standard"},
    {"white_to_move", "constant 1 when the colour to move is White"},
    {"legal_squares", "squares that are legal actions of the pending decision"},
    {"setup_shooters_left", "constant (shooters not yet placed) / shooters of this size"},
    {"board_mask", "1 on every square of the board, 0 on padding"},
};

void SetSquares(float* plane, rules::Bitboard squares, int size, int canvas) {
  for (int sq : squares) plane[(sq / size) * canvas + sq % size] = 1.0f;
}

void SetSquare(float* plane, int sq, int size, int canvas) {
  if (sq >= 0) plane[(sq / size) * canvas + sq % size] = 1.0f;
}

void Fill(float* plane, float value, int size, int canvas) {
  if (value == 0.0f) return;
  for (int r = 0; r < size; ++r) std::fill_n(plane + r * canvas, size, value);
}

int DecisionPlane(rules::Decision d) {
  switch (d) {
    case rules::Decision::kSetupShooter:
      return kPlaneDecisionSetupShooter;
    case rules::Decision::kSetupStone:
      return kPlaneDecisionSetupStone;
    case rules::Decision::kPie:
      return kPlaneDecisionPie;
    case rules::Decision::kChooseShooter:
      return kPlaneDecisionChooseShooter;
    case rules::Decision::kDestination:
      return kPlaneDecisionDestination;
    case rules::Decision::kShot:
      return kPlaneDecisionShot;
    case rules::Decision::kGameOver:
      break;
  }
  return -1;
}

}  // namespace

const char* PlaneName(int p) { return kPlaneInfo[p].name; }
const char* PlaneMeaning(int p) { return kPlaneInfo[p].meaning; }

void EncodePosition(const rules::Position& pos, const rules::ActionSet& legal, int canvas,
                    float* out) {
  const int n = pos.Size();
  assert(n <= canvas && canvas <= rules::kMaxSize);
  const int area = canvas * canvas;
  std::fill_n(out, PlanesSize(canvas), 0.0f);
  auto plane = [&](int p) { return out + p * area; };
  const rules::Color own = pos.ToMove();
  const rules::Color opp = rules::Opponent(own);

  SetSquares(plane(kPlaneOwnStones), pos.Stones(own), n, canvas);
  SetSquares(plane(kPlaneOppStones), pos.Stones(opp), n, canvas);
  SetSquares(plane(kPlaneUnclaimed), pos.UnclaimedShooters(), n, canvas);
  SetSquares(plane(kPlaneOwnClaimed), pos.Claimed(own), n, canvas);
  SetSquares(plane(kPlaneOppClaimed), pos.Claimed(opp), n, canvas);

  const rules::Decision d = pos.Pending();
  if (d == rules::Decision::kDestination) {
    SetSquare(plane(kPlaneActiveShooter), pos.ChosenShooter(), n, canvas);
  } else if (d == rules::Decision::kShot) {
    SetSquare(plane(kPlaneActiveShooter), pos.MovedTo(), n, canvas);
    SetSquare(plane(kPlaneMovedFrom), pos.MovedFrom(), n, canvas);
  }
  const int dp = DecisionPlane(d);
  if (dp >= 0) Fill(plane(dp), 1.0f, n, canvas);

  const int to_win = pos.ClaimsToWin();
  Fill(plane(kPlaneOwnClaimsNeeded), static_cast<float>(to_win - pos.ClaimCount(own)) / to_win, n,
       canvas);
  Fill(plane(kPlaneOppClaimsNeeded), static_cast<float>(to_win - pos.ClaimCount(opp)) / to_win, n,
       canvas);
  Fill(plane(kPlaneClassic), pos.Rules() == rules::RuleSet::kClassic ? 1.0f : 0.0f, n, canvas);
  Fill(plane(kPlaneWhiteToMove), own == rules::Color::kWhite ? 1.0f : 0.0f, n, canvas);
  SetSquares(plane(kPlaneLegal), legal.squares, n, canvas);
  const int shooters = rules::RulesForSize(n).shooters;
  Fill(plane(kPlaneSetupLeft), static_cast<float>(shooters - pos.AllShooters().Count()) / shooters,
       n, canvas);
  Fill(plane(kPlaneMask), 1.0f, n, canvas);
}

void EncodePosition(const rules::Position& pos, int canvas, float* out) {
  EncodePosition(pos, pos.LegalActions(), canvas, out);
}

void EncodeBatch(std::span<const rules::Position> positions, int canvas, EncodedBatch& out) {
  if (canvas == 0) {
    for (const rules::Position& p : positions) canvas = std::max(canvas, p.Size());
    if (canvas == 0) canvas = rules::kMaxSize;
  }
  const int batch = static_cast<int>(positions.size());
  const int actions = CanvasActions(canvas);
  out.batch = batch;
  out.canvas = canvas;
  out.planes.resize(static_cast<size_t>(batch) * PlanesSize(canvas));
  out.legal.resize(static_cast<size_t>(batch) * actions);  // EncodeLegal writes every row
  for (int i = 0; i < batch; ++i) {
    const rules::Position& p = positions[i];
    const rules::ActionSet legal = p.LegalActions();
    EncodePosition(p, legal, canvas,
                   out.planes.data() + static_cast<size_t>(i) * PlanesSize(canvas));
    EncodeLegal(p.Size(), legal, canvas, out.legal.data() + static_cast<size_t>(i) * actions);
  }
}

void EncodeLegal(int size, const rules::ActionSet& legal, int canvas, uint8_t* row) {
  std::fill_n(row, CanvasActions(canvas), uint8_t{0});
  for (int sq : legal.squares) row[CanvasAction(size, canvas, sq)] = 1;
  if (legal.pass) row[canvas * canvas] = 1;
}

void DecodeOutput(const EncodedBatch& batch, int i, int size, const float* logits, float value,
                  search::EvalOutput& out) {
  const int m = batch.canvas;
  const uint8_t* legal = batch.legal.data() + static_cast<size_t>(i) * CanvasActions(m);
  out.policy.fill(0.0f);
  float max_logit = -INFINITY;
  for (int a = 0; a <= size * size; ++a) {
    const int c = CanvasAction(size, m, a);
    if (legal[c]) max_logit = std::max(max_logit, logits[c]);
  }
  double sum = 0.0;
  for (int a = 0; a <= size * size; ++a) {
    const int c = CanvasAction(size, m, a);
    if (!legal[c]) continue;
    const float p = std::exp(logits[c] - max_logit);
    out.policy[a] = p;
    sum += p;
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (int a = 0; a <= size * size; ++a) out.policy[a] *= inv;
  out.value = value;
}

std::vector<rules::Position> SamplePositions(rules::RuleSet rules, int size, int count,
                                             uint64_t seed) {
  std::vector<rules::Position> result;
  result.reserve(count);
  util::Rng rng(seed);
  while (static_cast<int>(result.size()) < count) {
    rules::Position p = rules::Position::Initial(rules, size);
    while (!p.IsTerminal() && static_cast<int>(result.size()) < count) {
      const rules::Turn turn = rules::RandomTurn(p, rng);
      for (int i = 0; i < turn.length && static_cast<int>(result.size()) < count; ++i) {
        result.push_back(p);
        p.Apply(turn[i]);
      }
    }
  }
  return result;
}

std::vector<float> TransformPlanes(std::span<const float> planes, int size, int sym) {
  const int area = size * size;
  assert(planes.size() == static_cast<size_t>(kNumPlanes * area));
  std::vector<float> result(planes.size());
  for (int sq = 0; sq < area; ++sq) {
    const int to = rules::TransformSquare(size, sym, sq);
    for (int p = 0; p < kNumPlanes; ++p) result[p * area + to] = planes[p * area + sq];
  }
  return result;
}

}  // namespace veletas::model
