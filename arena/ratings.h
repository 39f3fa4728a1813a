// The rating ladder: maximum-a-posteriori Bradley-Terry (logistic Elo) ratings of every
// player (network generations, search baselines, the uniform random player) from all the
// games played between any of them, with 95% confidence intervals.
//
// Model: P(i beats j) = 1 / (1 + 10^(-(r_i - r_j) / 400)). One or more anchors have fixed
// ratings (by default `random` at 0); every other player's rating is free.
//
// Regularisation (a weak prior, so that a player who won or lost all its games still gets
// a finite rating): every pair of players that met gets `prior_games` extra virtual games
// split evenly (prior_games / 2 virtual wins each way), as in BayesElo's virtual draws. It
// pulls each pairwise difference gently towards 0 and vanishes as real games accumulate;
// for two players the estimate is exactly 400 log10((w + c/2) / (l + c/2)) with c =
// prior_games. It is translation invariant, so it does not pull ratings towards the anchor.
//
// Solver: Newton's method with a backtracking line search on the (strictly concave) log
// posterior over the free players that are connected to an anchor, using Eigen's LDLT.
// Intervals: r_i +- 1.95996 sqrt(C_ii), C = inverse of the negative Hessian of the log
// posterior at the optimum (the Laplace approximation), i.e. relative to the fixed anchors.
// Players with no chain of games to any fixed anchor are reported unrated (no number).
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "util/result.h"

namespace veletas::arena {

// Games between two players: a won a_wins, b won b_wins. Several results for the same pair
// (in either order) add up.
struct PairResult {
  std::string a;
  std::string b;
  int a_wins = 0;
  int b_wins = 0;
};

struct LadderOptions {
  // Anchors with fixed ratings (name -> Elo). Must not be empty. An anchor need not have
  // played; it is listed with its fixed rating either way.
  std::map<std::string, double> fixed = {{"random", 0.0}};
  double prior_games = 1.0;  // virtual games per pair that met; > 0
  int max_iterations = 100;
  double tolerance = 1e-6;  // Elo: stop when the largest Newton step is smaller
};

struct PlayerRating {
  std::string name;
  bool rated = false;  // false: no path of games to a fixed anchor; elo and CI are 0
  bool fixed = false;  // a fixed anchor (stderr 0, ci_low = ci_high = elo)
  double elo = 0.0;
  double stderr_elo = 0.0;  // sqrt(C_ii)
  double ci_low = 0.0;      // elo -+ 1.95996 stderr
  double ci_high = 0.0;
  int games = 0;
  int wins = 0;
  int losses = 0;
  double score = 0.0;  // wins / games (0 when no games)
};

struct Ladder {
  // Rated players by Elo (highest first), then unrated players by name.
  std::vector<PlayerRating> players;
  int iterations = 0;  // Newton iterations used
  LadderOptions options;

  // The player called `name`, or nullptr.
  const PlayerRating* Find(const std::string& name) const;
  // Covariance (Elo^2) of two players' ratings; 0 when either is fixed or unrated.
  double Covariance(const std::string& a, const std::string& b) const;

  // Covariance of the free rated players, row-major over cov_names (filled by ComputeLadder).
  std::vector<std::string> cov_names;
  std::vector<double> cov;
};

// Computes the ladder. Errors (as values): an empty name, a player against itself,
// negative wins, no fixed anchor, prior_games not > 0, no convergence.
// Thread-safe (no shared state).
util::Result<Ladder> ComputeLadder(const std::vector<PairResult>& results,
                                   const LadderOptions& options = {});

// The ladder as JSON (format in docs/RATINGS.md: "format": "veletas-ratings").
nlohmann::json LadderToJson(const Ladder& ladder);

}  // namespace veletas::arena
