#include "libfield/io/csv_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"

namespace field::io {

namespace {

// One write(2) per 64 KiB: as fast as 1 or 4 MiB writes on tmpfs and ext4 (docs/performance.md,
// "Whole runs"), and little memory per file.
constexpr std::size_t kWriteChars = std::size_t{1} << 16;
// Writes behind in 256 KiB: with 64 KiB buffers the text thread spends a third more time (its
// stores reach lines the writing thread has just read on the other core); 256 KiB to 4 MiB cost
// the same.
constexpr std::size_t kBehindChars = std::size_t{1} << 18;
// The buffer is also written out when the last write is this old, so that `NAME.part` follows a
// slow run (a reader, `field check` of a killed run, sees its rows within about this delay).
constexpr CoarseClock::duration kWriteDelay = std::chrono::milliseconds(100);

}  // namespace

void append_double(std::string& out, double value) {
  char buffer[kMaxDoubleChars];
  out.append(buffer, write_double(buffer, value));
}

std::string format_double(double value) {
  std::string text;
  append_double(text, value);
  return text;
}

CsvWriter::CsvWriter(std::filesystem::path path, std::vector<std::string> columns, CsvWrites writes)
    : path_(std::move(path)),
      part_(part_path(path_)),
      columns_(std::move(columns)),
      write_chars_(writes == CsvWrites::behind ? kBehindChars : kWriteChars) {
  FIELD_CHECK(!columns_.empty(), "CSV file '" << path_.string() << "' needs at least one column");
  errno = 0;
  fd_ = ::open(part_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0)
    throw IoError("cannot open '" + part_.string() + "' for writing (for '" + path_.string() +
                  "'): " + last_os_error() +
                  "; check that the output folder exists and is writable");
  open_ = true;
  std::string header;
  for (size_t k = 0; k < columns_.size(); ++k) {
    if (k > 0) header += ',';
    header += columns_[k];
  }
  header += '\n';
  std::memcpy(room(header.size()), header.data(), header.size());
  size_ += header.size();
  if (!write_buffer()) {
    const std::string reason = last_os_error();
    ::close(fd_);
    fd_ = -1;
    throw IoError("cannot write the header of '" + part_.string() + "': " + reason +
                  "; check the free space and the permissions of the folder");
  }
  if (writes == CsvWrites::behind) behind_ = std::make_unique<WriteBehind>(fd_);
}

CsvWriter::~CsvWriter() {
  if (fd_ < 0) return;
  // Best effort; path.part stays: the file is incomplete. After a failed write behind nothing
  // more is written: the file stays a prefix.
  const bool failed = behind_ && behind_->wait() != 0;
  behind_.reset();
  if (!failed) write_buffer();
  ::close(fd_);
}

void CsvWriter::row(const double* values, std::size_t count) {
  FIELD_CHECK(count == columns_.size(), "CSV file '" << path_.string() << "': a row of " << count
                                                     << " values for " << columns_.size()
                                                     << " columns");
  const std::size_t max_chars = count * (kMaxDoubleChars + 1);
  char* const begin = room(max_chars);
  end_lines(begin, write_doubles(begin, values, count, '\n'), 1, max_chars);
}

char* CsvWriter::room(std::size_t chars) {
  if (!open_) throw IoError("CSV file '" + path_.string() + "' is already closed");
  if (size_ + chars > capacity_) {
    if (size_ > 0) write_buffer_or_throw(rows_);
    if (chars > capacity_) {  // a slab larger than the buffer: grow it
      capacity_ = std::max(chars, write_chars_ + write_chars_ / 4);
      buffer_ = std::make_unique<char[]>(capacity_);
    }
  }
  return buffer_.get() + size_;
}

void CsvWriter::end_lines(const char* begin, const char* end, long long count,
                          std::size_t max_chars) {
  const auto chars = static_cast<std::size_t>(end - begin);
  FIELD_CHECK(end >= begin && chars <= max_chars, "CSV file '" << path_.string() << "': " << chars
                                                               << " characters written for at most "
                                                               << max_chars);
  FIELD_CHECK(
      count >= 0 && (chars == 0 ? count == 0 : end[-1] == '\n'),
      "CSV file '" << path_.string() << "': " << count << " lines that do not end with a newline");
  size_ += chars;
  rows_ += count;
  if (size_ >= write_chars_ || CoarseClock::now() - written_at_ >= kWriteDelay)
    write_buffer_or_throw(rows_);
}

bool CsvWriter::write_buffer() {
  const int error = write_all(fd_, buffer_.get(), size_);
  if (error != 0) {
    errno = error;
    return false;
  }
  size_ = 0;
  buffered_from_ = rows_ + 1;
  written_at_ = CoarseClock::now();
  return true;
}

void CsvWriter::write_buffer_or_throw(long long last_row) {
  if (!behind_) {
    if (!write_buffer()) throw rows_error(buffered_from_, last_row);
    return;
  }
  wait_behind();
  behind_->start(buffer_.get(), size_);
  behind_first_ = buffered_from_;
  behind_last_ = last_row;
  std::swap(buffer_, spare_);
  std::swap(capacity_, spare_capacity_);
  size_ = 0;
  buffered_from_ = rows_ + 1;
  written_at_ = CoarseClock::now();
}

void CsvWriter::wait_behind() {
  const int error = behind_->wait();
  if (error == 0) return;
  errno = error;
  throw rows_error(behind_first_, behind_last_);
}

IoError CsvWriter::rows_error(long long first, long long last) const {
  return IoError("cannot write rows " + std::to_string(first) + ".." + std::to_string(last) +
                 " of '" + part_.string() + "': " + last_os_error() +
                 "; check the free space and the permissions of the folder");
}

void CsvWriter::close() {
  if (!open_) return;
  open_ = false;
  if (behind_) {  // the last write behind, then the rest here
    const int error = behind_->wait();
    behind_.reset();
    if (error != 0) {
      ::close(fd_);
      fd_ = -1;
      errno = error;
      throw rows_error(behind_first_, behind_last_);
    }
  }
  const bool written = write_buffer();
  std::string reason = written ? "" : last_os_error();
  errno = 0;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (written && !closed) reason = last_os_error();
  if (!written || !closed)
    throw IoError("cannot write '" + part_.string() + "': " + reason +
                  "; check the free space and the permissions of the folder");
  commit_file(part_, path_);
}

}  // namespace field::io
