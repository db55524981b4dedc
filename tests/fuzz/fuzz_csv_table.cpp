// Fuzz target: the CSV reader (io::parse_csv, the content of read_csv) with a required column.
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return field::fuzz::run([&] {
    const field::io::CsvTable table = field::fuzz::csv_of(data, size, {"t", "x"});
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      table.value(i, "t");
      table.where(i);
    }
  });
}
