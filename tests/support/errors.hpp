#pragma once
// Helpers for tests of error messages (FIELD_CHECK / field::Error, field::IoError).
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>

#include "libfield/core/error.hpp"

namespace field::test {

/// The message of the field::Error thrown by f, without the "[check ... failed at ...]" suffix
/// (which repeats the condition's source text and would name every variable anyway).
inline std::string error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    return what.substr(0, what.find(" [check '"));
  }
  ADD_FAILURE() << "expected field::Error";
  return "";
}

/// The message of the field::IoError thrown by f (a file that cannot be opened, written or
/// renamed); any other outcome fails the test.
inline std::string io_error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const IoError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected field::IoError, got: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected field::IoError";
  return "";
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace field::test
