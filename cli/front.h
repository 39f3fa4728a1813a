// The split of the app into two executables: `veletas`, the front (the commands without a
// network, no LibTorch), and `veletas-full` (every command), which the front executes for the
// others. The front knows every command from a catalogue that veletas-full writes at build
// time (CatalogueSource).
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace veletas::cli {

// Whether the command line `argv` names a command (or part, or its help) that `catalogue`
// (every command and part of the app) lists but `here` (the ones this executable runs) does
// not. A command with parts that runs here still goes to the full app for its help, which
// lists every part. No command, an unknown one, or `help` alone: false (answered here).
bool NeedsFull(int argc, char** argv, const std::vector<Command>& here,
               const std::vector<Command>& catalogue);

// The C++ source of FrontCatalogue() listing `commands` (their names, summaries and parents;
// no setup: the front runs them through veletas-full).
std::string CatalogueSource(const std::vector<Command>& commands);

// Every command and part of veletas-full: defined by the source CatalogueSource wrote, which
// only the front is built with.
const std::vector<Command>& FrontCatalogue();

}  // namespace veletas::cli
