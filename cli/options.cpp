#include "cli/options.h"

#include <iostream>
#include <iterator>

#include "model/base/net_config.h"
#include "rules/notation.h"

namespace veletas::cli {

CLI::Option* Required(CLI::Option* option) { return option->required()->default_str(""); }

void AddGameOptions(CLI::App& cmd, GameArgs& game, const std::string& fallback) {
  cmd.add_option("--rules", game.rules, "rule edition (default: " + fallback + ")")
      ->check(CLI::IsMember({"standard", "classic"}));
  // Checked before the conversion to a number, so that "7x7" is told what is expected.
  cmd.add_option("--size", game.size, "board size (default: " + fallback + ")")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            if (value == "7" || value == "9" || value == "10") return "";
            return "expected 7, 9 or 10 (the side of the board: 7 for 7x7), got \"" + value + "\"";
          },
          "{7,9,10}"));
}

config::GameConfig ResolveGame(const GameArgs& game, config::GameConfig base) {
  // CLI11 accepted only the names ParseRuleSet knows.
  if (game.rules) base.rules = rules::ParseRuleSet(*game.rules).value_or(base.rules);
  if (game.size) base.size = *game.size;
  return base;
}

CLI::Validator StatusCheck(const std::string& description,
                           std::function<util::Status(const std::string&)> check) {
  return CLI::Validator(
      [check = std::move(check)](std::string& value) {
        const util::Status s = check(value);
        return s.ok() ? std::string() : s.error();
      },
      description);
}

CLI::Option* AddRequiredConfig(CLI::App& cmd, std::string& path, const std::string& help) {
  return Required(cmd.add_option("--config", path, help))->type_name("FILE");
}

void AddConfigOptions(CLI::App& cmd, ConfigArgs& args, bool config_required) {
  CLI::Option* config =
      cmd.add_option("--config", args.config,
                     config_required ? "run configuration (YAML, see configs/)"
                                     : "run configuration (YAML, see configs/; default: "
                                       "every key's default on a 10x10 board)");
  config->type_name("FILE");
  if (config_required) Required(config);
  AddGameOptions(cmd, args.game, "the config's");
  cmd.add_option("--precision", args.precision,
                 "CPU inference precision of the network (default: the config's "
                 "model.inference_precision, auto)")
      ->check(CLI::IsMember(model::kInferencePrecisions));
}

util::Result<config::Config> ConfigFromArgs(const ConfigArgs& args) {
  config::Config config;
  if (args.config) {
    auto loaded = config::LoadConfig(*args.config);
    if (!loaded) return loaded.error_value();
    config = loaded.value();
  } else {
    config.game.size = 10;
  }
  config.game = ResolveGame(args.game, config.game);
  if (args.precision)
    config.model.inference_precision = *model::ParseInferencePrecision(*args.precision);
  return config;
}

int UsageError(const std::string& command, const std::string& message) {
  std::cerr << "veletas " << command << ": " << message << "\n";
  return 2;
}

int CommandError(const std::string& command, const util::Error& error) {
  std::cerr << "veletas " << command << ": " << error.message << "\n";
  return util::ExitCode(error.kind);
}

std::string RecordArgument(const std::optional<std::string>& record) {
  if (record) return *record;
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

}  // namespace veletas::cli
