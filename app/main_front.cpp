// `veletas`: the front of the app. The commands that need no network (moves, show, perft,
// config, bench without a part or with `search`, help) run here, in a process that never
// loads LibTorch or oneDNN, so they answer in milliseconds; every other command is run by
// executing `veletas-full` (beside this executable) with the same arguments, with OpenMP's
// wait policy set to PASSIVE unless the user set one (so veletas-full need not execute
// itself again for it: util/host.h).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "app/app_main.h"

namespace veletas::app {

// Every command and part of veletas-full (generated at build time: app/main.cpp).
const std::vector<Command>& FrontCatalogue();

namespace {

// Whether `commands` holds the command `name` (parent null) or the part `name` of `parent`.
bool Lists(const std::vector<Command>& commands, const std::string& name, const char* parent) {
  for (const Command& c : commands) {
    if (name != c.name) continue;
    if (parent == nullptr ? c.parent == nullptr
                          : c.parent != nullptr && std::strcmp(parent, c.parent) == 0) {
      return true;
    }
  }
  return false;
}

bool Registered(const std::string& name, const char* parent) {
  return Lists(Commands(), name, parent);
}

bool InCatalogue(const std::string& name, const char* parent) {
  return Lists(FrontCatalogue(), name, parent);
}

bool HasParts(const std::string& command) {
  for (const Command& c : FrontCatalogue()) {
    if (c.parent != nullptr && command == c.parent) return true;
  }
  return false;
}

// Whether the command line names a command (or part, or its help) that only veletas-full
// holds.
bool NeedsFull(int argc, char** argv) {
  if (argc < 2) return false;
  std::string command = argv[1];
  int next = 2;
  if (command == "help") {
    if (argc < 3) return false;
    command = argv[2];
    next = 3;
  }
  if (!Registered(command, nullptr)) return InCatalogue(command, nullptr);
  if (!HasParts(command)) return false;
  // A command with parts: its help (which lists them all) and the parts veletas-full holds
  // run there.
  if (next == 3) return true;
  for (int i = next; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  }
  return argc > next && InCatalogue(argv[next], command.c_str()) &&
         !Registered(argv[next], command.c_str());
}

// Executes veletas-full beside this executable with `argv`; returns only on failure.
int ExecFull(char** argv) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::string full = (self.parent_path() / "veletas-full").string();
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
  ::execv(full.c_str(), argv);
  std::cerr << "veletas: " << argv[1] << " runs in veletas-full (the part of the app with "
            << "LibTorch), which could not be started from " << full << ": " << std::strerror(errno)
            << "\n";
  return 1;
}

}  // namespace
}  // namespace veletas::app

int main(int argc, char** argv) {
  if (veletas::app::NeedsFull(argc, argv)) return veletas::app::ExecFull(argv);
  return veletas::app::RunApp(argc, argv, veletas::app::FrontCatalogue());
}
