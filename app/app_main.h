// The command line of `veletas`, shared by its two executables: `veletas` (the front, without
// LibTorch: the rules commands, config --check, help and the rules bench run in it, the
// others in `veletas-full`, which it executes) and `veletas-full` (every command). See
// app/main_front.cpp and app/main.cpp.
#pragma once

#include <string>
#include <vector>

#include "app/command.h"

namespace veletas::app {

// Parses `argv` and runs the registered command (or part) it names; `veletas help`, unknown
// commands and options (with a "did you mean" suggestion) and usage errors (exit 2) are
// answered here. `catalogue` lists every command and part of the whole app (for the grouped
// help and the suggestions); in veletas-full it is Commands().
int RunApp(int argc, char** argv, const std::vector<Command>& catalogue);

// The group of `veletas help` that lists `command` (a command's name, not a part's), or ""
// when none does.
std::string HelpGroupOf(const std::string& command);

}  // namespace veletas::app
