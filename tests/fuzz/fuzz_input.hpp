#pragma once
// Shared by the fuzz targets (tests/fuzz/README.md): the libFuzzer entry point's signature and the
// rule that a target only reads its input. An input error (field::Error, field::IoError) is the
// expected answer to a bad input; anything else that escapes (another exception, a crash, a
// sanitizer report, a hang) is a bug. A target writes no file and never calls exit.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace field::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// The CSV reader on the input, as it runs on a file's content.
inline io::CsvTable csv_of(const std::uint8_t* data, std::size_t size,
                           const std::vector<std::string>& required) {
  std::istringstream in(text_of(data, size));
  return io::parse_csv(in, "fuzz.csv", required);
}

/// Runs `body`; input errors are expected and swallowed, everything else propagates.
template <class Body>
int run(Body body) {
  try {
    body();
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace field::fuzz
