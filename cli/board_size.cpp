#include "cli/board_size.h"

#include <filesystem>
#include <string>

#include "model/base/shipped_networks.h"
#include "rules/geometry.h"
#include "util/text.h"

namespace veletas::cli {
namespace {

// "7, 9 or 10".
std::string SizeList(const std::vector<BoardChoice>& choices) {
  std::string out;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
    out += std::to_string(choices[i].size);
  }
  return out;
}

// The size `answer` names among `choices` ("7" or "7x7", spaces around allowed), or 0.
int ParseChoice(const std::vector<BoardChoice>& choices, const std::string& answer) {
  const std::string word = util::Trim(answer);
  for (const BoardChoice& c : choices) {
    const std::string n = std::to_string(c.size);
    if (word == n || word == n + "x" + n) return c.size;
  }
  return 0;
}

}  // namespace

std::vector<BoardChoice> BoardChoices(rules::RuleSet rules) {
  std::vector<BoardChoice> choices;
  for (int size : {7, 9, 10}) {
    if (!rules::IsSupportedSize(size)) continue;
    const std::filesystem::path dir = std::filesystem::path(model::ShippedNetworksRoot()) /
                                      model::ShippedNetworkName(rules, size);
    std::error_code error;
    choices.push_back(BoardChoice{size, std::filesystem::exists(dir, error)});
  }
  return choices;
}

bool ShouldAskBoardSize(const PlayerArgs& args, bool interactive) {
  return interactive && !args.config.game.size && !args.config.config && !args.model;
}

int AskBoardSize(const std::vector<BoardChoice>& choices, std::istream& in, std::ostream& out) {
  out << "Board sizes:";
  for (const BoardChoice& c : choices) {
    out << "  " << c.size << "x" << c.size
        << (c.shipped ? " (shipped network)" : " (no network shipped: UCT plays)");
  }
  out << "\n";
  std::string line;
  while (true) {
    out << "Board size, " << SizeList(choices) << " (Enter: " << kDefaultBoardSize << "x"
        << kDefaultBoardSize << ")? " << std::flush;
    if (!std::getline(in, line) || util::Trim(line).empty()) return kDefaultBoardSize;
    if (const int size = ParseChoice(choices, line); size != 0) return size;
    out << "expected " << SizeList(choices) << " (the side of the board: 7 for 7x7), got \""
        << util::Trim(line) << "\"\n";
  }
}

}  // namespace veletas::cli
