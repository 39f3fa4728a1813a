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

#include "cli/app.h"
#include "cli/front.h"

namespace veletas::app {
namespace {

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
  namespace cli = veletas::cli;
  if (cli::NeedsFull(argc, argv, cli::Commands(), cli::FrontCatalogue())) {
    return veletas::app::ExecFull(argv);
  }
  return cli::RunApp(argc, argv, cli::FrontCatalogue());
}
