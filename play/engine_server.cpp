// ServeEngine: the engine protocol on streams, with streaming analysis on a second thread
// while the next command line is awaited. Native builds only (the WebAssembly page has no
// threads; web/wasm leaves this file out).
#include <atomic>
#include <istream>
#include <ostream>
#include <thread>

#include "play/engine_protocol.h"

namespace veletas::play {
namespace {

// Runs `engine`'s stream on a thread of its own, writing its updates to `out`, until the
// stream ends or Stop() is called.
class StreamRunner {
 public:
  StreamRunner(EngineProtocol& engine, std::ostream& out) : engine_(engine), out_(out) {}
  ~StreamRunner() { Stop(); }

  // Starts the thread when the engine streams and no thread runs.
  void StartIfStreaming() {
    if (!engine_.Streaming() || thread_.joinable()) return;
    stop_ = false;
    thread_ = std::thread([this] {
      while (!stop_ && engine_.Streaming()) {
        const std::string text = engine_.StreamStep();
        if (!text.empty()) out_ << text << std::flush;
      }
    });
  }
  // Waits for the thread to finish its chunk and stop; the stream stays open (the engine's
  // next Handle ends it).
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  EngineProtocol& engine_;
  std::ostream& out_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Reads one line of `in` into `line`, keeping at most kMaxEngineLine + 1 characters of it;
// false at the end of the input.
bool ReadLine(std::istream& in, std::string& line) {
  line.clear();
  bool got = false;
  for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
    got = true;
    if (c == '\n') break;
    if (line.size() <= kMaxEngineLine) line += static_cast<char>(c);
  }
  return got;
}

}  // namespace

void ServeEngine(EngineProtocol& engine, std::istream& in, std::ostream& out) {
  StreamRunner runner(engine, out);
  std::string line;
  while (!engine.Finished()) {
    const bool got = ReadLine(in, line);
    runner.Stop();  // the engine is this thread's again
    if (!got) break;
    std::string response;
    if (line.size() > kMaxEngineLine) {
      response = engine.StopStream() + "? line longer than " + std::to_string(kMaxEngineLine) +
                 " bytes\n\n";
    } else {
      response = engine.Handle(line);
    }
    if (!response.empty()) out << response << std::flush;
    runner.StartIfStreaming();  // a new stream, or one that a blank line did not end
  }
  out << engine.StopStream() << std::flush;
}

}  // namespace veletas::play
