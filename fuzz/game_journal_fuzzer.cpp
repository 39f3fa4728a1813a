// Journals of sample files (data/game_journal.h): any bytes as the journal of file 0 of a
// standard 7x7 run with 16 games per file. Properties: the good part is a prefix of the
// input, every game taken back has an index of the file and one game.
#include "data/game_journal.h"
#include "fuzz/fuzz_util.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parsed = data::ParseJournal(fuzz::Text(data, size), "fuzz.vzs.part",
                                         rules::RuleSet::kStandard, 7, 0, 16);
  if (!parsed) {  // an entry of another format version: refused with bad input
    fuzz::Require(parsed.exit_code() == 2, "a journal refused other than as bad input");
    return 0;
  }
  const data::JournalContents& read = parsed.value();
  fuzz::Require(read.good_bytes <= size, "the good part is longer than the journal");
  fuzz::Require(read.good_bytes == size || !read.note.empty(), "bytes dropped without a note");
  for (const data::JournalGame& g : read.games) {
    fuzz::Require(g.index < 16 && g.game.games.size() == 1, "a game taken back is not the file's");
  }
  return 0;
}
