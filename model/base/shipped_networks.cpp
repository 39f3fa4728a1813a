#include "model/base/shipped_networks.h"

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>

#include "model/base/checkpoint_file.h"
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

util::Status ParseResult(const Json& r, size_t index, NetworkResult& out) {
  util::JsonFields f(r, "results[" + std::to_string(index) + "]");
  out.opponent = f.String("opponent");
  out.games = f.Integer<int>("games");
  out.wins = f.Integer<int>("wins");
  out.losses = f.Integer<int>("losses");
  for (const char* key : {"elo", "elo_low", "elo_high"}) {  // null: no such bound
    if (f.ok() && !r.contains(key)) f.Fail(f.Name(key) + ": missing (a number or null)");
  }
  if (f.Has("elo")) out.elo = f.Number("elo");
  if (f.Has("elo_low")) out.elo_low = f.Number("elo_low");
  if (f.Has("elo_high")) out.elo_high = f.Number("elo_high");
  if (f.ok() && (out.wins < 0 || out.losses < 0 || out.wins + out.losses != out.games)) {
    f.Fail(f.Name("wins") + " + losses must be games (" + std::to_string(out.games) + "), got " +
           std::to_string(out.wins) + " + " + std::to_string(out.losses));
  }
  return f.status();
}

util::Status ParseCardFields(const Json& j, NetworkCard& card) {
  util::JsonFields f(j, "");
  const std::string format = f.String("format");
  if (f.ok() && format != kNetworkCardFormat) {
    f.Fail("format: expected \"" + std::string(kNetworkCardFormat) + "\", got \"" + format + "\"");
  }
  card.name = f.String("name");
  const std::string rules_name = f.String("rules");
  const auto rs = rules::ParseRuleSet(rules_name);
  if (f.ok() && !rs) f.Fail("rules: expected standard or classic, got " + rules_name);
  if (rs) card.rules = *rs;
  card.size = f.Integer<int>("size");
  if (f.ok() && card.size != 7 && card.size != 9 && card.size != 10) {
    f.Fail("size: expected 7, 9 or 10, got " + std::to_string(card.size));
  }
  card.generation = f.Integer<int64_t>("generation");
  card.config = f.String("config");
  card.command = f.String("command");
  card.commit = f.String("commit");
  card.cpu_minutes = f.Number("cpu_minutes");
  const Json* files = f.Object("files");
  const Json* results = f.Array("results");
  if (!f.ok()) return f.status();
  for (const auto& [file, digest] : files->items()) {
    if (!digest.is_string() || digest.get<std::string>().size() != 64) {
      return util::Status::Error("files." + file + ": expected a SHA-256 in hex (64 characters)");
    }
    if (file.empty() || file.find('/') != std::string::npos || file.front() == '.') {
      return util::Status::Error("files: \"" + file + "\" is not a file name of the folder");
    }
    card.files[file] = digest.get<std::string>();
  }
  for (size_t i = 0; i < results->size(); ++i) {
    NetworkResult r;
    if (auto s = ParseResult((*results)[i], i, r); !s) return s;
    card.results.push_back(std::move(r));
  }
  return util::Ok();
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
  if (auto s = ParseCardFields(j, card); !s) {
    return Result<NetworkCard>::Error(source + ": " + s.error());
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
