// `veletas-full`: the whole app, every command (the `veletas` front executes it for the
// commands that need LibTorch; app/main_front.cpp). `veletas-full --write-catalogue FILE`
// writes the C++ list of its commands and parts that the front is built with.
#include <cstring>
#include <iostream>

#include "cli/app.h"
#include "cli/front.h"
#include "util/atomic_file.h"
#include "util/host.h"

int main(int argc, char** argv) {
  namespace cli = veletas::cli;
  namespace util = veletas::util;
  if (argc == 3 && std::strcmp(argv[1], "--write-catalogue") == 0) {
    const util::Status s = util::WriteFileAtomic(argv[2], cli::CatalogueSource(cli::Commands()));
    if (!s.ok()) std::cerr << "veletas-full: " << s.error() << "\n";
    return s.ok() ? 0 : 1;
  }
  util::UsePassiveOpenMpWaiting(argv);
  return cli::RunApp(argc, argv, cli::Commands());
}
