// Player specs of the arena: the text that says who plays, as given to `veletas match --a
// SPEC` and stored in match records (`players.a.spec`):
//   random        uniformly random over full turns
//   uct:N         UCT with random playouts, N playouts per full turn, one tree on one thread,
//                 with the board size's exploration constant (search::TunedUctC)
//   uct:N:C       the same with exploration constant C (for tuning it)
//   mcts:CKPT:N   neural MCTS with the network of checkpoint CKPT, N simulations per
//                 sub-decision (CKPT may itself contain ':'; N follows the last one)
//   mcts:CKPT:N:P the same with inference precision P (auto, fp32, bf16, int8, torch; the
//                 config's model.inference_precision when absent), e.g. to match int8
//                 against fp32 of the same network
// A time budget in place of N: `Tms` (e.g. uct:100ms, uct:100ms:C, mcts:CKPT:100ms[:P]) gives
// the player T milliseconds of wall-clock time per full turn (play/turn_search.h's time
// budget), searching on one thread with its network on one thread; `veletas match` plays such
// players one game per arena thread (docs/ARENA.md "Timed matches").
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::arena {

enum class PlayerKind { kRandom, kUct, kMcts };

struct PlayerSpec {
  PlayerKind kind = PlayerKind::kRandom;
  int budget = 0;          // uct: playouts per turn; mcts: simulations per decision
  std::string checkpoint;  // mcts only
  // uct: the exploration constant; 0 = the board size's (search::TunedUctC).
  double c_uct = 0;
  // mcts: the inference precision word ("int8", ...); empty = the config's. The word is
  // checked where the network is loaded (model::kInferencePrecisions).
  std::string precision{};
  // Wall-clock milliseconds per full turn instead of `budget` (which is then 0); 0 = none.
  int time_ms = 0;

  // The spec text: "random", "uct:1000", "uct:1000:0.7", "mcts:CKPT:64", "mcts:CKPT:64:int8",
  // "uct:100ms", "mcts:CKPT:100ms".
  std::string ToString() const;
  // A player under a time budget (time_ms > 0).
  bool Timed() const { return time_ms > 0; }
};

// Largest budgets accepted in a spec.
inline constexpr int kMaxUctPlayouts = 100'000'000;
inline constexpr int kMaxMctsSimulations = 1'000'000;
// Largest time per turn accepted in a spec (ten minutes), in milliseconds.
inline constexpr int kMaxTurnMs = 600'000;

// Parses a spec. A last mcts field that starts with a letter is the precision word. Errors
// read e.g. `unknown player "uct:x": expected random, uct:N, uct:N:C or mcts:CKPT:N[:P]`, `player
// "uct:0": N must be in [1, 100000000]` or `player "uct:0ms": the time per turn T in Tms must be
// in [1, 600000] ms`.
util::Result<PlayerSpec> ParsePlayerSpec(std::string_view text);

// The ladder name of a spec's player: "random", "uct_<N>" ("uct_<N>_c<C>" with an explicit
// exploration constant; "uct_<T>ms" for a time budget); for mcts the checkpoint's file
// name without its directory and extension (callers that know the generation use
// GenerationName instead).
std::string DefaultPlayerName(const PlayerSpec& spec);

// "gen_<N>": the ladder name of network generation N.
std::string GenerationName(long long generation);

}  // namespace veletas::arena
