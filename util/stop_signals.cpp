#include "util/stop_signals.h"

#include <csignal>

namespace veletas::util {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void OnStopSignal(int) { g_stop = true; }

}  // namespace

StopSignals::StopSignals() {
  g_stop = false;
  previous_int_ = std::signal(SIGINT, OnStopSignal);
  previous_term_ = std::signal(SIGTERM, OnStopSignal);
}

StopSignals::~StopSignals() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

const std::atomic<bool>* StopSignals::Flag() const { return &g_stop; }

}  // namespace veletas::util
