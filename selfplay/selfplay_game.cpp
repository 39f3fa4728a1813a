#include "selfplay/selfplay_game.h"

#include <algorithm>
#include <cmath>

#include "rules/notation.h"
#include "util/random.h"

namespace veletas::selfplay {
uint64_t GameSeed(uint64_t seed, uint64_t generation, uint64_t index) {
  return util::SplitMix64(util::SplitMix64(util::SplitMix64(seed) ^ generation) ^ index);
}

bool ResignTracker::Observe(int person, float value) {
  std::vector<float>& recent = recent_[person];
  if (static_cast<int>(recent.size()) == consecutive_) recent.erase(recent.begin());
  recent.push_back(value);
  if (static_cast<int>(recent.size()) == consecutive_) {
    level_[person] = std::min(level_[person], *std::max_element(recent.begin(), recent.end()));
  }
  low_[person] = value < threshold_ ? low_[person] + 1 : 0;
  if (low_[person] >= consecutive_) {
    fired_[person] = true;
    return true;
  }
  return false;
}

void SelfplayGame::Start(rules::RuleSet rules, int size, uint64_t index, uint64_t seed) {
  pos_ = rules::Position::Initial(rules, size);
  index_ = index;
  rng_.Seed(seed);
  // With resignation off every game plays to the end, so every game measures the rule: the
  // pipeline's calibration then sees all of a generation's games, not just a tenth of them.
  const bool sampled = rng_.Uniform() < config_.no_resign_fraction;
  no_resign_ = sampled || ResignationOff(config_.resign_threshold);
  resigned_ = false;
  resign_ = ResignTracker(config_.resign_threshold, config_.resign_consecutive);
  samples_.clear();
  shooter_id_.fill(-1);
  next_shooter_id_ = 0;
  record_.clear();
  turn_start_ = pos_;
  turn_ = rules::Turn{};
  full_ = cheap_ = forced_ = 0;
}

Budget SelfplayGame::DrawBudget() {
  // Always draw, so that the random stream does not depend on the settings.
  const double u = rng_.Uniform();
  Budget b;
  if (IsSetupDecision(pos_.Pending())) {
    b.record = u < config_.setup_record_probability;
    b.full = b.record || config_.setup_full_search;
  } else {
    b.full = b.record = u < config_.full_search_probability;
  }
  return b;
}

void SelfplayGame::RecordSample(const search::SearchResult& r, rules::Action played) {
  PendingSample ps;
  data::Sample& s = ps.sample;
  s.position = pos_;
  double sum = 0;
  for (const search::ChildInfo& c : r.children) {
    if (c.policy > 0) sum += c.policy;
  }
  for (const search::ChildInfo& c : r.children) {
    if (c.policy > 0) {
      s.policy.push_back({static_cast<uint8_t>(c.action), static_cast<float>(c.policy / sum)});
    }
  }
  std::sort(
      s.policy.begin(), s.policy.end(),
      [](const data::PolicyEntry& a, const data::PolicyEntry& b) { return a.action < b.action; });
  // The action whose value the sample records, named as chosen by its summary (r.value is
  // ActionValue(r, r.action)).
  const rules::Action valued =
      config_.setup_value_of_played && IsSetupDecision(pos_.Pending()) ? played : r.action;
  s.root_value = std::clamp(search::ActionValue(r, valued), -1.0f, 1.0f);
  ps.summary = SummarizeRoot(r);
  ps.summary.chosen = static_cast<uint8_t>(valued);
  for (int sq : pos_.AllShooters()) {
    s.aux.push_back({static_cast<uint8_t>(sq), data::Owner::kNobody});
    ps.shooter_ids.push_back(shooter_id_[sq]);
  }
  samples_.push_back(std::move(ps));
}

rules::Action SelfplayGame::ChooseAction(const search::SearchResult& r) {
  if (!IsSetupDecision(pos_.Pending()) || config_.setup_temperature <= 0) return r.action;
  // policy^(1/T), relative to the largest to stay finite.
  float most = 0;
  for (const search::ChildInfo& c : r.children) most = std::max(most, c.policy);
  if (most <= 0) return r.action;
  std::vector<double> weight(r.children.size());
  double sum = 0;
  for (size_t i = 0; i < r.children.size(); ++i) {
    const float p = r.children[i].policy;
    weight[i] = p <= 0 ? 0.0 : std::exp(std::log(p / most) / config_.setup_temperature);
    sum += weight[i];
  }
  double x = rng_.Uniform() * sum;
  for (size_t i = 0; i < r.children.size(); ++i) {
    if (weight[i] <= 0) continue;
    x -= weight[i];
    if (x < 0) return r.children[i].action;
  }
  for (size_t i = r.children.size(); i-- > 0;) {
    if (weight[i] > 0) return r.children[i].action;
  }
  return r.action;
}

bool SelfplayGame::CheckResign(float value) {
  if (pos_.Pending() != rules::Decision::kChooseShooter) return false;
  if (!resign_.Observe(pos_.ToMovePlayer(), value)) return false;
  if (no_resign_) return false;
  resigned_ = true;
  return true;
}

void SelfplayGame::Apply(rules::Action a, bool forced) {
  if (forced) ++forced_;
  switch (pos_.Pending()) {
    case rules::Decision::kSetupShooter:
      shooter_id_[a] = static_cast<int8_t>(next_shooter_id_++);
      break;
    case rules::Decision::kPie:
      if (a != pos_.PassAction()) shooter_id_[a] = static_cast<int8_t>(next_shooter_id_++);
      break;
    case rules::Decision::kDestination:
      shooter_id_[a] = shooter_id_[pos_.ChosenShooter()];
      shooter_id_[pos_.ChosenShooter()] = -1;
      break;
    default:
      break;
  }
  turn_.Push(a);
  pos_.Apply(a);
  if (pos_.TurnsPlayed() != turn_start_.TurnsPlayed() || pos_.IsTerminal()) {
    if (!record_.empty()) record_ += ' ';
    record_ += rules::TurnToString(turn_start_, turn_);
    turn_start_ = pos_;
    turn_ = rules::Turn{};
  }
}

FinishedGame SelfplayGame::Finish() {
  FinishedGame g;
  g.index = index_;
  g.turns = pos_.TurnsPlayed();
  g.resigned = resigned_;
  g.no_resign = no_resign_;
  // A resignation happens at a turn start of the player to move, who loses.
  g.winner_color = resigned_ ? rules::Opponent(pos_.ToMove()) : *pos_.Winner();
  g.winner_person = pos_.PlayerOf(g.winner_color);
  g.swapped = pos_.BlackPlayer() == 1;
  if (no_resign_) {
    g.would_resign = {resign_.Fired(0), resign_.Fired(1)};
    g.resign_level = {resign_.Level(0), resign_.Level(1)};
  }
  g.full_decisions = full_;
  g.cheap_decisions = cheap_;
  g.forced_decisions = forced_;

  // Where each shooter identity stands at the end, and who holds its claim.
  std::array<int, rules::kMaxSquares> final_owner{};  // by identity: person, or -1
  final_owner.fill(-1);
  for (int sq : pos_.AllShooters()) {
    const int id = shooter_id_[sq];
    if (id < 0) continue;
    if (pos_.Claimed(rules::Color::kBlack).Test(sq))
      final_owner[id] = pos_.PlayerOf(rules::Color::kBlack);
    if (pos_.Claimed(rules::Color::kWhite).Test(sq))
      final_owner[id] = pos_.PlayerOf(rules::Color::kWhite);
  }
  g.samples.reserve(samples_.size());
  g.summaries.reserve(samples_.size());
  for (PendingSample& ps : samples_) {
    g.summaries.push_back(std::move(ps.summary));
    data::Sample& s = ps.sample;
    const int person = s.position.ToMovePlayer();
    s.outcome = person == g.winner_person ? 1.0f : -1.0f;
    for (size_t i = 0; i < s.aux.size(); ++i) {
      const int id = ps.shooter_ids[i];
      const int owner = id < 0 ? -1 : final_owner[id];
      s.aux[i].owner = owner < 0         ? data::Owner::kNobody
                       : owner == person ? data::Owner::kToMove
                                         : data::Owner::kOpponent;
    }
    g.samples.push_back(std::move(s));
  }
  samples_.clear();
  g.record.record = std::move(record_);
  g.record.winner = static_cast<int8_t>(g.winner_color);
  g.record.resigned = resigned_;
  g.record.samples = static_cast<uint32_t>(g.samples.size());
  return g;
}

}  // namespace veletas::selfplay
