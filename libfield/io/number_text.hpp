#pragma once
/// The text of a number in the output files (docs/output-format.md): an integral double below 2^53
/// as an integer, any other double in the shortest form that strtod reads back to the same bits,
/// byte for byte what std::to_chars(first, last, value) writes, only faster: the shortest digits
/// come from Dragonbox (libfmt), the choice between fixed and scientific notation is
/// std::to_chars's (the shorter, fixed on a tie). Values whose shortest form std::to_chars pads
/// with exact digits (magnitudes of 2^53 and above), zeros, infinities and NaN go to std::to_chars
/// itself. tests/io/test_number_text.cpp compares both on millions of values;
/// bench/bench_output.cpp times them (docs/performance.md, "Whole runs").
#include <cstddef>

namespace field::io {

/// The most characters write_double writes: "-2.2250738585072014e-308".
inline constexpr std::size_t kMaxDoubleChars = 24;

/// Writes `value` at `out` and returns the end: an integral value below 2^53 in magnitude as an
/// integer ("3", "100000", "-0" for negative zero), any other the shortest text that strtod reads
/// back to the same bits ("0.1", "1e-05", "0.30000000000000004", "1e+22", "inf", "nan").
/// write_double and write_shortest may write all kMaxDoubleChars bytes at `out` (the text, then
/// scratch bytes for the caller to overwrite or ignore), never more.
char* write_double(char* out, double value);
/// Writes the `count` values by write_double, separated by commas, the last followed by `end`
/// (a line of a CSV file with end = '\n'), and returns the end: one call for the whole list.
/// Room: count (kMaxDoubleChars + 1) characters.
char* write_doubles(char* out, const double* values, std::size_t count, char end);
/// Writes the shortest round-trip text of `value`: the bytes of std::to_chars(out, out + 24,
/// value) (no integer rule: 100000.0 -> "1e+05").
char* write_shortest(char* out, double value);
/// Writes the integer `value` at `out` (room for 20 characters) and returns the end.
char* write_integer(char* out, long long value);

}  // namespace field::io
