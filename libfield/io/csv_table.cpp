#include "libfield/io/csv_table.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "libfield/core/error.hpp"
#include "libfield/io/excerpt.hpp"
#include "libfield/io/input_file.hpp"

namespace field::io {
namespace {

/// Whole rows and column lists in messages: long enough for a tip row at 17 digits.
constexpr std::size_t kLineExcerpt = 400;

std::string trim(const std::string& text) {
  const char* space = " \t\r\n\f\v";
  const std::size_t begin = text.find_first_not_of(space);
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find_last_not_of(space);
  return text.substr(begin, end - begin + 1);
}

/// Fields of one line, split at every comma (no quoting: the files hold numbers), trimmed.
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = line.find(',', begin);
    fields.push_back(trim(line.substr(begin, comma - begin)));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return fields;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

/// strtod over the whole field; false for an empty field or trailing text.
bool parse_double(const std::string& text, double& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  // Overflow gives +-HUGE_VAL (caught as non-finite by the caller); underflow to a denormal or 0
  // is a legitimate tiny number, so ERANGE alone is not an error.
  return end == text.c_str() + text.size();
}

/// Text that is not what a CSV reader can take, with what to do: UTF-16 (whose NUL bytes cut the
/// messages), lines ended by CR alone (the whole file one line: "no header row"), and control
/// characters (only tab, and CR before the line end, are whitespace).
void check_text(const std::string& line, const std::string& file, int number) {
  FIELD_CHECK(
      number != 1 || (line.compare(0, 2, "\xFF\xFE") != 0 && line.compare(0, 2, "\xFE\xFF") != 0),
      file << ": the file is UTF-16 text (its byte-order mark is 0x"
           << (line[0] == '\xFF' ? "FFFE" : "FEFF")
           << "); save it as UTF-8 or ASCII text (e.g. CSV UTF-8 in a spreadsheet)");
  const std::size_t end = !line.empty() && line.back() == '\r' ? line.size() - 1 : line.size();
  for (std::size_t i = 0; i < end; ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    FIELD_CHECK(c != '\r', file << ":" << number << ": a carriage return (CR) at byte " << i + 1
                                << " inside the line: the file's lines end with CR alone; save it "
                                   "with LF or CRLF line ends");
    if (c < 0x20 && c != '\t') {
      char code[8];
      std::snprintf(code, sizeof code, "U+%04X", c);
      FIELD_CHECK(false, file << ":" << number << ": control character " << code << " at byte "
                              << i + 1
                              << "; a CSV input is text (numbers, commas, '#' comments): save "
                                 "it as UTF-8 or ASCII text");
    }
  }
}

}  // namespace

std::string shortest(double value) {
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

int CsvTable::column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  // Headers that spreadsheet exports write: other separators, quoted names.
  const bool other_separator =
      columns.size() == 1 && columns[0].find_first_of(";\t") != std::string::npos;
  const bool quoted = std::any_of(columns.begin(), columns.end(), [](const std::string& c) {
    return !c.empty() && (c.front() == '"' || c.front() == '\'');
  });
  FIELD_CHECK(
      it != columns.end(),
      path.string() << ":" << header_line << ": no column '" << name
                    << "' in the header; columns present: " << excerpt(join(columns), kLineExcerpt)
                    << ". Add the column '" << name << "' (names are case-sensitive, any order)"
                    << (other_separator ? "; separate the fields by commas, not by ';' "
                                          "or tabs"
                                        : "")
                    << (quoted ? "; write the names and numbers without quotes" : ""));
  return static_cast<int>(it - columns.begin());
}

bool CsvTable::has_column(const std::string& name) const {
  return std::find(columns.begin(), columns.end(), name) != columns.end();
}

double CsvTable::value(std::size_t row, const std::string& name) const {
  FIELD_CHECK(row < rows.size(), path.string() << ": row " << row << " requested, the file has "
                                               << rows.size() << " data rows");
  return rows[row][static_cast<std::size_t>(column(name))];
}

std::string CsvTable::where(std::size_t row) const {
  return path.string() + ":" + std::to_string(row < lines.size() ? lines[row] : 0);
}

CsvTable read_csv(const std::filesystem::path& path,
                  const std::vector<std::string>& required_columns) {
  std::ifstream in = open_input(path, kCsvFileLimit, "CSV file");
  return parse_csv(in, path, required_columns);
}

CsvTable parse_csv(std::istream& in, const std::filesystem::path& path,
                   const std::vector<std::string>& required_columns) {
  CsvTable table;
  table.path = path;
  const std::string file = path.string();

  std::vector<bool> required;  // per column: checked strictly
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    // A UTF-8 byte-order mark (as some spreadsheet programs write) is not part of the header.
    if (number == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    check_text(line, file, number);
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;  // blank line or comment
    std::vector<std::string> fields = split(text);

    if (table.header_line == 0) {  // the first non-comment line is the header
      table.header_line = number;
      for (std::size_t c = 0; c < fields.size(); ++c) {
        FIELD_CHECK(!fields[c].empty(), file << ":" << number << ": header field " << c + 1
                                             << " is empty; name every column (header: '"
                                             << excerpt(text, kLineExcerpt) << "')");
        FIELD_CHECK(std::find(fields.begin(), fields.begin() + c, fields[c]) == fields.begin() + c,
                    file << ":" << number << ": column '" << excerpt(fields[c])
                         << "' appears twice in the header; rename or remove one of them");
      }
      table.columns = fields;
      required.assign(fields.size(), false);
      for (const std::string& name : required_columns)
        required[static_cast<std::size_t>(table.column(name))] = true;
      continue;
    }

    FIELD_CHECK(fields.size() == table.columns.size(),
                file << ":" << number << ": " << fields.size() << " fields, but the header (line "
                     << table.header_line << ") has " << table.columns.size() << " columns ("
                     << excerpt(join(table.columns), kLineExcerpt) << "); row: '"
                     << excerpt(text, kLineExcerpt) << "'. Give every row one value per column");
    std::vector<double> row(fields.size());
    for (std::size_t c = 0; c < fields.size(); ++c) {
      double value = 0.0;
      const bool parsed = parse_double(fields[c], value);
      if (!required[c]) {
        row[c] = parsed ? value : std::nan("");  // extra column: kept, not checked
        continue;
      }
      FIELD_CHECK(parsed, file << ":" << number << ": column '" << excerpt(table.columns[c])
                               << "': '" << excerpt(fields[c])
                               << "' is not a number; write a decimal number such as 0.25 "
                                  "or -1.5e-3");
      FIELD_CHECK(std::isfinite(value), file << ":" << number << ": column '"
                                             << excerpt(table.columns[c]) << "': '"
                                             << excerpt(fields[c])
                                             << "' is not a finite number; replace it by the "
                                                "measured value or remove the row");
      row[c] = value;
    }
    table.rows.push_back(std::move(row));
    table.lines.push_back(number);
  }
  if (in.bad()) {
    const int err = errno;
    throw IoError("cannot read '" + file + "' (line " + std::to_string(number + 1) +
                  "): " + std::strerror(err));
  }
  FIELD_CHECK(table.header_line != 0,
              file << ": no header row (the file is empty or has only comments); the first "
                      "line that is not blank or a '#' comment must name the columns: "
                   << join(required_columns));
  return table;
}

}  // namespace field::io
