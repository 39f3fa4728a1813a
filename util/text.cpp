#include "util/text.h"

#include <algorithm>

#include <cstdio>

namespace veletas::util {

std::string Trim(const std::string& text) {
  const size_t a = text.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const size_t b = text.find_last_not_of(" \t\r\n");
  return text.substr(a, b - a + 1);
}

double Percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

std::string FormatPercent(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
  return buf;
}

std::string FormatDuration(double seconds) {
  if (!(seconds >= 0)) return "?";
  const long long s = static_cast<long long>(seconds + 0.5);
  char buf[64];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s / 60 % 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%llds", s);
  }
  return buf;
}

std::string HexString(std::span<const uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

std::string ClosestName(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  // Close enough: one edit for words of up to 3 characters, else 2 or a third of the word.
  size_t best_distance = (word.size() <= 3 ? 1 : std::max<size_t>(2, word.size() / 3)) + 1;
  for (const std::string& n : names) {
    // Levenshtein distance, one row at a time.
    std::vector<size_t> row(n.size() + 1);
    for (size_t j = 0; j <= n.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= word.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= n.size(); ++j) {
        const size_t up = row[j];
        row[j] =
            std::min({row[j] + 1, row[j - 1] + 1, diagonal + (word[i - 1] != n[j - 1] ? 1 : 0)});
        diagonal = up;
      }
    }
    if (row[n.size()] < best_distance) {
      best_distance = row[n.size()];
      best = n;
    }
  }
  return best;
}

}  // namespace veletas::util
