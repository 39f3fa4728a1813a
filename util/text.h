// Small text formats shared by every layer (no fmt: the WebAssembly build compiles util):
// percentages, durations and hex; the closest name for suggestions; trimming a line.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace veletas::util {

// 100 * part / whole: `part` as a percentage of `whole`; 0 when whole is not positive.
double Percent(double part, double whole);

// A fraction as a percentage with one decimal: 0.573 -> "57.3%".
std::string FormatPercent(double fraction);

// A duration for people: "1h02m", "3m07s", "12s" (rounded to the second); "?" when negative
// (unknown). The one duration format of the project.
std::string FormatDuration(double seconds);

// `bytes` as lower-case hex, two digits a byte, in order: {0x0f, 0xa0} -> "0fa0". The one
// byte-to-hex format of the project (SHA-256 digests, game ids).
std::string HexString(std::span<const uint8_t> bytes);

// The name among `names` closest to `word` by edit distance (Levenshtein), when at most 1
// edit apart for words of up to 3 characters, else at most max(2, a third of the word);
// "" when none is that close. For "did you
// mean" suggestions.
std::string ClosestName(const std::string& word, const std::vector<std::string>& names);

// `text` without the spaces, tabs and line ends around it.
std::string Trim(const std::string& text);

}  // namespace veletas::util
