// Fuzz target: tip data (io::tip_on_grid, the content of read_tip) on a grid of 11 rows.
#include "libfield/io/tip_data.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return field::fuzz::run([&] {
    const field::io::CsvTable table = field::fuzz::csv_of(data, size, field::io::tip_columns());
    field::io::tip_on_grid(table, 0.01, 10);
  });
}
