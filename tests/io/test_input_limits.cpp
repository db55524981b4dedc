// Hostile input to the readers (issue 15, classes 1, 2, 4, 8): the case file's text is guarded
// before the TOML library sees it (encoding, control characters, depth), input files must be
// regular files within a size limit, values in messages are bounded excerpts, and the messages
// about numbers say what is wrong (a float for an integer, out of range, too many rows).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/excerpt.hpp"
#include "libfield/io/input_file.hpp"
#include "libfield/io/node_data.hpp"
#include "libfield/io/toml_guard.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;
using test::contains;
using test::error_message;
using test::io_error_message;

fs::path shipped(const std::string& name, const std::string& file = "case.toml") {
  return fs::path(FIELD_SOURCE_DIR) / "meshes" / name / file;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

/// free_flight's case.toml with `from` replaced by `to` (which must occur).
std::string free_flight_with(const std::string& from, const std::string& to) {
  std::string text = read(shipped("free_flight"));
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The message of parsing `text` as free_flight's case file (relative data paths resolve there).
std::string case_error(const std::string& text) {
  return error_message([&] { parse_case(text, shipped("free_flight")); });
}

std::string parts(int n, const std::string& sep = ".") {
  std::string s = "a";
  for (int i = 1; i < n; ++i) s += sep + "a";
  return s;
}

// --- class 1: the TOML library never sees what could crash it ------------------------------

TEST(InputLimits, DeepHeadersAndDottedKeysAreRejectedBeforeTheLibrary) {
  // 50 000 parts overflowed the stack inside toml++ (SIGSEGV).
  const std::string header = case_error("format = 1\n[" + parts(50000) + "]\nx = 1\n");
  EXPECT_TRUE(contains(header,
                       "case.toml:2:129: a key or table header with more than 64 dotted "
                       "parts"))
      << header;
  const std::string key = case_error("# comment\n" + parts(50000) + " = 1\n");
  EXPECT_TRUE(contains(key, "case.toml:2:")) << key;
  EXPECT_TRUE(contains(key, "more than 64 dotted parts")) << key;
  // Within the bound the text passes the guard (the library then parses it).
  EXPECT_NO_THROW(check_toml_text("[" + parts(64) + "]\n" + parts(64) + " = 1\n", "x.toml"));
  EXPECT_THROW(check_toml_text(parts(65) + " = 1\n", "x.toml"), Error);
}

TEST(InputLimits, DeepArraysAndInlineTablesAreRejected) {
  std::string arrays = "x = " + std::string(50000, '[') + std::string(50000, ']') + "\n";
  EXPECT_TRUE(contains(case_error(arrays), "case.toml:1:132: nested more than 128 levels deep"))
      << case_error(arrays);
  std::string inl = "x = ";
  for (int i = 0; i < 20000; ++i) inl += "{ b = ";
  EXPECT_TRUE(contains(case_error(inl + "1"), "nested more than 128 levels deep"));
  // Depth counts the table levels of headers and keys too: 64 + 1 + 64 > 128.
  EXPECT_THROW(check_toml_text("[" + parts(64) + "]\nx = " + std::string(64, '[') + "\n", "t"),
               Error);
  EXPECT_NO_THROW(check_toml_text(
      "[" + parts(64) + "]\nx = " + std::string(63, '[') + std::string(63, ']') + "\n", "t"));
}

TEST(InputLimits, EncodingAndControlCharactersAreCheckedWithLineAndColumn) {
  // A non-ASCII character at the very start reached an assertion / UB in the library.
  const std::string start = case_error("\xC3\xA9");
  EXPECT_TRUE(contains(start, "case.toml:1:1: a non-ASCII character outside a string or comment"))
      << start;
  // A NUL inside a table header, likewise.
  const std::string nul = case_error("format = 1\n[be\0am]\n"s);
  EXPECT_TRUE(contains(nul, "case.toml:2:4: control character U+0000 is not allowed")) << nul;
  const std::string utf8 = case_error("format = 1\nname = \"ab\xFF\"\n");
  EXPECT_TRUE(contains(utf8, "case.toml:2:11: invalid UTF-8 (byte 0xFF)")) << utf8;
  // Overlong form, surrogate and a sequence cut short are not UTF-8 either.
  for (const std::string bad : {"# \xC0\xAF\n", "# \xED\xA0\x80\n", "# \xE2\x82"})
    EXPECT_TRUE(contains(case_error(bad), "case.toml:1:3: invalid UTF-8")) << case_error(bad);
  EXPECT_TRUE(
      contains(case_error("x = 1\r\ny = \"a\rb\"\n"), "case.toml:2:7: control character U+000D"));
}

TEST(InputLimits, MalformedKeysAreRejectedBeforeTheLibrary) {
  // "[&&" reached an assertion inside toml++ (found by fuzz_case_file; corpus/case_file/
  // regression_header_invalid_key_char.toml).
  const std::string header = case_error("[&&");
  EXPECT_TRUE(contains(header,
                       "case.toml:1:2: not valid TOML: expected a key (letters, digits, "
                       "'_' and '-', or a quoted string): a table header"))
      << header;
  for (const std::string bad :
       {"= 1\n", "a b = 1\n", "a. = 1\n", "\"a = 1\n", "a\n", "[a\n", "[a b]\n", "'''a''' = 1\n"})
    EXPECT_TRUE(contains(case_error(bad), "case.toml:1:")) << bad;
  EXPECT_TRUE(contains(case_error("x = { a = 1, &b = 2 }\n"), "case.toml:1:14: not valid TOML"));
  // "y=[}" reached an assertion in toml++ (fuzz_case_file; regression_array_closed_by_brace.toml);
  // so do other values that start with a terminator.
  EXPECT_TRUE(contains(case_error("y=[}"),
                       "case.toml:1:4: not valid TOML: expected a value before "
                       "'}'"))
      << case_error("y=[}");
  for (const std::string bad : {"y = [,]\n", "y = [1,,2]\n", "y = \n", "y = # c\n", "y = ]\n",
                                "y = [1}\n", "y = {a = 1]\n", "[a] b\n", "[[a]\n", "y = [1,"})
    EXPECT_TRUE(contains(case_error(bad), "case.toml:1:")) << bad << ": " << case_error(bad);
  // "y=1'\xC3\x9F" reached undefined behaviour (TOML_UNREACHABLE in is_whitespace) in toml++
  // (fuzz_case_file; regression_quote_inside_value.toml): a quote inside a bare value.
  const std::string quote = case_error("y=1'\xC3\x9F");
  EXPECT_TRUE(contains(quote, "case.toml:1:5: a non-ASCII character in a value")) << quote;
  // The library reads a bare value up to a terminator, brackets and quotes included: "y=2[..."
  // with a non-ASCII character after a '"""' reached the same undefined behaviour (CI's
  // fuzz_case_file; regression_bracket_inside_value.toml).
  const std::string bracket = case_error("y=2[*y=2.2[\"\"\"*N=gg2[[*=BBridrigh0z='-\xC3\x9F");
  EXPECT_TRUE(contains(bracket, "case.toml:1:39: a non-ASCII character in a value")) << bracket;
  for (const std::string bad : {"y = true\xC3\xA9\n", "y = [1\xC3\xA9]\n", "y = {a=1\xC3\xA9}\n",
                                "y = 1979-05-27\xC3\xA9\n"})
    EXPECT_TRUE(contains(case_error(bad), "case.toml:1:")) << bad << ": " << case_error(bad);
  EXPECT_TRUE(contains(case_error("y = 1'x\n"), "case.toml:1:")) << case_error("y = 1'x\n");
  // "a=1111-11-0' 5," reached an assertion in toml++: after a date-like value, a blank and one
  // digit before a terminator (fuzz_case_file; regression_date_space_digit.toml).
  const std::string date = case_error("a=1111-11-0' 5,");
  EXPECT_TRUE(contains(date, "case.toml:1:14: not valid TOML: a lone digit after a value")) << date;
  for (const std::string bad : {"y = 1979-05-27 7\n", "y = [1979-05-27 7]\n", "y = 1979-05-27 7"})
    EXPECT_TRUE(contains(case_error(bad), "case.toml:1:")) << bad << ": " << case_error(bad);
  EXPECT_NO_THROW(check_toml_text("y = 1979-05-27 07:32:00Z\nz = [1979-05-27 07:32:00, 2]\n", "t"));
  // In a """ string the library asks whether the character after a backslash, or after a
  // line-ending backslash's blanks, is whitespace: undefined behaviour for most non-ASCII ones.
  const std::string escape = case_error("y = \"\"\"a\\\xC3\xBC\"\"\"\n");
  EXPECT_TRUE(contains(escape, "case.toml:1:10: not valid TOML: a backslash before a non-ASCII"))
      << escape;
  const std::string continued = case_error("y = \"\"\"a\\  \n \n  \xC3\xBC\"\"\"\n");
  EXPECT_TRUE(contains(continued,
                       "case.toml:3:3: a non-ASCII character right after a line-ending backslash"))
      << continued;
  // Escapes, line-ending backslashes before ASCII text and non-ASCII text elsewhere stay valid.
  EXPECT_NO_THROW(check_toml_text(
      "y = \"\"\"a\\  \n  b \xC3\xBC \\\\\xC3\xBC \\\"\\\n x\xC3\xBC\"\"\"\nz = \"\\\\\xC3\xBC\"\n",
      "t"));
  EXPECT_TRUE(contains(case_error("y = \"a\"\"b\"\n"), "case.toml:1:8: not valid TOML"));
  EXPECT_NO_THROW(check_toml_text("y = [ # c\n 1, [], {}, [2,],\n]\nz = {}\n[[a]] # c\n", "t"));
}

TEST(InputLimits, ValidTomlPassesTheGuard) {
  // UTF-8 in strings and comments, brackets, dots and quotes inside strings, multi-line strings,
  // quoted keys, CRLF line ends and a byte-order mark are TOML, and stay accepted.
  const std::string text =
      "\xEF\xBB\xBF# K\xC3\xBChlung \xE2\x80\x94 [a.b.c]\r\n"
      "name = \"Schwingung \xC3\xBC [x.y] {z} \\\" #\"\r\n"
      "s = '''a.b.c [[[ ''' \n"
      "m = \"\"\"\n[[[[ a.b.c {{{ \\\"\"\" \"\"\"\n"
      "\"quoted.key.with.dots\" = { a = [1.5, 2.5, [3.5]], b.c = 'x' } # \xC3\xA9\n"
      "[[loads.point]]\n"
      "t = 1979-05-27T07:32:00.999Z\n";
  EXPECT_NO_THROW(check_toml_text(text, "ok.toml"));
  // A shipped case with CRLF line ends and a byte-order mark loads to the same case.
  test::TempFolder tmp;
  fs::copy(shipped("free_flight").parent_path(), tmp.path() / "ff", fs::copy_options::recursive);
  std::string crlf = "\xEF\xBB\xBF";
  for (const char c : read(shipped("free_flight"))) crlf += c == '\n' ? "\r\n"s : std::string(1, c);
  write(tmp.path() / "ff" / "case.toml", crlf);
  const CaseSpec a = load_case(shipped("free_flight"));
  const CaseSpec b = load_case(tmp.path() / "ff" / "case.toml");
  EXPECT_EQ(a.J, b.J);
  EXPECT_EQ(a.dt, b.dt);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.description, b.description);
}

// --- class 2: solver settings that cannot finish ----------------------------------------------

TEST(InputLimits, SolverSettingsThatCannotFinishAreRejected) {
  const std::string ff = read(shipped("free_flight"));
  const std::string tol = case_error(ff + "\n[solver]\ntolerance = 1e-300\n");
  EXPECT_TRUE(contains(tol,
                       "[solver] tolerance = 1e-300: out of range: must be between 1e-15 and "
                       "1e-06"))
      << tol;
  EXPECT_TRUE(contains(tol, "case.toml:")) << tol;
  const std::string it = case_error(ff + "\n[solver]\nmax_iterations = 2000000000\n");
  EXPECT_TRUE(contains(it,
                       "[solver] max_iterations = 2000000000: out of range: must be between 1 "
                       "and 200"))
      << it;
  // The bounds themselves are accepted.
  const CaseSpec c = parse_case(ff + "\n[solver]\ntolerance = 1e-15\nmax_iterations = 200\n",
                                shipped("free_flight"));
  EXPECT_EQ(c.newton.tolerance, 1e-15);
  EXPECT_EQ(c.newton.max_iterations, 200);
}

// --- class 4: unbounded reads ------------------------------------------------------------------

TEST(InputLimits, InputFilesMustBeRegularFiles) {
  test::TempFolder tmp;
  const fs::path fifo = tmp.path() / "fifo.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(contains(io_error_message([&] { read_node_velocities(fifo, 3); }),
                       "it is a fifo (named pipe), not a regular file"));
  EXPECT_TRUE(contains(io_error_message([&] { read_csv("/dev/zero", {"t"}); }),
                       "'/dev/zero': it is a character device, not a regular file"));
  EXPECT_TRUE(contains(io_error_message([&] { load_case(tmp.path()); }), "it is a folder"));
  fs::create_symlink(tmp.path() / "loop_b", tmp.path() / "loop_a");
  fs::create_symlink(tmp.path() / "loop_a", tmp.path() / "loop_b");
  const std::string loop = io_error_message([&] { load_case(tmp.path() / "loop_a"); });
  EXPECT_TRUE(contains(loop, "Too many levels of symbolic links")) << loop;
  EXPECT_TRUE(contains(io_error_message([&] { read_csv(tmp.path() / "none.csv", {"t"}); }),
                       "No such file or directory"));
}

TEST(InputLimits, InputFilesHaveASizeLimit) {
  test::TempFolder tmp;
  const fs::path big = tmp.path() / "big.toml";  // sparse: no disk used
  write(big, "format = 1\n");
  fs::resize_file(big, kCaseFileLimit + 1);
  EXPECT_TRUE(contains(io_error_message([&] { load_case(big); }),
                       "16777217 bytes, more than the limit of 16 MiB for case files"));
  const fs::path csv = tmp.path() / "big.csv";
  write(csv, "t\n");
  fs::resize_file(csv, kCsvFileLimit + 1);
  EXPECT_TRUE(contains(io_error_message([&] { read_csv(csv, {"t"}); }),
                       "more than the limit of 1024 MiB for CSV files"));
}

TEST(InputLimits, MessagesQuoteABoundedExcerpt) {
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt(std::string(100, 'x'), 10), "xxxxxxxxxx... (100 bytes)");
  // Never cut inside a UTF-8 character: "ü" is two bytes.
  EXPECT_EQ(excerpt("abcdefghi\xC3\xBCz", 10), "abcdefghi... (12 bytes)");

  // A 10 MB CSV line.
  const std::string line = "0." + std::string(10000000, '7');
  std::istringstream in("t,x\n" + line + ",y\n");
  const std::string csv = error_message([&] { parse_csv(in, "long.csv", {"t", "x"}); });
  EXPECT_LT(csv.size(), 400u) << csv.substr(0, 400);
  EXPECT_TRUE(contains(csv, "long.csv:2: column 'x': 'y' is not a number")) << csv;
  std::istringstream wide("t,x\n" + line + "\n");
  const std::string fields = error_message([&] { parse_csv(wide, "wide.csv", {"t", "x"}); });
  EXPECT_LT(fields.size(), 1000u) << fields.substr(0, 1000);
  EXPECT_TRUE(contains(fields, "row: '0.777777")) << fields;
  EXPECT_TRUE(contains(fields, "... (10000002 bytes)")) << fields;

  // A 10^6-entry TOML array where 3 numbers are expected.
  std::string array = "[1.0";
  for (int i = 1; i < 1000000; ++i) array += ", 1.0";
  const std::string toml =
      case_error(free_flight_with("origin = [0.0, 0.0, 0.0]", "origin = " + array + "]"));
  EXPECT_LT(toml.size(), 400u) << toml.substr(0, 400);
  EXPECT_TRUE(contains(toml, "[initial] origin = [1.0, 1.0, 1.0,")) << toml;
  EXPECT_TRUE(contains(toml, "expected an array of 3 numbers")) << toml;
}

// --- class 8: messages about numbers and files ------------------------------------------------

TEST(InputLimits, FloatsAreShownAsFloatsAndIntegersAsked) {
  const std::string format = case_error(free_flight_with("format = 1", "format = 1.0"));
  EXPECT_TRUE(contains(format,
                       "format = 1.0: expected an integer, without a decimal point or "
                       "exponent (write 1)"))
      << format;
  const std::string A = case_error(free_flight_with("A = 10", "A = 10.0"));
  EXPECT_TRUE(contains(A, "[grid] A = 10.0: expected an integer")) << A;
  const std::string huge = case_error(free_flight_with("J = 400", "J = 1e300"));
  EXPECT_TRUE(contains(huge,
                       "[grid] J = 1e+300: out of range: must be an integer between 2 and "
                       "2000000000"))
      << huge;
  const std::string frac = case_error(free_flight_with("J = 400", "J = 400.5"));
  EXPECT_TRUE(contains(frac, "[grid] J = 400.5: expected an integer between 2 and 2000000000"))
      << frac;
}

TEST(InputLimits, TooManyRowsSaysSoWithTheLimitAndTheCost) {
  std::string text = free_flight_with("dt = 0.005", "dt = 1e-9");
  text.replace(text.find("J = 400"), 7, "T = 10 ");
  const std::string rows = case_error(text);
  EXPECT_TRUE(contains(rows,
                       "[grid] T = 10: with dt = 1e-09 gives J = T/dt = 10000000000 rows, "
                       "more than the limit J <= 2000000000; with 11 nodes per row that is "
                       "1.1e+11 node updates, about 3.1 hours"))
      << rows;
}

TEST(InputLimits, SectionsOutOfRangeNameTheKey) {
  const std::string side = case_error(free_flight_with("side = 0.1", "side = 1e-200"));
  EXPECT_TRUE(contains(side,
                       "case.toml:15: [beam] side = 1e-200: beam section: area A [m^2] must "
                       "be positive and finite, got 0"))
      << side;
  // Representable section, but its products with E and rho underflow.
  const std::string tiny = case_error(free_flight_with("side = 0.1", "side = 1e-78"));
  EXPECT_TRUE(contains(tiny, "case.toml:15: [beam] side = 1e-78: entry 1 of the inertia")) << tiny;
  EXPECT_TRUE(contains(tiny, "outside the range of normal doubles")) << tiny;
}

TEST(InputLimits, CsvAcceptsAByteOrderMarkAndCrlf) {
  std::istringstream in("\xEF\xBB\xBFt, x\r\n0,1.5\r\n# c\r\n1,2\r\n");
  const CsvTable t = parse_csv(in, "bom.csv", {"t", "x"});
  ASSERT_EQ(t.columns.size(), 2u);
  EXPECT_EQ(t.columns[0], "t");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.value(0, "x"), 1.5);
  EXPECT_EQ(t.value(1, "t"), 1.0);
  EXPECT_EQ(t.lines[1], 4);
}

TEST(InputLimits, HugeIndicesAreOutOfRangeNotFractions) {
  std::istringstream in("a,w1,w2,w3,v1,v2,v3\n1e300,0,0,0,0,0,0\n");
  const CsvTable t = parse_csv(in, "v.csv", node_velocity_columns());
  const std::string m = error_message([&] { node_velocities(t, 3); });
  EXPECT_TRUE(contains(m,
                       "v.csv:2: column 'a': 1e+300 is out of range; a is an index between 0 "
                       "and 2000000000"))
      << m;
  std::istringstream half("a,w1,w2,w3,v1,v2,v3\n0.5,0,0,0,0,0,0\n");
  EXPECT_TRUE(contains(
      error_message([&] { node_velocities(parse_csv(half, "v.csv", node_velocity_columns()), 3); }),
      "0.5 is not a whole number"));
}

TEST(InputLimits, DataFileErrorsNameTheCaseKey) {
  test::TempFolder tmp;
  const fs::path dir = tmp.path() / "ff";
  fs::copy(shipped("free_flight").parent_path(), dir, fs::copy_options::recursive);
  std::string csv = read(dir / "velocities.csv");
  csv.replace(csv.find("\n3,"), 3, "\n3,x");
  write(dir / "velocities.csv", csv);
  const Problem p(load_case(dir / "case.toml"));
  const std::string m = error_message([&] { time_march_input<lie::Se3Cayley>(p); });
  EXPECT_TRUE(contains(m, "is not a number")) << m;
  EXPECT_TRUE(
      contains(m, "(the file of " + (dir / "case.toml").string() + ":35: [initial] velocity_file)"))
      << m;
  fs::remove(dir / "velocities.csv");
  const std::string missing = io_error_message([&] { time_march_input<lie::Se3Cayley>(p); });
  EXPECT_TRUE(contains(missing, "No such file or directory")) << missing;
  EXPECT_TRUE(contains(missing, ":35: [initial] velocity_file)")) << missing;
}

}  // namespace
}  // namespace field::io
