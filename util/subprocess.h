// Running another program (e.g. the Python interpreter that draws the charts) with a time
// limit, its output captured.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "util/result.h"

namespace veletas::util {

// The exit code of a program that cannot be started (not found, not executable), as a
// shell reports it.
constexpr int kCannotRun = 127;

struct ProcessResult {
  int exit_code = 0;        // the exit status; 128 + N when killed by signal N; kCannotRun
  std::string output;       // stdout and stderr together, at most max_output bytes
  bool output_cut = false;  // more output than max_output was discarded
};

struct ProcessOptions {
  double timeout_seconds = 300;  // then the program is killed (SIGKILL) and it is an error
  size_t max_output = 1 << 20;   // bytes of output kept
};

// Runs argv[0] (looked up in PATH unless it contains '/') with the arguments argv[1..],
// without a shell, stdin from /dev/null, and waits for it. A program that cannot be started
// gives exit_code kCannotRun and output "<program>: cannot run: <why>". Errors (failures
// naming the program): argv empty, no pipe, or the program ran past the time limit (it is
// killed). Thread-safe (posix_spawn; no shared state).
Result<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                 const ProcessOptions& options = {});

}  // namespace veletas::util
