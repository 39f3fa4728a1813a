#include "tests/play/test_util.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

namespace veletas::play::testing {

Child::Child(const std::vector<std::string>& argv, const std::string& stderr_path) {
  int to_child[2], from_child[2];
  if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) {
    ADD_FAILURE() << "pipe failed";
    return;
  }
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err >= 0) ::dup2(err, 2);
    ::close(to_child[0]);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::close(from_child[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  in_ = to_child[1];
  out_ = from_child[0];
  ::signal(SIGPIPE, SIG_IGN);
}

Child::~Child() {
  CloseInput();
  if (out_ >= 0) ::close(out_);
  if (pid_ > 0) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
}

void Child::Send(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
    if (n <= 0) {
      ADD_FAILURE() << "cannot write to the child: " << text;
      return;
    }
    done += static_cast<size_t>(n);
  }
}

bool Child::Fill(double timeout_s) {
  if (eof_) return false;
  pollfd p{out_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(timeout_s * 1000)) <= 0) return false;
  char buf[4096];
  const ssize_t n = ::read(out_, buf, sizeof buf);
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  buffer_.append(buf, static_cast<size_t>(n));
  return true;
}

std::string Child::ReadUntil(const std::string& marker, double timeout_s, bool eof_ok) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    if (const size_t at = buffer_.find(marker); at != std::string::npos) {
      std::string out = buffer_.substr(0, at + marker.size());
      buffer_.erase(0, at + marker.size());
      return out;
    }
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0 || !Fill(left)) {
      if (!(eof_ok && eof_)) {
        ADD_FAILURE() << "no \"" << marker << "\" in the child's output:\n" << buffer_;
      }
      std::string out;
      out.swap(buffer_);
      return out;
    }
  }
}

std::string Child::ReadToEnd(double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!eof_) {
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      ADD_FAILURE() << "the child did not finish its output";
      break;
    }
    Fill(left);
  }
  std::string out;
  out.swap(buffer_);
  return out;
}

void Child::CloseInput() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

int Child::Wait() {
  if (pid_ <= 0) return -1;
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

RandomGame PlayRandomGame(rules::RuleSet rs, int size, uint64_t seed) {
  util::Rng rng(seed);
  RandomGame g;
  rules::Position p = rules::Position::Initial(rs, size);
  while (!p.IsTerminal()) {
    g.before.push_back(p);
    g.turns.push_back(rules::RandomTurn(p, rng));
    rules::ApplyTurn(p, g.turns.back());
  }
  g.final = p;
  return g;
}

std::string RecordPrefix(const RandomGame& game, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ' ';
    out += rules::TurnToString(game.before[i], game.turns[i]);
  }
  return out;
}

bool HasImmediateWin(const rules::Position& pos, double* fraction) {
  int wins = 0, total = 0;
  rules::ForEachTurn(pos, [&](const rules::Turn& t) {
    rules::Position q = pos;
    rules::ApplyTurn(q, t);
    ++total;
    if (q.IsTerminal() && q.Winner() == pos.ToMove()) ++wins;
  });
  if (fraction != nullptr) *fraction = total > 0 ? static_cast<double>(wins) / total : 0.0;
  return wins > 0;
}

BlunderRecord FindBlunderRecord(uint64_t seed) {
  for (uint64_t s = seed;; ++s) {
    const RandomGame g = PlayRandomGame(rules::RuleSet::kStandard, 7, s);
    for (size_t i = 0; i < g.turns.size(); ++i) {
      const rules::Position& p = g.before[i];
      if (p.Pending() != rules::Decision::kChooseShooter || HasImmediateWin(p)) continue;
      int safe = 0, total = 0;
      std::optional<rules::Turn> blunder;
      rules::ForEachTurn(p, [&](const rules::Turn& t) {
        rules::Position q = p;
        rules::ApplyTurn(q, t);
        ++total;
        if (q.IsTerminal()) return;  // not safe: the opponent won on this shot
        double fraction = 0;
        if (!HasImmediateWin(q, &fraction)) {
          ++safe;
        } else if (fraction >= 0.3 && !blunder) {
          blunder = t;
        }
      });
      if (blunder && 2 * safe >= total) {
        BlunderRecord r;
        r.record = RecordPrefix(g, static_cast<int>(i));
        r.record += (i > 0 ? " " : "") + rules::TurnToString(p, *blunder);
        r.moves = static_cast<int>(i) + 1;
        return r;
      }
    }
  }
}

}  // namespace veletas::play::testing
