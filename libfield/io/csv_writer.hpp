#pragma once
/// Streaming CSV output (docs/output-format.md): a header line, then one line per row, values
/// separated by commas and printed in the shortest form that reads back to the same double bit
/// for bit (std::to_chars); integral values below 2^53 print as integers (3.0 -> "3").
/// The file is written as `path.part` and renamed to `path` by close() (atomic_file.hpp).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace field::io {

/// Appends `value` to `out`: an integral value below 2^53 in magnitude as an integer ("3",
/// "100000", "-0" for negative zero), any other the shortest text that strtod reads back to the
/// same bits ("0.1", "1e-05", "0.30000000000000004", "1e+22", "inf", "nan").
void append_double(std::string& out, double value);
/// append_double into a new string.
std::string format_double(double value);

class CsvWriter {
 public:
  /// Opens `path.part` and writes the header. Throws field::IoError (naming the path and the OS
  /// reason) when it cannot be opened, field::Error when `columns` is empty.
  CsvWriter(std::filesystem::path path, std::vector<std::string> columns);
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  /// Without close() (an exception unwound the run) the data written so far stays in
  /// `path.part`, flushed but not renamed: kept, and not mistaken for a complete file. Never
  /// throws.
  ~CsvWriter();

  /// Appends one row; throws field::Error when values.size() differs from the number of columns,
  /// field::IoError when the stream fails (disk full, ...) or the writer is closed.
  void row(const std::vector<double>& values);
  /// Appends `count` complete lines formatted by the caller (values with append_double, one per
  /// column, separated by commas; `text` ends with a newline): the fast path of writers that
  /// format a whole slab at once. Throws like row().
  void lines(const std::string& text, long long count);
  /// Flushes, closes and renames `path.part` to `path`. Idempotent. Throws field::IoError.
  void close();

  const std::filesystem::path& path() const { return path_; }
  const std::vector<std::string>& columns() const { return columns_; }
  /// Number of data rows written so far.
  long long rows() const { return rows_; }
  bool is_open() const { return open_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path part_;
  std::vector<std::string> columns_;
  std::ofstream out_;
  std::string line_;  // reused buffer of one line
  long long rows_ = 0;
  bool open_ = false;
};

}  // namespace field::io
