#include "libfield/io/csv_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"

namespace field::io {

void append_double(std::string& out, double value) {
  char buffer[32];
  char* end;
  // Integral values below 2^53 as integers: "100000", not the "1e+05" of the shortest form.
  // Zero goes through to_chars, which keeps the sign of -0.
  if (value != 0.0 && std::abs(value) < 9007199254740992.0 && value == std::trunc(value))
    end = std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value)).ptr;
  else
    end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;  // shortest round trip
  out.append(buffer, end);
}

std::string format_double(double value) {
  std::string text;
  append_double(text, value);
  return text;
}

CsvWriter::CsvWriter(std::filesystem::path path, std::vector<std::string> columns)
    : path_(std::move(path)), part_(part_path(path_)), columns_(std::move(columns)) {
  FIELD_CHECK(!columns_.empty(), "CSV file '" << path_.string() << "' needs at least one column");
  errno = 0;
  out_.open(part_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw IoError("cannot open '" + part_.string() + "' for writing (for '" + path_.string() +
                  "'): " + last_os_error() +
                  "; check that the output folder exists and is writable");
  open_ = true;
  line_.clear();
  for (size_t k = 0; k < columns_.size(); ++k) {
    if (k > 0) line_ += ',';
    line_ += columns_[k];
  }
  line_ += '\n';
  out_ << line_;
  if (!out_)
    throw IoError("cannot write the header of '" + part_.string() + "': " + last_os_error() +
                  "; check the free space and the permissions of the folder");
}

CsvWriter::~CsvWriter() {
  if (open_) out_.close();  // flushed; path.part stays: the file is incomplete
}

void CsvWriter::row(const std::vector<double>& values) {
  if (!open_) throw IoError("CSV file '" + path_.string() + "' is already closed");
  FIELD_CHECK(values.size() == columns_.size(), "CSV file '" << path_.string() << "': a row of "
                                                             << values.size() << " values for "
                                                             << columns_.size() << " columns");
  line_.clear();
  for (size_t k = 0; k < values.size(); ++k) {
    if (k > 0) line_ += ',';
    append_double(line_, values[k]);
  }
  line_ += '\n';
  errno = 0;
  out_ << line_;
  if (!out_)
    throw IoError("cannot write row " + std::to_string(rows_ + 1) + " of '" + part_.string() +
                  "': " + last_os_error() +
                  "; check the free space and the permissions of the folder");
  ++rows_;
}

void CsvWriter::lines(const std::string& text, long long count) {
  if (!open_) throw IoError("CSV file '" + path_.string() + "' is already closed");
  FIELD_CHECK(
      count >= 0 && (text.empty() ? count == 0 : text.back() == '\n'),
      "CSV file '" << path_.string() << "': " << count << " lines that do not end with a newline");
  errno = 0;
  out_.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out_)
    throw IoError("cannot write rows " + std::to_string(rows_ + 1) + ".." +
                  std::to_string(rows_ + count) + " of '" + part_.string() + "': " +
                  last_os_error() + "; check the free space and the permissions of the folder");
  rows_ += count;
}

void CsvWriter::close() {
  if (!open_) return;
  open_ = false;
  errno = 0;
  out_.flush();
  const bool written = static_cast<bool>(out_);
  out_.close();
  if (!written || !out_)
    throw IoError("cannot write '" + part_.string() + "': " + last_os_error() +
                  "; check the free space and the permissions of the folder");
  commit_file(part_, path_);
}

}  // namespace field::io
