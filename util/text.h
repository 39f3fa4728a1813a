// Small text formats shared by every layer (no fmt: the WebAssembly build compiles util):
// percentages, durations and hex.
#pragma once

#include <cstdint>
#include <span>
#include <string>

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

}  // namespace veletas::util
