#include "libfield/io/toml_guard.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"

namespace field::io {
namespace {

/// Length of the valid UTF-8 sequence at text[i], or 0 (RFC 3629: no overlong forms, no
/// surrogates, at most U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto b = [&](std::size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  const unsigned c = b(0);
  const auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return b(k) >= lo && b(k) <= hi;
  };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
  if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

class Scanner {
 public:
  Scanner(std::string_view text, const std::filesystem::path& file) : text_(text), file_(file) {}

  void run() {
    check_encoding();
    scan();
  }

 private:
  enum class Mode { line_start, key, value, line_end };

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        line += 1;
        column = 1;
      } else if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) {
        column += 1;  // count characters, not UTF-8 continuation bytes
      }
    }
    throw Error(file_.string() + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                what);
  }

  /// Valid UTF-8 and no control characters that TOML forbids, anywhere in the file.
  void check_encoding() const {
    for (std::size_t i = 0; i < text_.size();) {
      const auto c = static_cast<unsigned char>(text_[i]);
      if (c >= 0x80) {
        const std::size_t n = utf8_length(text_, i);
        if (n == 0) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%02X", c);
          fail(i,
               std::string("invalid UTF-8 (byte ") + hex + "); save the case file as UTF-8 text");
        }
        i += n;
        continue;
      }
      const bool allowed = c >= 0x20
                               ? c != 0x7F
                               : c == '\t' || c == '\n' ||
                                     (c == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n');
      if (!allowed) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", c);
        fail(i, std::string("control character ") + code +
                    " is not allowed in TOML (not even in strings or comments: write it as an "
                    "escape such as \\u0000 inside a string); remove it");
      }
      ++i;
    }
  }

  bool at(std::size_t i, std::string_view s) const { return text_.substr(i, s.size()) == s; }

  /// Skips the string starting at i (", ', """ or '''); returns the index after it. An
  /// unterminated string ends at its line's end (single-line) or the text's end, and `closed`
  /// (if given) is false; the library reports it.
  std::size_t skip_string(std::size_t i, bool* closed = nullptr) const {
    if (closed) *closed = false;
    const char q = text_[i];
    const bool multi = at(i, q == '"' ? "\"\"\"" : "'''");
    std::size_t k = i + (multi ? 3 : 1);
    while (k < text_.size()) {
      const char c = text_[k];
      if (c == '\\' && q == '"') {
        if (multi) k = check_multi_line_escape(k);
        k += 2;  // an escape: the next byte never closes the string
        continue;
      }
      if (!multi && c == '\n') return k;  // unterminated: the library says so
      if (c == q) {
        if (closed) *closed = true;
        if (!multi) return k + 1;
        if (at(k, q == '"' ? "\"\"\"" : "'''")) {
          k += 3;
          while (k < text_.size() && text_[k] == q) ++k;  // up to two quotes may close it
          return k;
        }
        if (closed) *closed = false;
      }
      ++k;
    }
    return k;
  }

  /// In a """ string the library asks whether the character after a backslash, and the first
  /// one after a line-ending backslash's blanks and line breaks, is whitespace: for most non-ASCII
  /// characters that question reaches TOML_UNREACHABLE in toml++ 3.3 (undefined behaviour). After
  /// a backslash a non-ASCII character is no TOML escape; after a line-ending backslash it is valid
  /// TOML that the library cannot read. Returns k (the backslash) or the index before the first
  /// character after the blanks, so that the caller's k += 2 lands on it.
  std::size_t check_multi_line_escape(std::size_t k) const {
    const auto byte = [&](std::size_t i) {
      return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 0u;
    };
    if (byte(k + 1) >= 0x80)
      fail(k + 1,
           "not valid TOML: a backslash before a non-ASCII character is no escape; write \\\\ for "
           "a backslash or \\uXXXX for the character");
    std::size_t i = k + 1;
    while (byte(i) == ' ' || byte(i) == '\t' || byte(i) == '\r' || byte(i) == '\n') ++i;
    if (i == k + 1) return k;
    if (byte(i) >= 0x80)
      fail(i,
           "a non-ASCII character right after a line-ending backslash in a \"\"\" string: "
           "the TOML library of Debian 12 (toml++ 3.3) cannot read it; write it as \\uXXXX or "
           "start the continued line with an ASCII character");
    return i - 2;
  }

  std::size_t skip_comment(std::size_t i) const {
    while (i < text_.size() && text_[i] != '\n') ++i;
    return i;
  }

  void check_parts(std::size_t i, int parts) const {
    if (parts > kTomlMaxKeyParts)
      fail(i, "a key or table header with more than " + std::to_string(kTomlMaxKeyParts) +
                  " dotted parts; case files need a few (e.g. [loads.point])");
  }
  void check_depth(std::size_t i, int depth) const {
    if (depth > kTomlMaxDepth)
      fail(i, "nested more than " + std::to_string(kTomlMaxDepth) +
                  " levels deep (tables, arrays and inline tables); case files need a few");
  }

  static bool bare(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  }

  /// One pass over the text. Keys (at line starts, in [headers], after '{' and after ',' in an
  /// inline table) are checked against TOML's grammar, parts separated by dots, and their parts
  /// counted: the library asserts on some malformed keys. Values count the arrays and inline
  /// tables open around them.
  void scan() {
    struct Open {
      char bracket;  // '[' or '{'
      int depth;     // nesting depth of what is inside it
    };
    std::vector<Open> open;
    Mode mode = Mode::line_start;
    int section = 0;            // parts of the current [table] header
    int key_base = 0;           // depth of the table the key being read lives in
    int parts = 1;              // parts of the key being read
    bool header = false;        // the key is a [header]
    bool array_header = false;  // ... a [[header]]
    bool want_value = false;    // a value must come next: after '=', '[' or ',' in an array
    bool want_part = false;     // the key needs a (next) part: at its start or after a dot
    int value_depth = 0;        // depth of the value being read
    std::size_t i = 0;
    // A UTF-8 byte-order mark at the start is allowed.
    if (at(0, "\xEF\xBB\xBF")) i = 3;
    const auto start_key = [&](int base) {
      mode = Mode::key;
      key_base = base;
      parts = 1;
      header = false;
      array_header = false;
      want_part = true;
      want_value = false;
    };
    while (i < text_.size()) {
      const char c = text_[i];
      if (static_cast<unsigned char>(c) >= 0x80)
        fail(i,
             "a non-ASCII character outside a string or comment; TOML keys and values are "
             "ASCII: put the text in quotes or remove it");
      if (mode == Mode::key) {
        const std::string expected =
            header ? "a table header [name] or [[name]]" : "a line key = value";
        if (c == ' ' || c == '\t') {
          ++i;
        } else if (want_part && bare(c)) {
          while (i < text_.size() && bare(text_[i])) ++i;
          want_part = false;
        } else if (want_part && (c == '"' || c == '\'')) {
          if (at(i, "\"\"\"") || at(i, "'''"))
            fail(i, "not valid TOML: a key cannot be a multi-line string; expected " + expected);
          bool closed = false;
          i = skip_string(i, &closed);
          if (!closed) fail(i, "not valid TOML: a quoted key is not closed on its line");
          want_part = false;
        } else if (want_part && c == '}' && parts == 1 && !open.empty() &&
                   open.back().bracket == '{') {  // an empty inline table: {}
          open.pop_back();
          mode = Mode::value;
          if (!open.empty()) value_depth = open.back().depth;
          ++i;
        } else if (want_part) {
          fail(i,
               "not valid TOML: expected a key (letters, digits, '_' and '-', or a quoted "
               "string): " +
                   expected);
        } else if (c == '.') {
          check_parts(i, ++parts);
          check_depth(i, key_base + parts);
          want_part = true;
          ++i;
        } else if (c == '=' && !header) {
          check_depth(i, key_base + parts);
          mode = Mode::value;
          want_value = true;
          value_depth = key_base + parts;
          ++i;
        } else if (c == ']' && header) {
          if (array_header && !at(i, "]]"))
            fail(i, "not valid TOML: an array-of-tables header [[name]] ends with ']]'");
          section = parts;
          check_depth(i, section);
          mode = Mode::line_end;  // only a comment may follow
          i += array_header ? 2 : 1;
        } else {
          fail(i, std::string(
                      header ? "not valid TOML: expected '.' or ']' after a part of the table name"
                             : "not valid TOML: expected '.' or '=' after a part of the key") +
                      ": " + expected);
        }
        continue;
      }
      const bool in_array = !open.empty() && open.back().bracket == '[';
      if (c == '#' || c == '\n') {
        // A value may continue on the next line only inside an array.
        if (want_value && !in_array) fail(i, "not valid TOML: expected a value after '='");
        if (c == '#') {
          i = skip_comment(i);
        } else {
          if (open.empty()) mode = Mode::line_start;
          ++i;
        }
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
        continue;
      }
      if (mode == Mode::line_end)
        fail(i,
             "not valid TOML: expected the end of the line after "
             "the table header (or a # comment)");
      if (mode == Mode::line_start) {
        start_key(section);
        if (c == '[') {
          start_key(0);
          header = true;
          array_header = at(i, "[[");
          i += array_header ? 2 : 1;
        }
        continue;
      }
      // Mode::value. The library asserts on a value that starts with a terminator ("[}", "[,").
      if (want_value && (c == ',' || c == '}' || (c == ']' && !in_array)))
        fail(i, std::string("not valid TOML: expected a value before '") + c + "'");
      const bool value_start = want_value;
      want_value = false;
      if (c == '"' || c == '\'') {
        // A quote starts a string only where a value starts; inside a bare value ("1'x") the
        // library reads on, and non-ASCII text after it reaches undefined behaviour there.
        if (!value_start)
          fail(i, "not valid TOML: a quote inside a value; strings start where a value starts");
        i = skip_string(i);
        continue;
      }
      if (value_start && c != '[' && c != '{') {
        // A bare value (number, boolean, date): the library reads it, quotes and brackets
        // included, up to a terminator (whitespace, ',', ']', '}', '#'), asking of every
        // character whether it ends the value; for a non-ASCII one the question is undefined
        // behaviour in toml++ 3.3 (fuzz_case_file; regression_bracket_inside_value.toml).
        while (i < text_.size() &&
               std::string_view(" \t\r\n,]}#").find(text_[i]) == std::string_view::npos) {
          if (static_cast<unsigned char>(text_[i]) >= 0x80)
            fail(i,
                 "a non-ASCII character in a value; TOML numbers, booleans and dates are ASCII: "
                 "put text in quotes");
          ++i;
        }
        // "1979-05-27 7," : after a date the library takes " digit" as the start of a time and
        // asserts when a terminator follows that one digit (toml++ 3.3; fuzz_case_file,
        // regression_date_space_digit.toml). A value followed by a blank and a digit is never
        // TOML except as a date and a time, and a time has more than one digit.
        if (at(i, " ") && i + 2 < text_.size() && text_[i + 1] >= '0' && text_[i + 1] <= '9' &&
            std::string_view(" \t\r\n,]}#").find(text_[i + 2]) != std::string_view::npos)
          fail(i + 1,
               "not valid TOML: a lone digit after a value; a date and a time are written "
               "1979-05-27T07:32:00 (or with one blank instead of the T)");
        continue;
      }
      if (c == '[' || c == '{') {
        value_depth += 1;  // inside it: array entries, or the keys of an inline table
        check_depth(i, value_depth);
        open.push_back({c, value_depth});
        if (c == '{') start_key(value_depth);
        want_value = c == '[';
      } else if (c == ']' || c == '}') {
        if (open.empty() || open.back().bracket != (c == ']' ? '[' : '{'))
          fail(i, std::string("not valid TOML: '") + c + "' closes no " +
                      (c == ']' ? "array" : "inline table"));
        open.pop_back();
        if (!open.empty()) value_depth = open.back().depth;
      } else if (c == ',' && !open.empty()) {
        if (open.back().bracket == '{') start_key(open.back().depth);
        want_value = open.back().bracket == '[';
        value_depth = open.back().depth;
      }
      ++i;
    }
    if (mode == Mode::key)
      fail(i, header ? "not valid TOML: the table header is not closed with ']'"
                     : "not valid TOML: the key has no '= value'");
    if (want_value && mode == Mode::value) fail(i, "not valid TOML: expected a value");
  }

  std::string_view text_;
  const std::filesystem::path& file_;
};

}  // namespace

void check_toml_text(std::string_view text, const std::filesystem::path& file) {
  Scanner(text, file).run();
}

}  // namespace field::io
