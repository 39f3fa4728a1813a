// The networks the project ships (networks/NAME/, docs/USAGE.md "Shipping a network"): a
// folder per network with its checkpoint, browser export, config and model card, found by
// game (rules and size) and validated against its card before use. Torch-free (model_base):
// the app's interactive commands find the default network here and load it themselves.
//
// A folder networks/NAME/ holds model.ckpt (the checkpoint without optimiser state),
// model.json and model.onnx (the browser export), config.yaml (the config that trained it),
// CARD.md (the human card) and card.json (the machine card):
//   {"format": "veletas-network-card v1", "name": NAME, "rules": "standard", "size": 7,
//    "generation": G, "config": "config.yaml", "command": "...", "notes": "...",
//    "commit": "...", "cpu_minutes": M, "files": {"model.ckpt": SHA256, ...},
//    "results": [{"opponent": "uct:10000", "games": 200, "wins": W, "losses": L,
//                 "elo": E, "elo_low": LO, "elo_high": HI}, ...]}
// (elo_low or elo_high is null when the network won or lost every game: one-sided bound).
// "command" is a `veletas` command line that can be copied as it is; "notes" (optional, not
// read here) says what else is to be said of the run. model.ckpt and model.json hold no
// training bookkeeping and no path of the machine that trained the network (ShippedMeta).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.h"
#include "util/result.h"

namespace veletas::model {

inline constexpr const char* kNetworkCardFormat = "veletas-network-card v1";
// The most a shipped folder may hold, all its files together.
inline constexpr uint64_t kMaxShippedNetworkBytes = uint64_t{8} << 20;
// The environment variable naming the folder that holds the shipped networks.
inline constexpr const char* kNetworksEnvVar = "VELETAS_NETWORKS";
// The files every shipped folder holds besides card.json (each listed in the card's "files").
inline constexpr const char* kShippedNetworkFiles[] = {"model.ckpt", "model.json", "model.onnx",
                                                       "config.yaml", "CARD.md"};

// One match of the network against an opponent (the card's "results").
struct NetworkResult {
  std::string opponent;  // a player spec: random, uct:N
  int games = 0, wins = 0, losses = 0;
  std::optional<double> elo, elo_low, elo_high;  // the network - the opponent, 95%
};

// The machine card (card.json).
struct NetworkCard {
  std::string name;
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  int64_t generation = 0;
  std::string config, command, commit;
  double cpu_minutes = 0;
  std::map<std::string, std::string> files;  // file name -> lower-case hex SHA-256
  std::vector<NetworkResult> results;
};

// A shipped network that passed its checks.
struct ShippedNetwork {
  std::string dir;         // the folder
  std::string checkpoint;  // dir/model.ckpt
  NetworkCard card;
};

// The folder name of the default network of a game: "standard-7x7".
std::string ShippedNetworkName(rules::RuleSet rules, int size);

// The folder holding the shipped networks: $VELETAS_NETWORKS when set and not empty, else
// the source tree's networks/ (compiled in).
std::string ShippedNetworksRoot();

// Parses card.json's text; errors (bad input) name `source` and the key.
util::Result<NetworkCard> ParseNetworkCard(std::string_view json, const std::string& source);

// One line about a card: "generation 30, 87.7 CPU-minutes, commit abc1234; 200 games: random
// 200-0, uct:10000 180-20 (Elo +330 [+270, +400])".
std::string SummarizeCard(const NetworkCard& card);

// Reads and checks the folder `dir` as the network of `rules` `size`: card.json parses, is
// for that game, lists every file of kShippedNetworkFiles; every listed file exists and has
// its SHA-256; the folder holds at most kMaxShippedNetworkBytes; the checkpoint is readable
// and for the card's game. Errors are bad input naming the folder, the file and what differs.
util::Result<ShippedNetwork> LoadShippedNetwork(const std::string& dir, rules::RuleSet rules,
                                                int size);

// The shipped network of `rules` `size` in ShippedNetworksRoot(): none (nullopt) when its
// folder does not exist; an error when it exists but fails LoadShippedNetwork.
util::Result<std::optional<ShippedNetwork>> FindShippedNetwork(rules::RuleSet rules, int size);

}  // namespace veletas::model
