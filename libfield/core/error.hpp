#pragma once
/// Error handling: FIELD_CHECK (always on, user and input errors, throws field::Error with the
/// source location and the offending values) and FIELD_ASSERT (debug builds only, programmer
/// errors).
#include <sstream>
#include <stdexcept>
#include <string>

namespace field {

/// Invalid input (exit code 4 of the `field` program); thrown by FIELD_CHECK. what() holds a
/// complete, human-readable message.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A file could not be read, written or renamed (as opposed to a file whose content is invalid,
/// which is an Error). The `field` program exits with code 5 for it (docs/cli.md).
class IoError : public Error {
 public:
  explicit IoError(const std::string& message) : Error(message) {}
};

namespace detail {
[[noreturn]] void throw_error(const char* file, int line, const char* condition,
                              const std::string& message);
}  // namespace detail

}  // namespace field

/// Always-on check: `FIELD_CHECK(dt > 0, "dt must be positive, got " << dt);`
#define FIELD_CHECK(cond, msg)                                                            \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::ostringstream field_check_stream_;                                             \
      field_check_stream_ << msg;                                                         \
      ::field::detail::throw_error(__FILE__, __LINE__, #cond, field_check_stream_.str()); \
    }                                                                                     \
  } while (false)

#ifndef NDEBUG
#define FIELD_ASSERT(cond, msg) FIELD_CHECK(cond, msg)
#else
#define FIELD_ASSERT(cond, msg) \
  do {                          \
  } while (false)
#endif
