#pragma once
/// Streaming CSV output (docs/output-format.md): a header line, then one line per row, values
/// separated by commas and printed with 17 significant digits (`%.17g`), which reads back to the
/// same double bit for bit; integral values print without a decimal point (3.0 -> "3").
/// The file is written as `path.part` and renamed to `path` by close() (atomic_file.hpp).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace field::io {

/// Formats one value as `%.17g` (shortest form for integers, 17 significant digits otherwise).
std::string format_double(double value);

class CsvWriter {
 public:
  /// Opens `path.part` and writes the header. Throws field::IoError (naming the path and the OS
  /// reason) when it cannot be opened, field::Error when `columns` is empty.
  CsvWriter(std::filesystem::path path, std::vector<std::string> columns);
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  /// Closes (and renames) the file if close() was not called; never throws (a failure is lost:
  /// call close() to see it).
  ~CsvWriter();

  /// Appends one row; throws field::Error when values.size() differs from the number of columns,
  /// field::IoError when the stream fails (disk full, ...) or the writer is closed.
  void row(const std::vector<double>& values);
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
