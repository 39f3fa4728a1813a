#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <thread>

#include "util/clock.h"

extern char** environ;

namespace veletas::util {
namespace {

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() { Close(); }
  void Close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// Waits for `pid` until `deadline`: its exit status, or 128 + the signal that ended it;
// nothing when it is still running then.
std::optional<int> WaitUntil(pid_t pid, SteadyClock::time_point deadline) {
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) return 255;  // not our child any more: nothing to wait for
    if (done == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
      continue;  // stopped or continued: keep waiting
    }
    if (SteadyClock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Reads `fd` until end of file or `deadline`; false on timeout.
bool ReadAll(int fd, SteadyClock::time_point deadline, const ProcessOptions& o, ProcessResult& r) {
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return true;  // cannot wait on it: take what we have
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    const size_t room = o.max_output - std::min(o.max_output, r.output.size());
    r.output.append(buffer, std::min(room, static_cast<size_t>(n)));
    if (static_cast<size_t>(n) > room) r.output_cut = true;
  }
}

}  // namespace

Result<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                 const ProcessOptions& options) {
  using R = Result<ProcessResult>;
  if (argv.empty()) return R::Failure("RunProcess: no program given");
  const std::string& program = argv[0];
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return R::Failure(program + ": cannot create a pipe: " + std::strerror(errno));
  }
  Fd read_end{fds[0]}, write_end{fds[1]};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned =
      ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return ProcessResult{kCannotRun, program + ": cannot run: " + std::strerror(spawned), false};
  }
  write_end.Close();  // the child holds the only write end now: end of file when it exits

  ProcessResult result;
  const SteadyClock::time_point deadline =
      SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                               std::chrono::duration<double>(options.timeout_seconds));
  std::optional<int> exit_code;
  if (ReadAll(read_end.fd, deadline, options, result)) exit_code = WaitUntil(pid, deadline);
  if (!exit_code) {
    ::kill(pid, SIGKILL);
    WaitUntil(pid, SteadyClock::time_point::max());
    return R::Failure(program + ": still running after " +
                      std::to_string(static_cast<long long>(options.timeout_seconds)) +
                      " s; stopped");
  }
  result.exit_code = *exit_code;
  return result;
}

}  // namespace veletas::util
