// A fresh temporary directory for one test (header-only; every test binary uses it).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace veletas::test_support {

// A fresh, empty directory under the system's temporary directory, named after the running
// test, `tag`, the process and a counter (so parallel test processes never share one), and
// removed with its contents at destruction. Construction is thread-safe.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "") {
    static std::atomic<int> count{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string test =
        info ? std::string(info->test_suite_name()) + "_" + info->name() : "none";
    path_ = std::filesystem::temp_directory_path() /
            ("veletas_" + test + (tag.empty() ? "" : "_" + tag) + "_" + std::to_string(::getpid()) +
             "_" + std::to_string(count++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& Path() const { return path_; }
  std::string Str() const { return path_.string(); }
  // The path of `name` inside the directory.
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace veletas::test_support
