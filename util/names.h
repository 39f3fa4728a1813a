// Checks of the text that becomes part of a file name or is stored in the project's JSON
// files: names chosen by users (match names, sample file prefixes) must stay inside their
// directory, and paths stored in JSON must be valid UTF-8 (JSON text is UTF-8; a path that
// is not cannot be stored so that it reads back the same).
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::util {

// Longest name ValidateName accepts.
inline constexpr size_t kMaxNameLength = 200;

// The project's one name check. Ok when `name` can be used as (part of) a file name in a
// directory of the project or a Redis key: 1 to `max_length` characters, letters, digits,
// '_', '-' and '.', not starting with '.' (so never "..", never a path). Else bad input
// saying why, starting with `what` (e.g. "match name \"a/b\" has '/' (allowed: letters,
// digits, '_', '-', '.')"); the name is quoted with its bytes escaped.
Status ValidateName(std::string_view name, std::string_view what,
                    size_t max_length = kMaxNameLength);

// True when `text` is valid UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool IsValidUtf8(std::string_view text);

// Ok when `path` is valid UTF-8, else bad input naming it (its bytes escaped) and `what` it
// is, e.g. "--model \"g\\xE9.ckpt\": the path is not valid UTF-8 (byte 0xE9 at offset 1);
// rename it".
Status CheckUtf8Path(const std::string& path, std::string_view what);

// `text` with every byte outside printable ASCII written as \xHH (for messages).
std::string EscapedBytes(std::string_view text);

}  // namespace veletas::util
