// `veletas config --check FILE`: validate a config without running anything.
#include <iostream>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"

namespace veletas::app {
namespace {

int RunConfig(const std::vector<std::string>& argv) {
  auto args = ParseArgs({{"check", true}, {"print", false}}, argv, 0);
  if (!args) return UsageError("config", args.error());
  const auto file = args.value().Value("check");
  if (!file) return UsageError("config", "expected --check FILE");
  auto config = LoadConfig(*file);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  if (args.value().Has("print")) {
    std::cout << config.value().resolved_yaml;
  } else {
    std::cout << *file << ": ok\n";
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(config, "config", "--check FILE [--print]",
                "validate a config file (and print its effective values)", RunConfig);

}  // namespace veletas::app
