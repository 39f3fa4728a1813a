// Match records and arena journals (arena/match_record.h, arena/arena_journal.h): the first
// byte picks a match record (RUN/matches/NAME.json) or the games of a match journal
// (NAME.json.part, after a header line that matches), and the rest is read as that.
// Property: a record that reads back is written as JSON that reads back the same.
#include <nlohmann/json.hpp>

#include "arena/arena_journal.h"
#include "arena/match_record.h"
#include "fuzz/fuzz_util.h"
#include "util/json.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view rest = fuzz::Text(data + 1, size - 1);
  if (data[0] % 2 == 0) {
    const auto j = util::ParseJson(rest, "fuzz.json");
    if (!j) return 0;
    const auto record = arena::MatchRecordFromJson(j.value(), "fuzz.json");
    if (record) {
      const auto again =
          arena::MatchRecordFromJson(arena::MatchRecordToJson(record.value()), "again.json");
      fuzz::Require(again.ok() && again.value().games.size() == record.value().games.size(),
                    "a record written does not read back the same");
    }
  } else {
    const std::string header = "{\"journal\":1}";
    std::vector<arena::ArenaGame> games;
    std::vector<std::string> notes;
    const size_t good =
        arena::ParseMatchJournal(header + "\n" + std::string(rest), header,
                                 rules::RuleSet::kStandard, 7, "fuzz.json.part", games, notes);
    fuzz::Require(good >= header.size() + 1 && good <= header.size() + 1 + rest.size(),
                  "the good part is not a prefix of the journal");
  }
  return 0;
}
