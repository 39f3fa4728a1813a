#include "util/settings_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace veletas::util {
namespace {

// The first of "%.0<conv>", "%.1<conv>", ... that reads back as exactly v ("" if none).
template <class T>
std::string FirstExact(T v, char conv) {
  char text[400];  // the longest fixed form of a double with 17 decimals fits
  const char format[] = {'%', '.', '*', conv, '\0'};
  for (int digits = 0; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, format, digits, static_cast<double>(v));
    if (static_cast<T>(std::strtod(text, nullptr)) == v) return text;
  }
  return "";
}

// The shortest text that reads back as exactly v, fixed or scientific (fixed on a tie), as
// std::to_chars gives it; written with printf because the WebAssembly build's library has
// no floating-point to_chars.
template <class T>
std::string Shortest(T v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  const std::string fixed = FirstExact(v, 'f');
  const std::string scientific = FirstExact(v, 'e');
  if (fixed.empty()) return scientific;
  return scientific.empty() || fixed.size() <= scientific.size() ? fixed : scientific;
}

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}

std::string IntRange(long long lo, long long hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// "<v> is out of range [lo, hi]" with the ends of `ends`, the numbers as T shows them.
template <class T>
std::string OutOfRange(T v, double lo, double hi, Ends ends) {
  const bool open_low = ends == Ends::kOpenLow || ends == Ends::kOpen;
  const bool open_high = ends == Ends::kOpenHigh || ends == Ends::kOpen;
  return Shortest(v) + " is out of range " + (open_low ? "(" : "[") + Shortest(static_cast<T>(lo)) +
         ", " + Shortest(static_cast<T>(hi)) + (open_high ? ")" : "]");
}

bool InRange(double v, double lo, double hi, Ends ends) {
  const bool open_low = ends == Ends::kOpenLow || ends == Ends::kOpen;
  const bool open_high = ends == Ends::kOpenHigh || ends == Ends::kOpen;
  return std::isfinite(v) && (open_low ? v > lo : v >= lo) && (open_high ? v < hi : v <= hi);
}

}  // namespace

std::string FormatSetting(double v) { return Shortest(v); }
std::string FormatSetting(float v) { return Shortest(v); }

void SettingsCheck::Add(std::string line) {
  const std::string_view key = SettingKey(line);
  for (const std::string& e : errors_) {
    if (!key.empty() && SettingKey(e) == key) return;
  }
  errors_.push_back(std::move(line));
}

void SettingsCheck::Fail(std::string_view key, const std::string& what) {
  Add(std::string(key) + ": " + what);
}

SettingsCheck& SettingsCheck::Int(std::string_view key, long long v, long long lo, long long hi) {
  if (v < lo || v > hi) Fail(key, std::to_string(v) + " is out of range " + IntRange(lo, hi));
  return *this;
}

SettingsCheck& SettingsCheck::IntList(std::string_view key, const std::vector<long long>& v,
                                      long long lo, long long hi) {
  for (const long long x : v) Int(key, x, lo, hi);
  return *this;
}

SettingsCheck& SettingsCheck::Real(std::string_view key, double v, double lo, double hi,
                                   Ends ends) {
  if (!InRange(v, lo, hi, ends)) Fail(key, OutOfRange(v, lo, hi, ends));
  return *this;
}

SettingsCheck& SettingsCheck::Real(std::string_view key, float v, double lo, double hi, Ends ends) {
  // The ends in float precision, so that a float setting may equal an end (0.99f > 0.99).
  lo = static_cast<float>(lo);
  hi = static_cast<float>(hi);
  if (!InRange(v, lo, hi, ends)) Fail(key, OutOfRange(v, lo, hi, ends));
  return *this;
}

SettingsCheck& SettingsCheck::That(bool ok, std::string_view key, std::string_view what) {
  if (!ok) Fail(key, std::string(what));
  return *this;
}

SettingsCheck& SettingsCheck::Nested(std::string_view prefix, const Status& nested) {
  if (nested.ok()) return *this;
  const std::string& text = nested.error();
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty()) continue;
    if (prefix.empty()) {
      Add(line);
    } else {
      Add(std::string(prefix) + (SettingKey(line).empty() ? ": " : ".") + line);
    }
  }
  return *this;
}

Status SettingsCheck::Result() const {
  if (errors_.empty()) return Ok();
  std::string text;
  for (const std::string& e : errors_) text += (text.empty() ? "" : "\n") + e;
  return Status::Error(text);
}

std::string_view SettingKey(std::string_view message) {
  const size_t colon = message.find(": ");
  if (colon == 0 || colon == std::string_view::npos) return {};
  for (size_t i = 0; i < colon; ++i) {
    if (!IsKeyChar(message[i])) return {};
  }
  return message.substr(0, colon);
}

}  // namespace veletas::util
