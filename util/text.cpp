#include "util/text.h"

#include <cstdio>

namespace veletas::util {

double Percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

std::string FormatPercent(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
  return buf;
}

}  // namespace veletas::util
