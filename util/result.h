// A value or an error message, for operations that fail on bad input (parsing records,
// reading files). Errors are values, never exceptions or aborts.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace veletas::util {

template <class T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  static Result Error(std::string message) { return Result(ErrorTag{std::move(message)}); }

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // Precondition: ok().
  const T& value() const { return std::get<0>(data_); }
  T& value() { return std::get<0>(data_); }
  // Precondition: !ok().
  const std::string& error() const { return std::get<1>(data_).message; }

 private:
  struct ErrorTag {
    std::string message;
  };
  explicit Result(ErrorTag e) : data_(std::move(e)) {}
  std::variant<T, ErrorTag> data_;
};

}  // namespace veletas::util
