#pragma once
/// A numeric CSV table read from a file, checked on the way in: a header row of named columns,
/// then one row of numbers per line. Blank lines and lines starting with '#' are comments;
/// whitespace around fields is allowed; columns may come in any order and extra columns are
/// kept but not checked. Every error names the file, the line (1-based, as an editor shows it),
/// the column and the offending text, and says what to do (docs/input-data.md).
#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

namespace field::io {

/// The numbers of a CSV file, row by row, with the file line of every row for error messages.
struct CsvTable {
  std::filesystem::path path;             ///< the file, as given (named in every error)
  std::vector<std::string> columns;       ///< header names, trimmed, in file order
  std::vector<std::vector<double>> rows;  ///< one entry per column; NaN in an extra column
                                          ///< that did not parse as a number
  std::vector<int> lines;                 ///< 1-based file line of each row
  int header_line = 0;                    ///< 1-based file line of the header

  /// Index of the column `name`; throws field::Error naming the file, the missing column and
  /// the columns present.
  int column(const std::string& name) const;
  /// True when the header has the column `name`.
  bool has_column(const std::string& name) const;
  /// rows[row][column(name)].
  double value(std::size_t row, const std::string& name) const;
  /// "path:line" of a row, the prefix of every error about it.
  std::string where(std::size_t row) const;
};

/// The shortest decimal text that reads back (strtod) to exactly `value`: "0.1", not
/// "0.10000000000000001"; "0.30000000000000004" where that is the double. For messages.
std::string shortest(double value);

/// Reads `path`: a regular file of at most kCsvFileLimit bytes (io/input_file.hpp; IoError with
/// the reason otherwise), parsed by parse_csv.
CsvTable read_csv(const std::filesystem::path& path,
                  const std::vector<std::string>& required_columns);

/// Parses CSV text from `in`; `path` names the source in messages. A UTF-8 byte-order mark at the
/// start and Windows line ends (CRLF) are accepted; values quoted in messages are bounded
/// excerpts (io/excerpt.hpp). Checks: a header row, no
/// empty or repeated column names, every column of `required_columns` present, every row with as
/// many fields as the header, and in the required columns a finite number (parsed by strtod,
/// whole field consumed; `nan`, `inf` and text are errors). Throws field::Error otherwise.
CsvTable parse_csv(std::istream& in, const std::filesystem::path& path,
                   const std::vector<std::string>& required_columns);

}  // namespace field::io
