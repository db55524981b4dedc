// Fuzz target: the case-file parser (io::parse_case, the text of load_case) and, for every case it
// accepts, the round trip through write_case (run.toml) that must load back.
#include <sstream>

#include "libfield/io/case_file.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return field::fuzz::run([&] {
    const std::filesystem::path file = "/fuzz/case.toml";
    const field::io::CaseSpec spec = field::io::parse_case(field::fuzz::text_of(data, size), file);
    std::ostringstream resolved;
    field::io::write_case(resolved, spec);
    try {
      field::io::parse_case(resolved.str(), file);
    } catch (const field::Error& e) {
      // A case that loads must write a run.toml that loads too: a bug, not an input error.
      throw std::logic_error(std::string("write_case output does not load back: ") + e.what());
    }
  });
}
