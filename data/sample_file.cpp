#include "data/sample_file.h"

#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>

#include "util/atomic_file.h"
#include "util/byte_io.h"
#include "util/checksum.h"
#include "util/text.h"

namespace veletas::data {

using util::Reader;
using util::Writer;
namespace {

constexpr char kMagic[8] = {'V', 'E', 'L', 'Z', 'S', 'M', 'P', 'L'};
constexpr size_t kHeaderSize = 64;
constexpr uint32_t kMaxSamples = 50'000'000;
constexpr uint32_t kMaxGames = 10'000'000;
// The fewest payload bytes a sample (no policy or aux entries) and a game (empty record)
// take: counts in a header are checked against the payload length with these before
// anything is allocated for them.
constexpr uint64_t kMinSampleBytes = 5 * 16 + 8 + 2 + 1 + 4 + 1 + 1;
constexpr uint64_t kMinGameBytes = 4 + 1 + 1 + 4;
// A bad-input error saying `why` (the caller names the file).
util::Status Bad(std::string why) { return util::Status::Error(std::move(why)); }

// Decompressed output is allocated as it is produced, this much at first.
constexpr size_t kFirstOutputChunk = size_t{1} << 20;
// The most a payload may compress (real self-play files compress about 2-2.5:1; zstd can
// reach 1000:1 on crafted data), so that a file never makes its reader allocate more than
// this multiple of the bytes it holds; and the largest zstd window a frame may ask for (the
// writer's level 3 uses at most 2^21 bytes).
constexpr uint64_t kMaxCompressionRatio = 64;
constexpr int kMaxWindowLog = 22;

// Decompresses the one zstd frame `compressed` that must hold exactly `raw_len` bytes. The
// output grows only as the frame produces it, so a header or frame that claims more than
// the data holds never makes it allocate that much. OK, or bad input saying what is wrong.
util::Status Decompress(std::string_view compressed, uint64_t raw_len, std::string& raw) {
  const unsigned long long declared =
      ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) return Bad("not a zstd frame");
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != raw_len) {
    return Bad("the frame holds " + std::to_string(declared) + " bytes, the header says " +
               std::to_string(raw_len));
  }
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!ctx) return Bad("out of memory");
  if (ZSTD_isError(ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_windowLogMax, kMaxWindowLog))) {
    return Bad("cannot limit the window");
  }
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  raw.clear();
  size_t produced = 0;
  for (;;) {
    if (produced == raw.size()) {
      if (raw.size() == raw_len) {
        // Full: the frame must end here, without another byte of output.
        char extra;
        ZSTD_outBuffer probe{&extra, 1, 0};
        const size_t left = ZSTD_decompressStream(ctx.get(), &probe, &in);
        if (ZSTD_isError(left)) return Bad(ZSTD_getErrorName(left));
        if (probe.pos != 0)
          return Bad("the frame holds more than the header's " + std::to_string(raw_len) +
                     " bytes");
        if (left != 0) return Bad("truncated frame");
        break;
      }
      raw.resize(static_cast<size_t>(
          std::min<uint64_t>(raw_len, std::max(kFirstOutputChunk, 2 * raw.size()))));
    }
    ZSTD_outBuffer out{raw.data(), raw.size(), produced};
    const size_t consumed = in.pos;
    const size_t left = ZSTD_decompressStream(ctx.get(), &out, &in);
    if (ZSTD_isError(left)) return Bad(ZSTD_getErrorName(left));
    if (left == 0) {
      produced = out.pos;
      break;  // the frame ended
    }
    if (out.pos < out.size && in.pos == in.size) return Bad("truncated frame");
    if (out.pos == produced && in.pos == consumed) return Bad("no progress");
    produced = out.pos;
  }
  if (produced != raw_len) {
    return Bad("the frame holds " + std::to_string(produced) + " bytes, the header says " +
               std::to_string(raw_len));
  }
  if (in.pos != in.size) return Bad("bytes after the frame");
  return util::Ok();
}

void WriteSample(Writer& w, const Sample& s) {
  const rules::PositionState st = s.position.State();
  w.U128(st.stones[0].bits());
  w.U128(st.stones[1].bits());
  w.U128(st.shooters.bits());
  w.U128(st.claimed[0].bits());
  w.U128(st.claimed[1].bits());
  w.U8(static_cast<uint8_t>(st.to_move));
  w.U8(static_cast<uint8_t>(st.pending));
  w.U8(st.black_player);
  w.U8(st.placed_this_turn);
  w.U8(static_cast<uint8_t>(st.last_placed));
  w.U8(static_cast<uint8_t>(st.origin));
  w.U8(static_cast<uint8_t>(st.moved_from));
  w.U8(static_cast<uint8_t>(st.moved_to));
  w.U16(st.turns_played);
  w.U8(static_cast<uint8_t>(static_cast<int8_t>(s.outcome)));
  w.F32(s.root_value);
  w.U8(s.policy.size());
  for (const PolicyEntry& e : s.policy) {
    w.U8(e.action);
    w.F32(e.prob);
  }
  w.U8(s.aux.size());
  for (const AuxTarget& a : s.aux) {
    w.U8(a.square);
    w.U8(static_cast<uint8_t>(a.owner));
  }
}

// Reads one sample; OK, or bad input saying what is wrong with it.
util::Status ReadSample(Reader& r, rules::RuleSet rules, int size, Sample& s) {
  rules::PositionState st;
  st.rules = rules;
  st.size = size;
  st.stones[0] = rules::Bitboard(r.U128());
  st.stones[1] = rules::Bitboard(r.U128());
  st.shooters = rules::Bitboard(r.U128());
  st.claimed[0] = rules::Bitboard(r.U128());
  st.claimed[1] = rules::Bitboard(r.U128());
  const uint64_t to_move = r.U8(), pending = r.U8();
  st.black_player = static_cast<int>(r.U8());
  st.placed_this_turn = static_cast<int>(r.U8());
  st.last_placed = static_cast<int8_t>(r.U8());
  st.origin = static_cast<int8_t>(r.U8());
  st.moved_from = static_cast<int8_t>(r.U8());
  st.moved_to = static_cast<int8_t>(r.U8());
  st.turns_played = static_cast<int>(r.U16());
  const int8_t outcome = static_cast<int8_t>(r.U8());
  s.root_value = r.F32();
  if (!r.ok()) return Bad("truncated sample");
  if (to_move > 1 || pending >= rules::kNumDecisions) return Bad("bad side to move or decision");
  st.to_move = static_cast<rules::Color>(to_move);
  st.pending = static_cast<rules::Decision>(pending);
  const std::optional<rules::Position> pos = rules::Position::FromState(st);
  if (!pos) return Bad("inconsistent position");
  if (pos->IsTerminal()) return Bad("terminal position");
  s.position = *pos;
  if (outcome != 1 && outcome != -1) return Bad("outcome must be +1 or -1");
  s.outcome = outcome;
  if (!(s.root_value >= -1.0f && s.root_value <= 1.0f)) return Bad("root value outside [-1, 1]");
  const rules::ActionSet legal = s.position.LegalActions();
  const size_t policy_count = r.U8();
  s.policy.resize(policy_count);
  double sum = 0;
  for (PolicyEntry& e : s.policy) {
    e.action = static_cast<uint8_t>(r.U8());
    e.prob = r.F32();
    if (!r.ok()) return Bad("truncated policy");
    if (!legal.Contains(e.action, size)) {
      return Bad("policy action " + std::to_string(e.action) + " is not legal");
    }
    if (!(e.prob >= 0.0f && e.prob <= 1.0f)) return Bad("policy probability outside [0, 1]");
    sum += e.prob;
  }
  if (std::fabs(sum - 1.0) > 1e-3) return Bad("policy probabilities sum to " + std::to_string(sum));
  const size_t aux_count = r.U8();
  s.aux.resize(aux_count);
  const rules::Bitboard shooters = s.position.AllShooters();
  for (AuxTarget& a : s.aux) {
    a.square = static_cast<uint8_t>(r.U8());
    const uint64_t owner = r.U8();
    if (!r.ok()) return Bad("truncated aux targets");
    if (a.square >= size * size || !shooters.Test(a.square)) {
      return Bad("aux target on square " + std::to_string(a.square) + " without a shooter");
    }
    if (owner > 2) return Bad("bad aux owner");
    a.owner = static_cast<Owner>(owner);
  }
  return util::Ok();
}

}  // namespace

util::Result<std::string> EncodeSampleFile(const SampleFile& file) {
  Writer payload;
  for (const Sample& s : file.samples) WriteSample(payload, s);
  for (const GameRecord& g : file.games) {
    payload.Bytes(std::string_view(reinterpret_cast<const char*>(g.id.bytes.data()), 16));
    payload.U32(g.record.size());
    payload.Bytes(g.record);
    payload.U8(static_cast<uint8_t>(g.winner));
    payload.U8(g.resigned ? 1 : 0);
    payload.U32(g.samples);
  }
  const std::string& raw = payload.str();
  std::string compressed(ZSTD_compressBound(raw.size()), '\0');
  const size_t n = ZSTD_compress(compressed.data(), compressed.size(), raw.data(), raw.size(), 3);
  if (ZSTD_isError(n)) {
    return util::Result<std::string>::Failure(std::string("compression failed: ") +
                                              ZSTD_getErrorName(n));
  }
  compressed.resize(n);

  Writer header;
  header.Bytes(std::string_view(kMagic, 8));
  header.U32(kSampleFormatVersion);
  header.U8(static_cast<uint8_t>(file.rules));
  header.U8(file.size);
  header.U16(0);
  header.U32(file.samples.size());
  header.U32(file.games.size());
  header.U64(raw.size());
  header.U64(compressed.size());
  header.U64(util::Checksum64(raw));
  header.U64(util::Checksum64(compressed));
  header.U64(util::Checksum64(header.str()));
  return header.str() + compressed;
}

util::Status WriteSampleFile(const std::string& path, const SampleFile& file) {
  const auto data = EncodeSampleFile(file);
  if (!data) return util::Prefixed(data.error_value(), path + ": ");
  return util::WriteFileAtomic(path, data.value());
}

util::Status CheckSampleFormatVersion(std::string_view data, const std::string& path) {
  if (data.size() < 12 || std::memcmp(data.data(), kMagic, 8) != 0) return util::Ok();
  Reader r(data.substr(8, 4));
  const uint64_t version = r.U32();
  // Past kMaxNamedVersion the field is garbage (a corrupt file), not a version.
  constexpr uint64_t kMaxNamedVersion = 255;
  if (version == kSampleFormatVersion || version > kMaxNamedVersion) return util::Ok();
  return util::Status::Error(
      path + ": sample file format version " + std::to_string(version) +
      (version < kSampleFormatVersion ? " (written by an earlier build)" : "") +
      "; this build reads version " + std::to_string(kSampleFormatVersion) +
      " only (docs/SAMPLE_FORMAT.md)");
}

util::Status CheckSampleFileVersion(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[12] = {};
  if (!in.read(head, sizeof(head))) return util::Ok();
  return CheckSampleFormatVersion(std::string_view(head, sizeof(head)), path);
}

util::Result<SampleFile> ReadSampleFile(const std::string& path) {
  const auto read = util::ReadFile(path);
  if (!read) return read.error_value();
  return DecodeSampleFile(read.value(), path);
}

namespace {

// The samples and games of a verified, decompressed payload.
util::Result<SampleFile> ParsePayload(const std::string& raw, rules::RuleSet rules, int size,
                                      uint64_t num_samples, uint64_t num_games,
                                      const std::string& path) {
  using R = util::Result<SampleFile>;
  SampleFile file;
  file.rules = rules;
  file.size = size;
  file.samples.resize(num_samples);
  Reader r(raw);
  for (uint64_t i = 0; i < num_samples; ++i) {
    const util::Status read = ReadSample(r, file.rules, file.size, file.samples[i]);
    if (!read.ok()) return R::Error(path + ": sample " + std::to_string(i) + ": " + read.error());
  }
  file.games.resize(num_games);
  for (uint64_t i = 0; i < num_games; ++i) {
    GameRecord& g = file.games[i];
    const std::string_view id = r.Bytes(16);
    if (r.ok()) std::memcpy(g.id.bytes.data(), id.data(), 16);
    const uint64_t len = r.U32();
    if (!r.ok() || len > r.remaining())
      return R::Error(path + ": game " + std::to_string(i) + ": truncated");
    g.record = std::string(r.Bytes(len));
    g.winner = static_cast<int8_t>(r.U8());
    g.resigned = r.U8() != 0;
    g.samples = static_cast<uint32_t>(r.U32());
    if (!r.ok()) return R::Error(path + ": game " + std::to_string(i) + ": truncated");
    if (g.winner != 0 && g.winner != 1) {
      return R::Error(path + ": game " + std::to_string(i) + ": bad winner");
    }
  }
  if (r.remaining() != 0) return R::Error(path + ": trailing bytes after the last game");
  return file;
}

}  // namespace

util::Result<SampleFile> DecodeSampleFile(std::string_view data, const std::string& path,
                                          uint64_t max_payload) {
  using R = util::Result<SampleFile>;
  if (data.size() < kHeaderSize) {
    return R::Error(path + ": truncated: " + std::to_string(data.size()) +
                    " bytes, shorter than the 64-byte header");
  }
  if (std::memcmp(data.data(), kMagic, 8) != 0) return R::Error(path + ": not a sample file");
  if (auto version = CheckSampleFormatVersion(data, path); !version) return version.error_value();
  Reader h(data.substr(0, kHeaderSize));
  h.Bytes(8);
  const uint64_t version = h.U32();
  const uint64_t rules_id = h.U8(), size = h.U8();
  h.U16();
  const uint64_t num_samples = h.U32(), num_games = h.U32();
  const uint64_t raw_len = h.U64(), zlen = h.U64(), raw_sum = h.U64(), zsum = h.U64();
  const uint64_t header_sum = h.U64();
  if (util::Checksum64(data.substr(0, kHeaderSize - 8)) != header_sum) {
    return R::Error(path + ": corrupt header (checksum mismatch)");
  }
  if (version != kSampleFormatVersion) {
    return R::Error(path + ": corrupt header (format version " + std::to_string(version) + ")");
  }
  if (rules_id > 1 || !rules::IsSupportedSize(static_cast<int>(size)) ||
      num_samples > kMaxSamples || num_games > kMaxGames || raw_len > kMaxSamplePayload) {
    return R::Error(path + ": corrupt header (values out of range)");
  }
  if (raw_len > max_payload) {
    return R::Error(path + ": declares " + std::to_string(raw_len) +
                    " bytes of samples, more than the limit of " + std::to_string(max_payload));
  }
  if (data.size() - kHeaderSize != zlen) {
    return R::Error(path + ": truncated: header says " + std::to_string(zlen) +
                    " compressed bytes, file has " + std::to_string(data.size() - kHeaderSize));
  }
  if (raw_len > kMaxCompressionRatio * zlen + kHeaderSize) {
    return R::Error(path + ": corrupt header: a payload of " + std::to_string(raw_len) +
                    " bytes cannot come from " + std::to_string(zlen) +
                    " compressed bytes (at most " + std::to_string(kMaxCompressionRatio) +
                    " times as many)");
  }
  if (num_samples * kMinSampleBytes + num_games * kMinGameBytes > raw_len) {
    return R::Error(path + ": corrupt header: " + std::to_string(num_samples) + " samples and " +
                    std::to_string(num_games) + " games cannot fit in a payload of " +
                    std::to_string(raw_len) + " bytes");
  }
  const std::string_view compressed = data.substr(kHeaderSize);
  if (util::Checksum64(compressed) != zsum) {
    return R::Error(path + ": corrupt data (checksum mismatch)");
  }
  std::string raw;
  if (const util::Status s = Decompress(compressed, raw_len, raw); !s.ok()) {
    return R::Error(path + ": corrupt data (decompression failed: " + s.error() + ")");
  }
  if (util::Checksum64(raw) != raw_sum) {
    return R::Error(path + ": corrupt data (checksum mismatch after decompression)");
  }
  return ParsePayload(raw, static_cast<rules::RuleSet>(rules_id), static_cast<int>(size),
                      num_samples, num_games, path);
}

std::string GameId::Hex() const { return util::HexString(bytes); }

std::optional<GameId> GameId::FromHex(std::string_view hex) {
  if (hex.size() != 32) return std::nullopt;
  GameId id;
  for (size_t i = 0; i < 32; ++i) {
    const char c = hex[i];
    const int v = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (v < 0) return std::nullopt;
    id.bytes[i / 2] = static_cast<uint8_t>(id.bytes[i / 2] * 16 + v);
  }
  return id;
}

}  // namespace veletas::data
