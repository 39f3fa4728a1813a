// Game records and notation (rules/notation.h): PlayRecord, ParseTurn and
// PositionFromDiagram on any text. The first byte picks the rule set and the board size.
// Property: a record that reads back is written (RecordToString) as one that reads back to
// the same final position.
#include "fuzz/fuzz_util.h"
#include "rules/notation.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const rules::RuleSet rs = (data[0] & 1) ? rules::RuleSet::kClassic : rules::RuleSet::kStandard;
  constexpr int kSizes[] = {7, 9, 10};
  const int n = kSizes[(data[0] >> 1) % 3];
  const std::string_view text = fuzz::Text(data + 1, size - 1);
  const util::Result<rules::Game> game = rules::PlayRecord(rs, n, text);
  if (game) {
    const util::Result<rules::Game> again =
        rules::PlayRecord(rs, n, rules::RecordToString(game.value()));
    fuzz::Require(again.ok() && again.value().final == game.value().final,
                  "a record read back differs");
  }
  (void)rules::ParseTurn(rules::Position::Initial(rs, n), text);
  (void)rules::PositionFromDiagram(rs, text, rules::Color::kBlack);
  return 0;
}
