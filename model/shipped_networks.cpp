#include "model/shipped_networks.h"

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "model/checkpoint_file.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/json.h"
#include "util/sha256.h"

#ifndef VELETAS_SOURCE_NETWORKS_DIR
#error "VELETAS_SOURCE_NETWORKS_DIR must name the source tree's networks/ folder"
#endif

namespace veletas::model {
namespace {

namespace fs = std::filesystem;
using util::Result;
using Json = nlohmann::json;

constexpr uint64_t kMaxCardBytes = uint64_t{1} << 20;

std::string StringField(const Json& j, const char* key) {
  const Json& v = j.at(key);
  if (!v.is_string()) {
    throw std::invalid_argument(std::string(key) + ": expected a string, got " +
                                util::JsonExcerpt(v));
  }
  return v.get<std::string>();
}

// A finite number, or nullopt for null (one-sided Elo bounds).
std::optional<double> OptionalNumber(const Json& j, const char* key) {
  if (j.at(key).is_null()) return std::nullopt;
  return util::JsonNumber(j, key);
}

NetworkResult ParseResult(const Json& r, size_t index) {
  const std::string at = "results[" + std::to_string(index) + "].";
  try {
    NetworkResult out;
    out.opponent = StringField(r, "opponent");
    out.games = util::JsonInteger<int>(r, "games");
    out.wins = util::JsonInteger<int>(r, "wins");
    out.losses = util::JsonInteger<int>(r, "losses");
    out.elo = OptionalNumber(r, "elo");
    out.elo_low = OptionalNumber(r, "elo_low");
    out.elo_high = OptionalNumber(r, "elo_high");
    if (out.wins < 0 || out.losses < 0 || out.wins + out.losses != out.games) {
      throw std::invalid_argument("wins + losses must be games (" + std::to_string(out.games) +
                                  "), got " + std::to_string(out.wins) + " + " +
                                  std::to_string(out.losses));
    }
    return out;
  } catch (const std::exception& e) {
    throw std::invalid_argument(at + e.what());
  }
}

void ParseCardFields(const Json& j, NetworkCard& card) {
  const std::string format = StringField(j, "format");
  if (format != kNetworkCardFormat) {
    throw std::invalid_argument("format: expected \"" + std::string(kNetworkCardFormat) +
                                "\", got \"" + format + "\"");
  }
  card.name = StringField(j, "name");
  const std::string rules_name = StringField(j, "rules");
  const auto rs = rules::ParseRuleSet(rules_name);
  if (!rs) throw std::invalid_argument("rules: expected standard or classic, got " + rules_name);
  card.rules = *rs;
  card.size = util::JsonInteger<int>(j, "size");
  if (card.size != 7 && card.size != 9 && card.size != 10) {
    throw std::invalid_argument("size: expected 7, 9 or 10, got " + std::to_string(card.size));
  }
  card.generation = util::JsonInteger<int64_t>(j, "generation");
  card.config = StringField(j, "config");
  card.command = StringField(j, "command");
  card.commit = StringField(j, "commit");
  card.cpu_minutes = util::JsonNumber(j, "cpu_minutes");
  const Json& files = j.at("files");
  if (!files.is_object()) throw std::invalid_argument("files: expected an object");
  for (const auto& [file, digest] : files.items()) {
    if (!digest.is_string() || digest.get<std::string>().size() != 64) {
      throw std::invalid_argument("files." + file + ": expected a SHA-256 in hex (64 characters)");
    }
    if (file.empty() || file.find('/') != std::string::npos || file.front() == '.') {
      throw std::invalid_argument("files: \"" + file + "\" is not a file name of the folder");
    }
    card.files[file] = digest.get<std::string>();
  }
  const Json& results = j.at("results");
  if (!results.is_array()) throw std::invalid_argument("results: expected an array");
  for (size_t i = 0; i < results.size(); ++i) card.results.push_back(ParseResult(results[i], i));
}

std::string FormatEloPart(const NetworkResult& r) {
  if (r.elo_low && r.elo_high && r.elo) {
    return fmt::format(" (Elo {:+.0f} [{:+.0f}, {:+.0f}])", *r.elo, *r.elo_low, *r.elo_high);
  }
  if (r.elo_low) return fmt::format(" (Elo >= {:+.0f})", *r.elo_low);
  if (r.elo_high) return fmt::format(" (Elo <= {:+.0f})", *r.elo_high);
  return "";
}

// Checks every file the card lists against its SHA-256, and the folder's total size.
util::Status CheckFiles(const std::string& dir, const NetworkCard& card, uint64_t card_bytes) {
  for (const char* required : kShippedNetworkFiles) {
    if (!card.files.count(required)) {
      return util::Status::Error(dir + "/card.json: files: " + required + " is not listed");
    }
  }
  uint64_t total = card_bytes;
  for (const auto& [file, digest] : card.files) {
    const std::string path = (fs::path(dir) / file).string();
    auto bytes = util::ReadFile(path, kMaxShippedNetworkBytes);
    if (!bytes) return util::Status::Error(bytes.error());
    total += bytes.value().size();
    if (const std::string actual = util::Sha256Hex(bytes.value()); actual != digest) {
      return util::Status::Error(path + ": SHA-256 " + actual + " differs from the card's " +
                                 digest + " (the file was changed or damaged after shipping)");
    }
  }
  if (total > kMaxShippedNetworkBytes) {
    return util::Status::Error(
        fmt::format("{}: its files hold {} bytes, more than the {} a "
                    "shipped network may hold",
                    dir, total, kMaxShippedNetworkBytes));
  }
  return util::Ok();
}

// The checkpoint must be readable and for the card's game.
util::Status CheckCheckpoint(const std::string& path, const NetworkCard& card) {
  auto meta = ReadCheckpointMeta(path);
  if (!meta) return util::Status::Error(meta.error());
  if (meta.value().rules != card.rules || meta.value().size != card.size) {
    return util::Status::Error(
        fmt::format("{}: the checkpoint is for {} {}x{}, the card says {} {}x{}", path,
                    rules::RuleSetName(meta.value().rules), meta.value().size, meta.value().size,
                    rules::RuleSetName(card.rules), card.size, card.size));
  }
  return util::Ok();
}

}  // namespace

std::string ShippedNetworkName(rules::RuleSet rules, int size) {
  return fmt::format("{}-{}x{}", rules::RuleSetName(rules), size, size);
}

std::string ShippedNetworksRoot() {
  const char* env = std::getenv(kNetworksEnvVar);
  if (env != nullptr && *env != '\0') return env;
  return VELETAS_SOURCE_NETWORKS_DIR;
}

Result<NetworkCard> ParseNetworkCard(std::string_view json, const std::string& source) {
  auto parsed = util::ParseJson(json, source);
  if (!parsed) return parsed.error_value();
  const Json& j = parsed.value();
  if (!j.is_object()) return Result<NetworkCard>::Error(source + ": expected a JSON object");
  NetworkCard card;
  try {
    ParseCardFields(j, card);
  } catch (const Json::out_of_range& e) {
    return Result<NetworkCard>::Error(source + ": a required key is missing (" + e.what() + ")");
  } catch (const std::exception& e) {
    return Result<NetworkCard>::Error(source + ": " + e.what());
  }
  return card;
}

std::string SummarizeCard(const NetworkCard& card) {
  std::string s = fmt::format("generation {}, {:.1f} CPU-minutes, commit {}", card.generation,
                              card.cpu_minutes, card.commit.substr(0, 10));
  for (size_t i = 0; i < card.results.size(); ++i) {
    const NetworkResult& r = card.results[i];
    s += i == 0 ? "; " : ", ";
    s += fmt::format("{} {}-{}{}", r.opponent, r.wins, r.losses, FormatEloPart(r));
  }
  if (card.results.empty()) s += "; no results measured";
  return s;
}

Result<ShippedNetwork> LoadShippedNetwork(const std::string& dir, rules::RuleSet rules, int size) {
  using R = Result<ShippedNetwork>;
  const std::string card_path = (fs::path(dir) / "card.json").string();
  auto text = util::ReadFile(card_path, kMaxCardBytes);
  if (!text) return R::Error(text.error());
  auto card = ParseNetworkCard(text.value(), card_path);
  if (!card) return card.error_value();
  const NetworkCard& c = card.value();
  if (c.rules != rules || c.size != size) {
    return R::Error(fmt::format("{}: the network is for {} {}x{}, expected {} {}x{}", card_path,
                                rules::RuleSetName(c.rules), c.size, c.size,
                                rules::RuleSetName(rules), size, size));
  }
  fs::path normal = fs::path(dir).lexically_normal();
  if (!normal.has_filename()) normal = normal.parent_path();
  if (const std::string folder = normal.filename().string(); folder != c.name) {
    return R::Error(card_path + ": name \"" + c.name + "\" is not the folder's name \"" + folder +
                    "\"");
  }
  if (auto s = CheckFiles(dir, c, text.value().size()); !s) return s.error_value();
  ShippedNetwork n{dir, (fs::path(dir) / "model.ckpt").string(), std::move(card.value())};
  if (auto s = CheckCheckpoint(n.checkpoint, n.card); !s) return s.error_value();
  return n;
}

Result<std::optional<ShippedNetwork>> FindShippedNetwork(rules::RuleSet rules, int size) {
  const std::string dir =
      (fs::path(ShippedNetworksRoot()) / ShippedNetworkName(rules, size)).string();
  std::error_code ec;
  if (!fs::exists(dir, ec)) return std::optional<ShippedNetwork>{};
  auto n = LoadShippedNetwork(dir, rules, size);
  if (!n) return n.error_value();
  return std::optional<ShippedNetwork>(std::move(n.value()));
}

}  // namespace veletas::model
