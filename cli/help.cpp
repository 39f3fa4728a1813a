#include "cli/help.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "util/text.h"

namespace veletas::cli {
namespace {

// The groups of `veletas help`, in order, with their commands in order.
struct HelpGroup {
  const char* title;
  std::vector<std::string> commands;
};
const std::vector<HelpGroup>& HelpGroups() {
  static const std::vector<HelpGroup> groups = {
      {"Play and analyse", {"play", "engine", "analyse"}},
      {"Train", {"pipeline", "selfplay", "train", "init-model", "export", "report"}},
      {"Evaluate", {"match", "gate", "ladder", "ratings", "pool"}},
      {"Cluster", {"cluster", "worker"}},
      {"Tools", {"moves", "show", "perft", "config"}},
      {"Benchmarks", {"bench"}},
  };
  return groups;
}

}  // namespace

std::string GroupedHelp(const std::vector<Command>& catalogue) {
  std::string out =
      "veletas: Veletas Zero, an AlphaZero-style engine for the game of Veletas\n"
      "Usage: veletas COMMAND [PART] [OPTIONS]\n\n"
      "Quick start: veletas play --size 7   (the shipped 7x7 network in the terminal)\n";
  auto summary = [&](const std::string& name, const char* parent) -> std::string {
    for (const Command& c : catalogue) {
      if (name == c.name && (parent == nullptr) == (c.parent == nullptr) &&
          (parent == nullptr || std::string(parent) == c.parent)) {
        return c.summary;
      }
    }
    return "";
  };
  for (const HelpGroup& g : HelpGroups()) {
    out += std::string("\n") + g.title + ":\n";
    for (const std::string& name : g.commands) {
      if (summary(name, nullptr).empty()) continue;
      out += fmt::format("  {:<20}{}\n", name, summary(name, nullptr));
    }
  }
  std::string parts;
  for (const Command& c : catalogue) {
    if (c.parent != nullptr) {
      parts += fmt::format("  {:<20}{}\n", std::string(c.parent) + " " + c.name, c.summary);
    }
  }
  if (!parts.empty()) out += "\nParts of commands (veletas COMMAND PART):\n" + parts;
  return out +
         "\nveletas COMMAND [PART] --help (or veletas help COMMAND [PART]) lists the options of "
         "COMMAND, their types, ranges and defaults; veletas --version prints the version.\n";
}

std::string CommandSuggestion(const std::string& word, const std::vector<Command>& catalogue) {
  std::vector<std::string> names;
  for (const Command& c : catalogue) {
    if (c.parent == nullptr) names.push_back(c.name);
  }
  names.push_back("help");
  const std::string best = util::ClosestName(word, names);
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

std::string OptionSuggestions(const CLI::App& cli, const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const CLI::Option* o : cli.get_options()) {
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  }
  names.push_back("--help");
  std::string out;
  for (const std::string& a : args) {
    if (a.rfind("--", 0) != 0) continue;
    const std::string word = a.substr(0, a.find('='));
    if (std::find(names.begin(), names.end(), word) != names.end()) continue;  // known
    const std::string best = util::ClosestName(word, names);
    if (!best.empty()) out += (out.empty() ? "" : ", ") + best + " for " + word;
  }
  return out.empty() ? "" : " (did you mean " + out + "?)";
}

std::string HelpGroupOf(const std::string& command) {
  for (const HelpGroup& g : HelpGroups()) {
    if (std::find(g.commands.begin(), g.commands.end(), command) != g.commands.end()) {
      return g.title;
    }
  }
  return "";
}

}  // namespace veletas::cli
