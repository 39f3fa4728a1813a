#include "arena/ratings.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "arena/elo.h"
#include "arena/json_util.h"

namespace veletas::arena {

namespace {

using nlohmann::json;

constexpr double kK = 2.302585092994046 / 400.0;  // ln(10) / 400: Elo -> natural logit

// log sigma(z), stable for large |z|.
double LogSigmoid(double z) {
  return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}
double Sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// Games between players i < j: i's wins and j's wins (real games only).
struct Edge {
  int i;
  int j;
  double wi;
  double wj;
};

// The log posterior and its derivatives over the free players (indexed by var[]).
struct Problem {
  std::vector<Edge> edges;
  std::vector<int> var;         // player -> variable index, or -1
  std::vector<double> fixed_r;  // player -> fixed rating (for fixed players)
  double prior = 1.0;
  int n = 0;

  double Rating(const Eigen::VectorXd& x, int p) const {
    return var[p] >= 0 ? x[var[p]] : fixed_r[p];
  }
  double LogPosterior(const Eigen::VectorXd& x) const {
    double f = 0.0;
    for (const Edge& e : edges) {
      if (var[e.i] < 0 && var[e.j] < 0) continue;
      const double d = kK * (Rating(x, e.i) - Rating(x, e.j));
      f += (e.wi + prior / 2) * LogSigmoid(d) + (e.wj + prior / 2) * LogSigmoid(-d);
    }
    return f;
  }
  // Gradient g and negative Hessian h (positive definite on a connected problem).
  void Derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& g, Eigen::MatrixXd& h) const {
    g.setZero(n);
    h.setZero(n, n);
    for (const Edge& e : edges) {
      const int vi = var[e.i];
      const int vj = var[e.j];
      if (vi < 0 && vj < 0) continue;
      const double total = e.wi + e.wj + prior;
      const double s = Sigmoid(kK * (Rating(x, e.i) - Rating(x, e.j)));
      const double gi = kK * (e.wi + prior / 2 - total * s);
      const double w = kK * kK * total * s * (1.0 - s);
      if (vi >= 0) {
        g[vi] += gi;
        h(vi, vi) += w;
      }
      if (vj >= 0) {
        g[vj] -= gi;
        h(vj, vj) += w;
      }
      if (vi >= 0 && vj >= 0) {
        h(vi, vj) -= w;
        h(vj, vi) -= w;
      }
    }
  }
};

}  // namespace

const PlayerRating* Ladder::Find(const std::string& name) const {
  for (const PlayerRating& p : players) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

double Ladder::Covariance(const std::string& a, const std::string& b) const {
  const auto ia = std::find(cov_names.begin(), cov_names.end(), a);
  const auto ib = std::find(cov_names.begin(), cov_names.end(), b);
  if (ia == cov_names.end() || ib == cov_names.end()) return 0.0;
  const size_t n = cov_names.size();
  return cov[static_cast<size_t>(ia - cov_names.begin()) * n +
             static_cast<size_t>(ib - cov_names.begin())];
}

namespace {

// The players (the fixed anchors, then everyone in order of first appearance) and the games
// of each pair (i < j: i's wins, j's wins).
struct Players {
  std::vector<std::string> names;
  std::map<std::string, int> index;
  std::map<std::pair<int, int>, std::pair<double, double>> pair_wins;
  int Add(const std::string& name) {
    auto [it, inserted] = index.emplace(name, static_cast<int>(names.size()));
    if (inserted) names.push_back(name);
    return it->second;
  }
};

// Checks the options and the results and gathers the players and their pairs.
util::Result<Players> GatherPlayers(const std::vector<PairResult>& results,
                                    const LadderOptions& options) {
  using R = util::Result<Players>;
  if (options.fixed.empty()) return R::Error("ratings: at least one fixed anchor is needed");
  if (!(options.prior_games > 0) || !std::isfinite(options.prior_games)) {
    return R::Error("ratings: prior_games must be a positive number");
  }
  Players players;
  for (const auto& [name, elo] : options.fixed) {
    if (name.empty()) return R::Error("ratings: a fixed anchor has an empty name");
    if (!std::isfinite(elo)) return R::Error("ratings: anchor " + name + " has no finite rating");
    players.Add(name);
  }
  for (const PairResult& r : results) {
    if (r.a.empty() || r.b.empty()) return R::Error("ratings: a result has an empty player name");
    if (r.a == r.b) return R::Error("ratings: " + r.a + " is listed as playing itself");
    if (r.a_wins < 0 || r.b_wins < 0) {
      return R::Error("ratings: negative win count in " + r.a + " vs " + r.b);
    }
    int i = players.Add(r.a);
    int j = players.Add(r.b);
    double wi = r.a_wins;
    double wj = r.b_wins;
    if (i > j) {
      std::swap(i, j);
      std::swap(wi, wj);
    }
    auto& w = players.pair_wins[{i, j}];
    w.first += wi;
    w.second += wj;
  }
  return players;
}

// The problem of `players`: each player's wins and losses into `ladder`, the edges, and
// which players are rated (`reached`: connected to a fixed anchor through pairs with games).
Problem BuildProblem(const Players& players, const LadderOptions& options, Ladder& ladder,
                     std::vector<char>& reached) {
  const int np = static_cast<int>(players.names.size());
  std::vector<std::vector<int>> adjacent(np);
  Problem prob;
  prob.prior = options.prior_games;
  for (const auto& [ij, w] : players.pair_wins) {
    const auto [i, j] = ij;
    PlayerRating& pi = ladder.players[i];
    PlayerRating& pj = ladder.players[j];
    pi.wins += static_cast<int>(w.first);
    pi.losses += static_cast<int>(w.second);
    pj.wins += static_cast<int>(w.second);
    pj.losses += static_cast<int>(w.first);
    if (w.first + w.second > 0) {
      adjacent[i].push_back(j);
      adjacent[j].push_back(i);
      prob.edges.push_back({i, j, w.first, w.second});
    }
  }
  reached.assign(np, 0);
  std::vector<int> queue;
  prob.fixed_r.assign(np, 0.0);
  for (const auto& [name, elo] : options.fixed) {
    const int i = players.index.at(name);
    prob.fixed_r[i] = elo;
    reached[i] = 1;
    queue.push_back(i);
  }
  for (size_t q = 0; q < queue.size(); ++q) {
    for (int j : adjacent[queue[q]]) {
      if (!reached[j]) {
        reached[j] = 1;
        queue.push_back(j);
      }
    }
  }
  prob.var.assign(np, -1);
  for (int i = 0; i < np; ++i) {
    if (reached[i] && !options.fixed.count(players.names[i])) prob.var[i] = prob.n++;
  }
  return prob;
}

// Damped Newton from r = 0 (the log posterior is strictly concave on the connected,
// anchored problem, so this converges to the unique maximum) into `x`; the iterations it
// took into `iterations`.
util::Status Maximise(const Problem& prob, const LadderOptions& options, Eigen::VectorXd& x,
                      int& iterations) {
  x = Eigen::VectorXd::Zero(prob.n);
  Eigen::VectorXd g;
  Eigen::MatrixXd h;
  bool converged = prob.n == 0;
  int it = 0;
  while (!converged && it < options.max_iterations) {
    ++it;
    prob.Derivatives(x, g, h);
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(h);
    if (ldlt.info() != Eigen::Success) return util::Status::Error("ratings: singular Hessian");
    const Eigen::VectorXd step = ldlt.solve(g);
    const double size = step.cwiseAbs().maxCoeff();
    double t = 1.0;
    // Backtrack (Armijo) on large steps only: near the optimum the full Newton step is
    // right and the change of the log posterior is below rounding.
    if (size > 1.0) {
      const double f0 = prob.LogPosterior(x);
      const double slope = g.dot(step);
      while (prob.LogPosterior(x + t * step) < f0 + 1e-4 * t * slope && t > 1e-6) t *= 0.5;
    }
    x += t * step;
    converged = size < options.tolerance;
  }
  if (!converged) {
    return util::Status::Error("ratings: Newton's method did not converge in " +
                               std::to_string(options.max_iterations) + " iterations");
  }
  iterations = it;
  return util::Ok();
}

// The players' ratings at the maximum `x` with their covariance (the inverse of the negative
// Hessian there), best first, the unrated last by name.
void FillRatings(const Players& players, const std::vector<char>& reached, const Problem& prob,
                 const Eigen::VectorXd& x, Ladder& ladder) {
  Eigen::VectorXd g;
  Eigen::MatrixXd h;
  Eigen::MatrixXd cov;
  if (prob.n > 0) {
    prob.Derivatives(x, g, h);
    cov = Eigen::LDLT<Eigen::MatrixXd>(h).solve(Eigen::MatrixXd::Identity(prob.n, prob.n));
  }
  ladder.cov_names.resize(prob.n);
  ladder.cov.resize(static_cast<size_t>(prob.n) * prob.n);
  for (size_t i = 0; i < players.names.size(); ++i) {
    PlayerRating& p = ladder.players[i];
    p.name = players.names[i];
    p.games = p.wins + p.losses;
    p.score = p.games > 0 ? static_cast<double>(p.wins) / p.games : 0.0;
    p.rated = reached[i] != 0;
    p.fixed = ladder.options.fixed.count(players.names[i]) > 0;
    if (!p.rated) continue;
    const int v = prob.var[i];
    p.elo = prob.Rating(x, static_cast<int>(i));
    if (v >= 0) {
      ladder.cov_names[v] = players.names[i];
      p.stderr_elo = std::sqrt(std::max(0.0, cov(v, v)));
    }
    p.ci_low = p.elo - kZ95TwoSided * p.stderr_elo;
    p.ci_high = p.elo + kZ95TwoSided * p.stderr_elo;
  }
  for (int a = 0; a < prob.n; ++a) {
    for (int b = 0; b < prob.n; ++b) ladder.cov[static_cast<size_t>(a) * prob.n + b] = cov(a, b);
  }
  std::stable_sort(ladder.players.begin(), ladder.players.end(),
                   [](const PlayerRating& a, const PlayerRating& b) {
                     if (a.rated != b.rated) return a.rated;
                     if (a.rated) return a.elo > b.elo;
                     return a.name < b.name;
                   });
}

}  // namespace

util::Result<Ladder> ComputeLadder(const std::vector<PairResult>& results,
                                   const LadderOptions& options) {
  auto players = GatherPlayers(results, options);
  if (!players) return players.error_value();
  Ladder ladder;
  ladder.options = options;
  ladder.players.resize(players.value().names.size());
  std::vector<char> reached;
  const Problem prob = BuildProblem(players.value(), options, ladder, reached);
  Eigen::VectorXd x;
  if (util::Status s = Maximise(prob, options, x, ladder.iterations); !s.ok()) {
    return s.error_value();
  }
  FillRatings(players.value(), reached, prob, x, ladder);
  return ladder;
}

json LadderToJson(const Ladder& ladder) {
  json players = json::array();
  for (const PlayerRating& p : ladder.players) {
    json j = {
        {"name", p.name}, {"rated", p.rated},   {"fixed", p.fixed},          {"games", p.games},
        {"wins", p.wins}, {"losses", p.losses}, {"score", Round(p.score, 4)}};
    if (p.rated) {
      j["elo"] = Round(p.elo, 2);
      j["ci95"] = {Round(p.ci_low, 2), Round(p.ci_high, 2)};
      j["stderr"] = Round(p.stderr_elo, 2);
    } else {
      j["elo"] = nullptr;
      j["ci95"] = nullptr;
      j["stderr"] = nullptr;
    }
    players.push_back(std::move(j));
  }
  json fixed = json::object();
  for (const auto& [name, elo] : ladder.options.fixed) fixed[name] = elo;
  return {{"format", "veletas-ratings"},
          {"version", 1},
          {"model", "bradley-terry, logistic elo (400 log10), MAP with virtual games"},
          {"prior_games", ladder.options.prior_games},
          {"fixed", fixed},
          {"iterations", ladder.iterations},
          {"players", players}};
}

}  // namespace veletas::arena
