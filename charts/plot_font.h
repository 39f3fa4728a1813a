// The embedded bitmap font of the chart renderer: printable ASCII (32..126), each glyph 5
// pixels wide and 9 rows tall (rows 0-6 from the cap height down to the baseline, rows 7-8
// for descenders), drawn in a 6 x 10 cell. Designed for this project.
#pragma once

#include <cstdint>

namespace veletas::charts {

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphRows = 9;
inline constexpr int kCellWidth = 6;    // glyph + 1 column of spacing
inline constexpr int kCellHeight = 10;  // glyph + 1 row of spacing

// The rows of the glyph for `c` (top first; bit 4 = leftmost column). Characters outside
// 32..126 show as '?'. Thread-safe (constant data).
const uint8_t* GlyphRows(char c);

}  // namespace veletas::charts
