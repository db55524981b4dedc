#pragma once
/// Streaming CSV output (docs/output-format.md): a header line, then one line per row, values
/// separated by commas and printed in the shortest form that reads back to the same double bit
/// for bit (number_text.hpp); integral values below 2^53 print as integers (3.0 -> "3").
/// The file is written as `path.part` and renamed to `path` by close() (atomic_file.hpp). Lines
/// are collected in a buffer and written out by one write(2) per 64 KiB, or when the last write
/// is 0.1 s old (a slow run's `path.part` follows the run); a slab larger than 64 KiB is one
/// write (docs/performance.md, "Whole runs"). With CsvWrites::behind (field.csv: hundreds of MB)
/// the writes, of 256 KiB, run on a thread of their own (write_behind.hpp) while the next buffer
/// is filled; a failed write is then reported by the next one or by close(), with the same
/// message (the rows of the buffer that failed).
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "libfield/core/coarse_clock.hpp"
#include "libfield/core/error.hpp"
#include "libfield/io/number_text.hpp"
#include "libfield/io/write_behind.hpp"

namespace field::io {

/// Appends write_double's text to `out`.
void append_double(std::string& out, double value);
/// append_double into a new string.
std::string format_double(double value);

/// Where the buffer's write(2) calls run: on the calling thread, or behind it (write_behind.hpp).
enum class CsvWrites { here, behind };

class CsvWriter {
 public:
  /// Opens `path.part` and writes the header. Throws field::IoError (naming the path and the OS
  /// reason) when it cannot be opened, field::Error when `columns` is empty.
  CsvWriter(std::filesystem::path path, std::vector<std::string> columns,
            CsvWrites writes = CsvWrites::here);
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  /// Without close() (an exception unwound the run) the data written so far stays in
  /// `path.part`, written out but not renamed: kept, and not mistaken for a complete file. Never
  /// throws.
  ~CsvWriter();

  /// Appends one row; throws field::Error when the number of values differs from the number of
  /// columns, field::IoError when a write fails (disk full, ...) or the writer is closed.
  void row(const std::vector<double>& values) { row(values.data(), values.size()); }
  void row(std::initializer_list<double> values) { row(values.begin(), values.size()); }
  void row(const double* values, std::size_t count);

  /// Appends `count` complete lines formatted by the caller: the fast path of writers that format
  /// a whole slab at once. `format(char* out)` writes at most `max_chars` characters at `out`
  /// (values by write_double, one per column, separated by commas, each line ending with a
  /// newline) and returns their end. Throws like row().
  template <class Format>
  void lines(long long count, std::size_t max_chars, Format&& format) {
    char* out = room(max_chars);
    const char* end = format(out);
    end_lines(out, end, count, max_chars);
  }

  /// Writes out the buffer, closes and renames `path.part` to `path`. Idempotent. Throws
  /// field::IoError.
  void close();

  const std::filesystem::path& path() const { return path_; }
  const std::vector<std::string>& columns() const { return columns_; }
  /// Number of data rows written so far.
  long long rows() const { return rows_; }
  bool is_open() const { return open_; }

 private:
  /// The free end of the buffer with room for `chars` more characters (writes the buffer out or
  /// grows it first). Throws when the writer is closed.
  char* room(std::size_t chars);
  /// Checks and keeps the `count` lines written at [begin, end); writes the buffer out when it
  /// holds 64 KiB or more or the last write is 0.1 s old.
  void end_lines(const char* begin, const char* end, long long count, std::size_t max_chars);
  /// One write(2) (repeated after a partial write) of the whole buffer. Returns false with errno
  /// set when it fails.
  bool write_buffer();
  /// write_buffer(), or hands the buffer to behind_ and takes the spare one; or an IoError naming
  /// the rows that were lost.
  void write_buffer_or_throw(long long last_row);
  /// behind_'s write in flight waited for; an IoError naming its rows when it (or one before it)
  /// failed.
  void wait_behind();
  /// The IoError of rows first..last that could not be written, with errno's reason.
  IoError rows_error(long long first, long long last) const;

  std::filesystem::path path_;
  std::filesystem::path part_;
  std::vector<std::string> columns_;
  int fd_ = -1;
  std::size_t write_chars_;  // the buffer is written out when it holds this many characters
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0, size_ = 0;
  long long rows_ = 0;
  long long buffered_from_ = 1;  // the first row in the buffer (for messages)
  CoarseClock::time_point written_at_;
  bool open_ = false;
  // CsvWrites::behind: the buffer being written (swapped with buffer_ at each hand-over), its rows
  // (for messages), and the thread writing it.
  std::unique_ptr<char[]> spare_;
  std::size_t spare_capacity_ = 0;
  long long behind_first_ = 0, behind_last_ = 0;
  std::unique_ptr<WriteBehind> behind_;
};

}  // namespace field::io
