// The command line of `veletas`, shared by its two executables: `veletas` (the front, without
// LibTorch: the rules commands, config --check, help and the rules bench run in it, the
// others in `veletas-full`, which it executes) and `veletas-full` (every command). See
// app/main_front.cpp, app/main.cpp and cli/front.h.
#pragma once

#include <vector>

#include "cli/command.h"

namespace veletas::cli {

// Parses `argv` and runs the registered command (or part) it names; `veletas help`, unknown
// commands and options (with a "did you mean" suggestion) and usage errors (exit 2) are
// answered here. `catalogue` lists every command and part of the whole app (for the grouped
// help and the suggestions); in veletas-full it is Commands().
int RunApp(int argc, char** argv, const std::vector<Command>& catalogue);

}  // namespace veletas::cli
