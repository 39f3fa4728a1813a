#include "util/names.h"

#include <cstdint>
#include <cstdio>

namespace veletas::util {
namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (text.size() - i < n) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  if (overlong || surrogate || cp > 0x10FFFF) return 0;
  return n;
}

// The offset of the first byte that is not valid UTF-8, or text.size().
size_t FirstInvalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) return i;
    i += n;
  }
  return text.size();
}

}  // namespace

Status ValidateName(std::string_view name, std::string_view what, size_t max_length) {
  const std::string quoted = "\"" + EscapedBytes(name.substr(0, 80)) + "\"";
  const std::string who(what);
  if (name.empty()) return Status::Error(who + " is empty");
  if (name.size() > max_length) {
    return Status::Error(who + " " + quoted + " is longer than " + std::to_string(max_length) +
                         " characters (" + std::to_string(name.size()) + ")");
  }
  if (name[0] == '.') return Status::Error(who + " " + quoted + " starts with '.'");
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) {
      return Status::Error(who + " " + quoted + " has '" + EscapedBytes(std::string_view(&c, 1)) +
                           "' (allowed: letters, digits, '_', '-', '.')");
    }
  }
  return Ok();
}

bool IsValidUtf8(std::string_view text) { return FirstInvalidUtf8(text) == text.size(); }

Status CheckUtf8Path(const std::string& path, std::string_view what) {
  const size_t bad = FirstInvalidUtf8(path);
  if (bad == path.size()) return Ok();
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X",
                static_cast<unsigned>(static_cast<uint8_t>(path[bad])));
  return Status::Error(std::string(what) + " \"" + EscapedBytes(path) +
                       "\": the path is not valid UTF-8 (byte " + byte + " at offset " +
                       std::to_string(bad) +
                       "), so it cannot be stored in the run's JSON files; rename it");
}

std::string EscapedBytes(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto b = static_cast<uint8_t>(c);
    if (b >= 0x20 && b < 0x7F && c != '\\') {
      out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(b));
      out += hex;
    }
  }
  return out;
}

}  // namespace veletas::util
