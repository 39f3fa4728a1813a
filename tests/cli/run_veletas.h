// Runs the built `veletas` binary (VELETAS_BINARY) as a child process for the command-line
// tests: arguments, standard input, exit code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef VELETAS_BINARY
#error "VELETAS_BINARY must name the veletas executable"
#endif

namespace veletas::cli_test {

struct Output {
  int code = -1;  // exit code (-1 when killed by a signal)
  std::string out, err;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string Quote(const std::string& arg) {
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the binary with `args`, feeding `input` on standard input.
inline Output RunVeletas(const std::vector<std::string>& args, const std::string& input = "") {
  // Unique per process and test: ctest may run the tests in parallel.
  const std::string base = ::testing::TempDir() + "/veletas_cli_" + std::to_string(getpid()) + "_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string in = base + ".in", out = base + ".out", err = base + ".err";
  std::ofstream(in, std::ios::binary) << input;
  std::string command = Quote(VELETAS_BINARY);
  for (const std::string& a : args) command += " " + Quote(a);
  command += " < " + Quote(in) + " > " + Quote(out) + " 2> " + Quote(err);
  const int status = std::system(command.c_str());
  Output o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = ReadFile(out);
  o.err = ReadFile(err);
  for (const std::string& f : {in, out, err}) std::remove(f.c_str());
  return o;
}

}  // namespace veletas::cli_test
