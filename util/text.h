// Small text formats shared by every layer (no fmt: the WebAssembly build compiles util).
#pragma once

#include <string>

namespace veletas::util {

// 100 * part / whole: `part` as a percentage of `whole`; 0 when whole is not positive.
double Percent(double part, double whole);

// A fraction as a percentage with one decimal: 0.573 -> "57.3%".
std::string FormatPercent(double fraction);

}  // namespace veletas::util
