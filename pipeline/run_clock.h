// The clocks of a pipeline run: wall and CPU time, injected so that time budgets are tested
// without waiting.
#pragma once

namespace veletas::pipeline {

// Wall and CPU time of the run's process. Both are monotonic (seconds from an arbitrary
// origin).
class RunClock {
 public:
  virtual ~RunClock() = default;
  virtual double WallSeconds() = 0;
  // CPU time of this process (all threads, user and system).
  virtual double CpuSeconds() = 0;
};

// The process's own clocks: the steady clock and getrusage.
class SystemClock final : public RunClock {
 public:
  double WallSeconds() override;
  double CpuSeconds() override;
};

}  // namespace veletas::pipeline
