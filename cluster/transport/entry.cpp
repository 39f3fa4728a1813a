#include "cluster/transport/entry.h"

#include <cstring>
#include <random>

#include "util/atomic_file.h"
#include "util/byte_io.h"
#include "util/checksum.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

constexpr char kMagic[4] = {'V', 'Z', 'C', 'E'};
// Version 3: self-play entries carry a root summary per sample (spot checks). Version 2:
// XXH3 checksums (util::Checksum64), in the entry and in its sample file (format version 3).
// Version 1 (FNV-1a) came from workers of earlier builds.
constexpr uint32_t kVersion = 3;
constexpr size_t kChecksumBytes = 8;

void ShortString(util::Writer& w, std::string_view s) {
  w.U8(s.size());
  w.Bytes(s.substr(0, 255));
}

void WriteSummaries(util::Writer& w, const std::vector<selfplay::RootSummary>& summaries) {
  w.U32(summaries.size());
  for (const selfplay::RootSummary& s : summaries) {
    w.U8(s.chosen);
    w.U8(s.children.size());
    for (const selfplay::RootChild& c : s.children) {
      w.U8(c.action);
      w.U32(c.visits);
      w.F32(c.q);
      w.U8(static_cast<uint8_t>(c.proven));
    }
  }
}

// The summaries of `samples` samples; false when they do not fit what is left of `r`
// (checked before anything is allocated for them).
bool ReadSummaries(util::Reader& r, size_t samples, std::vector<selfplay::RootSummary>& out) {
  if (r.U32() != samples || samples * 2 > r.remaining()) return false;
  out.resize(samples);
  for (selfplay::RootSummary& s : out) {
    s.chosen = static_cast<uint8_t>(r.U8());
    const size_t n = r.U8();
    if (!r.ok() || n * 10 > r.remaining()) return false;
    s.children.resize(n);
    for (selfplay::RootChild& c : s.children) {
      c.action = static_cast<uint8_t>(r.U8());
      c.visits = static_cast<uint32_t>(r.U32());
      c.q = r.F32();
      c.proven = static_cast<int8_t>(static_cast<uint8_t>(r.U8()));
    }
  }
  return r.ok();
}

// Hex digits of 32 raw bytes, or "" when `raw` is not 32 bytes.
std::string HexOf(std::string_view raw) {
  if (raw.size() != 32) return "";
  std::array<uint8_t, 32> digest;
  std::memcpy(digest.data(), raw.data(), 32);
  return util::HexDigest(digest);
}

// The 32 bytes of 64 hex digits (zeros where they do not parse).
std::string RawOf(std::string_view hex) {
  std::string raw(32, '\0');
  for (size_t i = 0; i < 64 && i < hex.size(); ++i) {
    const char c = hex[i];
    const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 0;
    raw[i / 2] = static_cast<char>(raw[i / 2] * 16 + v);
  }
  return raw;
}

}  // namespace

util::Result<std::string> EncodeEntry(const Entry& e) {
  util::Writer w;
  w.Bytes(std::string_view(kMagic, 4));
  w.U32(kVersion);
  w.U8(static_cast<uint8_t>(e.kind));
  w.Bytes(std::string_view(reinterpret_cast<const char*>(e.game_id.bytes.data()), 16));
  ShortString(w, e.worker);
  if (e.kind == EntryKind::kSelfplay) {
    w.Bytes(RawOf(e.network));
    ShortString(w, e.precision ? model::InferencePrecisionName(*e.precision) : "");
    const auto payload = data::EncodeSampleFile(e.game);
    if (!payload) return payload.error_value();
    w.U32(payload.value().size());
    w.Bytes(payload.value());
    WriteSummaries(w, e.summaries);
  } else {
    ShortString(w, e.task);
    ShortString(w, e.match);
    w.U32(static_cast<uint32_t>(e.arena.index));
    w.U8((e.arena.a_first ? 1 : 0) | (e.arena.a_colour == rules::Color::kWhite ? 2 : 0) |
         (e.arena.a_won ? 4 : 0));
    w.U16(static_cast<uint64_t>(e.arena.turns));
    w.U32(e.arena.record.size());
    w.Bytes(e.arena.record);
  }
  w.U64(util::Checksum64(w.str()));
  return std::move(w.str());
}

util::Result<Entry> DecodeEntry(std::string_view bytes, int64_t max_bytes) {
  using R = util::Result<Entry>;
  if (static_cast<int64_t>(bytes.size()) > max_bytes) {
    return R::Error("oversized: " + std::to_string(bytes.size()) + " bytes, the limit is " +
                    std::to_string(max_bytes));
  }
  if (bytes.size() < 4 + 4 + 1 + 16 + 1 + kChecksumBytes ||
      std::memcmp(bytes.data(), kMagic, 4) != 0) {
    return R::Error("malformed: not a cluster entry");
  }
  util::Reader r(bytes.substr(0, bytes.size() - kChecksumBytes));
  r.Bytes(4);
  // The version first: an entry of another version has another checksum.
  if (const uint64_t version = r.U32(); version != kVersion) {
    return R::Error("version: entry format version " + std::to_string(version) +
                    " (a worker of another build); this learner reads version " +
                    std::to_string(kVersion));
  }
  const std::string_view body = bytes.substr(0, bytes.size() - kChecksumBytes);
  util::Reader sum(bytes.substr(body.size()));
  if (util::Checksum64(body) != sum.U64())
    return R::Error("checksum: the entry's checksum does not match");
  Entry e;
  const uint64_t kind = r.U8();
  if (kind != 1 && kind != 2)
    return R::Error("malformed: unknown entry kind " + std::to_string(kind));
  e.kind = static_cast<EntryKind>(kind);
  const std::string_view id = r.Bytes(16);
  if (r.ok()) std::memcpy(e.game_id.bytes.data(), id.data(), 16);
  e.worker = std::string(r.Bytes(r.U8()));
  if (e.kind == EntryKind::kSelfplay) {
    e.network = HexOf(r.Bytes(32));
    const std::string_view precision = r.Bytes(r.U8());
    if (precision.size() > 16) return R::Error("malformed: a precision of more than 16 bytes");
    e.precision = model::ParseInferencePrecision(precision);
    const uint64_t length = r.U32();
    if (!r.ok() || length > r.remaining()) {
      return R::Error("malformed: the game's length disagrees with the entry's");
    }
    auto game = data::DecodeSampleFile(r.Bytes(length), "game",
                                       static_cast<uint64_t>(max_bytes) * kMaxExpansion);
    if (!game) return R::Error("malformed: " + game.error());
    e.game = std::move(game.value());
    if (!ReadSummaries(r, e.game.samples.size(), e.summaries)) {
      return R::Error("malformed: the root summaries do not match the game's samples");
    }
  } else {
    e.task = std::string(r.Bytes(r.U8()));
    e.match = std::string(r.Bytes(r.U8()));
    e.arena.index = static_cast<int>(r.U32());
    const uint64_t flags = r.U8();
    e.arena.a_first = (flags & 1) != 0;
    e.arena.a_colour = (flags & 2) != 0 ? rules::Color::kWhite : rules::Color::kBlack;
    e.arena.a_won = (flags & 4) != 0;
    e.arena.turns = static_cast<int>(r.U16());
    const uint64_t length = r.U32();
    if (!r.ok() || length != r.remaining() || flags > 7 || e.arena.index < 0) {
      return R::Error("malformed: the arena game's fields do not fit the entry");
    }
    e.arena.record = std::string(r.Bytes(length));
  }
  if (!r.ok() || r.remaining() != 0) return R::Error("malformed: truncated or trailing bytes");
  return e;
}

data::GameId ArenaGameId(const std::string& match, int index) {
  util::Sha256 sha;
  sha.Update("veletas arena game\n" + match + "\n" + std::to_string(index));
  const std::array<uint8_t, 32> digest = sha.Final();
  data::GameId id;
  std::memcpy(id.bytes.data(), digest.data(), 16);
  return id;
}

data::GameId SelfplayGameId(rules::RuleSet rules, int size, const std::string& canonical_record) {
  util::Sha256 sha;
  sha.Update("veletas self-play game\n" + std::to_string(static_cast<int>(rules)) + " " +
             std::to_string(size) + "\n");
  sha.Update(canonical_record);
  const std::array<uint8_t, 32> digest = sha.Final();
  data::GameId id;
  std::memcpy(id.bytes.data(), digest.data(), 16);
  return id;
}

data::GameId RandomGameId() {
  static thread_local std::random_device device;
  data::GameId id;
  for (size_t i = 0; i < id.bytes.size(); i += 4) {
    const uint32_t v = device();
    std::memcpy(id.bytes.data() + i, &v, 4);
  }
  return id;
}

}  // namespace veletas::cluster
