// Fuzz target: the mechanics case parser (io::parse_mechanics_case, the text of
// load_mechanics_case): the shared TOML table reader (io/toml_table) on the keys of
// `field mechanics`.
#include "libfield/io/mechanics_case.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return field::fuzz::run([&] {
    field::io::parse_mechanics_case(field::fuzz::text_of(data, size), "/fuzz/case.toml");
  });
}
