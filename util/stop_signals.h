// Stopping a long command cleanly (self-play, a cluster worker): while a StopSignals lives,
// SIGINT and SIGTERM set its flag, which the command's loop polls, instead of ending the
// process; the handlers from before come back when it ends.
#pragma once

#include <atomic>

namespace veletas::util {

class StopSignals {
 public:
  // Clears the flag and installs the handlers. At most one StopSignals lives at a time (the
  // flag is the process's).
  StopSignals();
  // Restores the handlers that were installed before.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The flag the signals set (e.g. selfplay::SelfplayHooks::stop).
  const std::atomic<bool>* Flag() const;
  // True once SIGINT or SIGTERM has arrived.
  bool Stopped() const { return Flag()->load(); }

 private:
  using Handler = void (*)(int);
  Handler previous_int_;
  Handler previous_term_;
};

}  // namespace veletas::util
