// The project's one error convention. An operation that can fail returns a `Result<T>` (a
// value or an error) or a `Status` (success or an error); errors are values, never
// exceptions or aborts, and their message names the file, line, key or move and what was
// expected. An error also says what kind it is, which decides a command's exit code: bad
// input (a file, option or move the user can fix: exit 2) or a failure of the machine (a
// full disk, a device error: exit 1).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace veletas::util {

// Bad input (exit code 2) or a runtime failure (exit code 1).
enum class ErrorKind { kBadInput, kFailure };

// The process exit code for an error of `kind`: 2 for bad input, 1 for a failure.
constexpr int ExitCode(ErrorKind kind) { return kind == ErrorKind::kBadInput ? 2 : 1; }

// An error message and its kind; converts to any Result (e.g. `return Error{...}` or when
// passing an error on from a Result of another type with `r.error_value()`).
struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::kBadInput;
};

template <class T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}    // NOLINT: implicit by design
  Result(util::Error e) : data_(std::move(e)) {}  // NOLINT: implicit by design
  // An error caused by bad input (exit code 2).
  static Result Error(std::string message) {
    return Result(util::Error{std::move(message), ErrorKind::kBadInput});
  }
  // An error caused by a runtime failure (exit code 1).
  static Result Failure(std::string message) {
    return Result(util::Error{std::move(message), ErrorKind::kFailure});
  }

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // Precondition: ok().
  const T& value() const { return std::get<0>(data_); }
  T& value() { return std::get<0>(data_); }
  // Precondition: !ok().
  const std::string& error() const { return std::get<1>(data_).message; }
  ErrorKind kind() const { return std::get<1>(data_).kind; }
  const util::Error& error_value() const { return std::get<1>(data_); }
  // The exit code of this error: 2 for bad input, 1 for a failure. Precondition: !ok().
  int exit_code() const { return ExitCode(kind()); }

 private:
  std::variant<T, util::Error> data_;
};

// Success or an error.
using Status = Result<std::monostate>;

// The success value of a Status.
inline Status Ok() { return std::monostate{}; }

// The same error with `prefix` put before its message (e.g. a command or file name).
inline util::Error Prefixed(const util::Error& e, const std::string& prefix) {
  return util::Error{prefix + e.message, e.kind};
}

}  // namespace veletas::util
