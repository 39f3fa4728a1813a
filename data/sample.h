// One training sample: a position at a sub-decision point, the search's policy target,
// the game's outcome and the auxiliary shooter-ownership targets. Produced by self-play,
// consumed by training.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.h"

namespace veletas::data {

// Probability of one legal action in the policy target.
struct PolicyEntry {
  uint8_t action = 0;
  float prob = 0.0f;
};

// Final owner of the shooter standing on `square`, relative to the player to move (the
// person, Position::ToMovePlayer(), who may hold the other colour at the end of the game if
// the pie rule's swap comes later): kToMove = claimed by the colour that player holds when
// the game ends.
enum class Owner : uint8_t { kToMove = 0, kOpponent = 1, kNobody = 2 };
struct AuxTarget {
  uint8_t square = 0;
  Owner owner = Owner::kNobody;
};

struct Sample {
  rules::Position position;
  // Distribution over legal actions of the pending sub-decision (entries with prob 0 may
  // be omitted); sums to 1.
  std::vector<PolicyEntry> policy;
  // Final result for the player to move (the person, Position::ToMovePlayer()): +1 won,
  // -1 lost. Note: before and at the pie decision this is not the colour to move's result.
  float outcome = 0.0f;
  // The search's value estimate at the root, for the player to move, in [-1, 1].
  float root_value = 0.0f;
  // One entry per shooter on the board (unclaimed or claimed) at this position.
  std::vector<AuxTarget> aux;
};

// The identity of one game: 16 bytes, unique per game (cluster games get random ones, so a
// game sent twice is recognised); all zero = none (games of a local run).
struct GameId {
  std::array<uint8_t, 16> bytes{};

  bool IsNone() const { return bytes == std::array<uint8_t, 16>{}; }
  // 32 lower-case hex digits.
  std::string Hex() const;
  // The id of 32 hex digits (either case), or nullopt.
  static std::optional<GameId> FromHex(std::string_view hex);
  auto operator<=>(const GameId&) const = default;
};

// One finished game, for records and bookkeeping.
struct GameRecord {
  std::string record;     // moves in notation, separated by spaces
  int8_t winner = -1;     // rules::Color of the winner; -1 if unfinished (never in files)
  bool resigned = false;  // ended by resignation (record stops before the end)
  uint32_t samples = 0;   // samples this game contributed
  GameId id;              // none for games of a local run
};

}  // namespace veletas::data
