// The C API of the WebAssembly module (veletas_core.js, built from web/wasm/) that the
// browser page calls: the project's own rules core, full-turn search (play::TurnSearcher's
// step form) and feature encoding, with nothing re-implemented. Also compiled natively for
// tests (tests/web/api_test.cpp).
//
// Conventions: strings are UTF-8 and NUL-terminated. A returned `const char*` points to a
// buffer of the module that the next call returning a string overwrites (copy it at once).
// Functions that can fail on input return "" on success and the error message otherwise.
// JSON results are objects described at each function. Squares are numbered row * N + col
// (row 0 = rank 1, Black's side; col 0 = file a); the pass-like action is N * N.
// Single-threaded: one thread calls the module.
#pragma once

#include <cstdint>

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define VZ_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define VZ_EXPORT
#endif

extern "C" {

// ---- About the module ----

// {"feature_version": int, "planes": [names in input order], "max_size": 10,
//  "sizes": [7, 9, 10], "rules": ["standard", "classic"]}
VZ_EXPORT const char* vz_info();

// ---- A game being played or replayed (the page's board) ----
struct VzGame;

// A new game from the empty board, or null when `rules` ("standard", "classic") or `size`
// is not supported.
VZ_EXPORT VzGame* vz_game_new(const char* rules, int size);
VZ_EXPORT void vz_game_free(VzGame* game);
// Replaces the game by `record` (moves in notation separated by white space), replayed
// from the empty board. Errors name the move: `move 7 "c3-c9/c1": ...`; the game is then
// unchanged.
VZ_EXPORT const char* vz_game_load(VzGame* game, const char* record);
// Plays one full turn in notation (the turn being clicked is dropped). Error: why it is
// illegal.
VZ_EXPORT const char* vz_game_play(VzGame* game, const char* move);
// Chooses `action` for the turn being clicked (web::TurnBuilder); when that completes the
// turn, it is played. Error: why the square cannot be chosen.
VZ_EXPORT const char* vz_game_choose(VzGame* game, int action);
// Drops the choices of the turn being clicked.
VZ_EXPORT void vz_game_reset_turn(VzGame* game);
// Takes back the last full turn (and the turn being clicked); 0 when there is none.
VZ_EXPORT int vz_game_undo(VzGame* game);
// The position before turn `ply` (0 <= ply <= turns; -1: the current position with the
// turn being clicked applied) as JSON:
//  {"rules", "size", "turns" (played in the game), "ply" (shown), "moves": [record moves],
//   "board": [rows, top row first, '.' 'x' 'o' 'S' 'X' 'O' as rules::BoardRows],
//   "pending": decision name, "to_move": "black"|"white", "to_move_player": 0|1,
//   "black_player": 0|1, "terminal": bool, "winner": null|"black"|"white",
//   "winner_player": null|0|1, "claims": {"black", "white", "to_win"}, "status": text,
//   "last": [squares of the turn that led here], "choice": {"decision", "chosen": [],
//   "placing": [setup shooters chosen, not yet on "board"], "targets": [], "pass": bool}
//   (ply -1 only, while the game goes on)}
// Out-of-range `ply` gives the current position.
VZ_EXPORT const char* vz_game_state(VzGame* game, int ply);
// The legal full turns of the current position in notation, sorted as `veletas moves`
// prints them: a JSON array of strings.
VZ_EXPORT const char* vz_game_moves(VzGame* game);

// ---- Full-turn search, stepped by the caller (play::TurnSearcher) ----
struct VzSearch;

// A searcher: `algorithm` "puct", "gumbel" (neural MCTS with play settings: no root
// noise, temperature 0) or "uct" (random playouts); `leaves` per batch (1..256);
// `evaluator` for neural search: "network" (the caller evaluates with the page's network),
// "uniform", or "hash:SEED" (search::HashEvaluator, the deterministic test evaluator).
// Null on bad arguments.
VZ_EXPORT VzSearch* vz_search_new(const char* algorithm, int leaves, double seed,
                                  const char* evaluator);
VZ_EXPORT void vz_search_free(VzSearch* search);
// Begins the search of the position after `record` (rules, size) with `visits`
// simulations per sub-decision (playouts per turn for UCT) or, when `time_ms` > 0, that
// many milliseconds for the turn; up to `candidates` candidate turns. A search in progress
// is abandoned. Errors: bad record, game over, bad budget.
VZ_EXPORT const char* vz_search_begin(VzSearch* search, const char* rules, int size,
                                      const char* record, int visits, int time_ms, int candidates);
// Collects the next leaves (at most `leaves`); returns how many (0: the search is done).
// With `canvas` > 0 their network input is encoded on a canvas of that side
// (model::EncodeBatch) at vz_search_planes. The leaves' evaluations must come next.
VZ_EXPORT int vz_search_collect(VzSearch* search, int canvas);
// The encoded leaves: count * 20 * canvas * canvas floats ([leaf][plane][row][col]).
VZ_EXPORT float* vz_search_planes(VzSearch* search);
// Gives the network's outputs for the collected leaves: policy logits (count *
// (canvas * canvas + 1) floats) and values (count floats), decoded as the native
// evaluator does (model::DecodeOutput: softmax over the legal actions).
VZ_EXPORT void vz_search_provide_network(VzSearch* search, const float* logits,
                                         const float* values);
// Evaluates the collected leaves with the searcher's own evaluator (uniform, hash or UCT's
// random playouts) and gives the results.
VZ_EXPORT void vz_search_provide_builtin(VzSearch* search);
VZ_EXPORT int vz_search_done(VzSearch* search);
// The finished search as JSON: {"move", "win_rate", "visits", "proven", "pv": [moves],
// "candidates": [{"move", "win_rate", "visits", "proven", "pv"}], "simulations",
// "seconds", "to_move": "black"|"white", "player": 0|1}; win rates for the player making
// the turn. Precondition: done.
VZ_EXPORT const char* vz_search_result(VzSearch* search);
// Drops a search in progress (and the tree).
VZ_EXPORT void vz_search_abandon(VzSearch* search);

// ---- Batches of positions for network checks and benchmarks ----
struct VzBatch;

// `count` positions from seeded random games (model::SamplePositions), or null.
VZ_EXPORT VzBatch* vz_batch_new(const char* rules, int size, int count, double seed);
VZ_EXPORT void vz_batch_free(VzBatch* batch);
// Encodes positions start .. start+count-1 (modulo the pool) on a canvas of side `canvas`
// (>= size); returns the number of floats at vz_batch_planes.
VZ_EXPORT int vz_batch_encode(VzBatch* batch, int start, int count, int canvas);
VZ_EXPORT float* vz_batch_planes(VzBatch* batch);
// Decodes the network's outputs on the encoded positions (as vz_search_provide_network)
// into count rows of kMaxActions (101) probabilities, indexed by the position's actions,
// and count values.
VZ_EXPORT void vz_batch_decode(VzBatch* batch, const float* logits, const float* values);
VZ_EXPORT float* vz_batch_policy(VzBatch* batch);
VZ_EXPORT float* vz_batch_values(VzBatch* batch);
// The Zobrist hashes of the pool as a JSON array of 16-digit hex strings.
VZ_EXPORT const char* vz_batch_hashes(VzBatch* batch);

// ---- Benchmark ----

// search::BenchTree (what `veletas bench search` prints first) for `algorithm` "puct" or
// "gumbel": {"sims_per_second", "nodes_per_search", "bytes_per_node", "mib_per_search"}.
VZ_EXPORT const char* vz_bench_tree(const char* rules, int size, const char* algorithm,
                                    int simulations, int positions, int leaves);

}  // extern "C"
