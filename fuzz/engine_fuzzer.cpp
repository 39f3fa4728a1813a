// Engine protocol command streams (play/engine_protocol.h): the input as the lines a GUI
// sends to `veletas engine --uct`, served by ServeEngine. Searches are bounded by a small
// tree (setoption max_nodes is kept from changing it) and lines asking for a time budget are
// left out, so that every input runs in milliseconds.
#include <sstream>

#include "fuzz/fuzz_util.h"
#include "play/engine_protocol.h"
#include "play/turn_search.h"

using namespace veletas;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string commands;
  std::istringstream lines{std::string(fuzz::Text(data, size))};
  for (std::string line; std::getline(lines, line);) {
    if (line.find("max_nodes") == std::string::npos && line.find("time") == std::string::npos) {
      commands += line + "\n";
    }
  }
  std::unique_ptr<play::TurnSearcher> searcher = play::TurnSearcher::Uct(1.0f, 1);
  searcher->SetMaxNodes(500);
  play::EngineSetup setup;
  setup.searcher = searcher.get();
  setup.visits = 50;
  play::EngineProtocol engine(setup);
  std::istringstream in(commands);
  std::ostringstream out;
  play::ServeEngine(engine, in, out);
  return 0;
}
