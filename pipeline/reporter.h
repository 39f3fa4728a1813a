// Where the pipeline reports: a progress text that replaces itself (a status line) and the
// summary lines of the run (each also appended to RUN_DIR/logs/pipeline.log by the pipeline).
#pragma once

#include <string>

namespace veletas::pipeline {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // The state of the stage in progress (one line, no newline); the next call replaces it.
  virtual void Progress(const std::string& text) = 0;
  // A line of the run's log (a stage summary, a note).
  virtual void Line(const std::string& line) = 0;
  // How often self-play progress is worth reporting, in seconds.
  virtual double ProgressSeconds() const = 0;
};

}  // namespace veletas::pipeline
