// `veletas config --check FILE`: validate a config without running anything.
#include <iostream>
#include <memory>

#include "app/cli.h"
#include "app/command.h"
#include "config/config.h"

namespace veletas::app {
namespace {

struct ConfigOptions {
  std::string file;
  bool print = false;
};

int RunConfig(const ConfigOptions& o) {
  auto config = config::LoadConfig(o.file);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  if (o.print) {
    std::cout << config.value().resolved_yaml;
  } else {
    std::cout << o.file << ": ok\n";
  }
  return 0;
}

CommandRun SetupConfig(CLI::App& cmd) {
  auto o = std::make_shared<ConfigOptions>();
  Required(cmd.add_option("--check", o->file, "the config file to validate"))->type_name("FILE");
  cmd.add_flag("--print", o->print, "print every effective value, defaults included");
  return [o] { return RunConfig(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(config, "config", "validate a config file (and print its effective values)",
                    SetupConfig);

}  // namespace veletas::app
