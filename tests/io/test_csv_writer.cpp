// Atomic files and the streaming CSV writer: values in their shortest round-trip form read back bit
// for bit (random bit patterns, integers, special values), `.part` while writing, renamed on
// close, IoError naming the path when a file cannot be written.
#include "libfield/io/csv_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <thread>

#include "libfield/io/atomic_file.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/random.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  return fields;
}

TEST(CsvWriter, ValuesRoundTripBitForBit) {
  const test::TempFolder dir;
  test::Random rnd(7);
  std::vector<std::vector<double>> rows;
  for (int k = 0; k < 200; ++k) {  // magnitudes from 1e-300 to 1e300, both signs
    const double mantissa = rnd.uniform(-1.0, 1.0);
    const double exponent = rnd.uniform(-300.0, 300.0);
    rows.push_back({mantissa * std::pow(10.0, exponent), rnd.uniform(-1.0, 1.0), 1.0 / 3.0});
  }
  rows.push_back({0.0, -0.0, std::numeric_limits<double>::denorm_min()});
  rows.push_back({std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                  std::numeric_limits<double>::epsilon()});
  rows.push_back({3.0, -12.0, 1e22});
  {
    CsvWriter csv(dir / "values.csv", {"x", "y", "z"});
    for (const auto& r : rows) csv.row(r);
    EXPECT_EQ(csv.rows(), static_cast<long long>(rows.size()));
    csv.close();
  }
  const std::vector<std::string> lines = read_lines(dir / "values.csv");
  ASSERT_EQ(lines.size(), rows.size() + 1);
  EXPECT_EQ(lines[0], "x,y,z");
  for (size_t k = 0; k < rows.size(); ++k) {
    const std::vector<std::string> fields = split(lines[k + 1]);
    ASSERT_EQ(fields.size(), 3u) << lines[k + 1];
    for (size_t c = 0; c < 3; ++c) {
      const double back = std::strtod(fields[c].c_str(), nullptr);
      EXPECT_EQ(std::memcmp(&back, &rows[k][c], sizeof back), 0)
          << "row " << k << " column " << c << ": '" << fields[c] << "'";
    }
  }
  EXPECT_EQ(lines.back(), "3,-12,1e+22");  // integral values print without a decimal point
  EXPECT_EQ(split(lines[rows.size() - 2])[1], "-0");
}

// The shortest scientific form of v that strtod reads back to v: "%.{p}e" with the least p.
std::string shortest_scientific(double v) {
  char text[400];
  for (int p = 0; p < 17; ++p) {
    std::snprintf(text, sizeof text, "%.*e", p, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  return text;
}

TEST(CsvWriter, ShortestFormReadsBackBitForBit) {
  test::Random rnd(11);
  std::mt19937_64 bits(5);
  std::vector<double> values;
  for (int k = 0; k < 20000; ++k) {  // every bit pattern of finite doubles, all exponents
    std::uint64_t b = bits();
    double v;
    std::memcpy(&v, &b, sizeof v);
    if (std::isfinite(v)) values.push_back(v);
  }
  for (int k = 0; k < 2000; ++k) {  // what the files hold: values of order 1, times j dt
    values.push_back(rnd.uniform(-2.0, 2.0));
    values.push_back(k * 0.005);
    values.push_back((k + 0.5) * 0.1);
  }
  for (const double v : {0.1, 0.3, 1e-5, 1e5, 123456.0, 9007199254740991.0, 9007199254740992.0,
                         -7.0, 1e300, std::numeric_limits<double>::denorm_min()})
    values.push_back(v);
  long long shorter = 0, longest = 0;
  for (const double v : values) {
    const std::string text = format_double(v);
    const double back = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(std::memcmp(&back, &v, sizeof v), 0) << text;
    // The shortest: never longer than the shortest scientific form (integers print whole).
    if (!(v == std::trunc(v) && std::abs(v) < 9007199254740992.0)) {
      EXPECT_LE(text.size(), shortest_scientific(v).size()) << text;
    }
    char old[400];
    shorter += std::snprintf(old, sizeof old, "%.17g", v) - static_cast<long long>(text.size());
    longest = std::max<long long>(longest, static_cast<long long>(text.size()));
  }
  std::printf("[csv] %zu values: %.2f characters fewer than %%.17g on average, longest %lld\n",
              values.size(), double(shorter) / values.size(), longest);
  EXPECT_LE(longest, 24);  // "-2.2250738585072014e-308"
  EXPECT_EQ(format_double(0.1), "0.1");
  EXPECT_EQ(format_double(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_double(2.0 * 0.005), "0.01");
  EXPECT_EQ(format_double(1e-5), "1e-05");
  EXPECT_EQ(format_double(1e5), "100000");  // an index j stays an integer, not "1e+05"
  EXPECT_EQ(format_double(9007199254740991.0), "9007199254740991");
  EXPECT_EQ(format_double(-0.0), "-0");
  EXPECT_EQ(format_double(0.0), "0");
}

TEST(CsvWriter, WritesPartFileAndRenamesOnClose) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "series.csv";
  CsvWriter csv(path, {"j", "value"});
  csv.row({0, 1.5});
  EXPECT_TRUE(std::filesystem::exists(dir / "series.csv.part"));
  EXPECT_FALSE(std::filesystem::exists(path));
  csv.row({1, 2.5});
  csv.close();
  EXPECT_FALSE(std::filesystem::exists(dir / "series.csv.part"));
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(read_lines(path), (std::vector<std::string>{"j,value", "0,1.5", "1,2.5"}));
  csv.close();  // idempotent
  EXPECT_THROW(csv.row({2, 3.5}), IoError);
}

TEST(CsvWriter, WithoutCloseTheDataStaysInThePartFile) {
  const test::TempFolder dir;
  { CsvWriter(dir / "a.csv", {"x"}).row({4.0}); }  // e.g. an exception unwound the run
  EXPECT_EQ(read_lines(dir / "a.csv.part"), (std::vector<std::string>{"x", "4"}));
  EXPECT_FALSE(std::filesystem::exists(dir / "a.csv"));
  // Writing behind (about 400 KB: a write in flight when the writer is destroyed): all of it.
  std::vector<std::string> expected = {"x"};
  {
    CsvWriter csv(dir / "b.csv", {"x"}, CsvWrites::behind);
    for (int k = 0; k < 60000; ++k) {
      csv.row({k * 0.5});
      expected.push_back(format_double(k * 0.5));
    }
  }
  EXPECT_TRUE(read_lines(dir / "b.csv.part") == expected);
  EXPECT_FALSE(std::filesystem::exists(dir / "b.csv"));
}

TEST(CsvWriter, LinesAndRowsAcrossTheBufferAndASlabLargerThanIt) {
  for (const CsvWrites writes : {CsvWrites::here, CsvWrites::behind}) {
    const test::TempFolder dir;
    std::string expected = "k,v\n";
    long long count = 0;
    {
      CsvWriter csv(dir / "big.csv", {"k", "v"}, writes);
      for (int block = 0; block < 80; ++block) {
        // block 7: ~600 KB, over the buffer of 64 KiB (here) or 256 KiB (behind)
        const int lines = block == 7 ? 40000 : 300 + block;
        csv.lines(lines, static_cast<std::size_t>(lines) * 2 * (kMaxDoubleChars + 1),
                  [&](char* out) {
                    for (int k = 0; k < lines; ++k) {
                      out = write_integer(out, count + k);
                      *out++ = ',';
                      out = write_double(out, (count + k) * 0.1);
                      *out++ = '\n';
                    }
                    return out;
                  });
        for (int k = 0; k < lines; ++k)
          expected += std::to_string(count + k) + ',' + format_double((count + k) * 0.1) + '\n';
        count += lines;
        csv.row({-1.0 * block, 1.0 / (block + 1)});
        expected += format_double(-1.0 * block) + ',' + format_double(1.0 / (block + 1)) + '\n';
        ++count;
      }
      EXPECT_EQ(csv.rows(), count);
      const std::string message =
          test::error_message([&] { csv.lines(1, 4, [](char* out) { return out + 5; }); });
      EXPECT_TRUE(test::contains(message, "5 characters written for at most 4")) << message;
      EXPECT_THROW(csv.lines(1, 4, [](char* out) { return out; }), Error);  // no line end
      csv.close();
    }
    std::ifstream in(dir / "big.csv", std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text.size(), expected.size());
    EXPECT_TRUE(text == expected);
  }
}

TEST(CsvWriter, PartFileFollowsASlowWriter) {
  // Rows are written out per 64 KiB, or at the first row 0.1 s after the last write.
  const test::TempFolder dir;
  CsvWriter csv(dir / "slow.csv", {"x"});
  csv.row({1.0});
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  csv.row({2.0});
  EXPECT_EQ(read_lines(dir / "slow.csv.part"), (std::vector<std::string>{"x", "1", "2"}));
}

TEST(CsvWriter, ChecksRowWidth) {
  const test::TempFolder dir;
  CsvWriter csv(dir / "w.csv", {"a", "b", "c"});
  const std::string message = test::error_message([&] { csv.row({1.0, 2.0}); });
  EXPECT_TRUE(test::contains(message, "w.csv")) << message;
  EXPECT_TRUE(test::contains(message, "2 values for 3 columns")) << message;
}

TEST(CsvWriter, IoErrorNamesThePathWhenTheFolderDoesNotExist) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "no-such-folder" / "x.csv";
  const std::string message = test::io_error_message([&] { CsvWriter csv(path, {"x"}); });
  EXPECT_TRUE(test::contains(message, path.string())) << message;
  EXPECT_TRUE(test::contains(message, "No such file or directory")) << message;
}

TEST(AtomicFile, WritesThroughPartAndRenames) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "index.pvd";
  write_file_atomically(path, [&](std::ostream& out) {
    EXPECT_TRUE(std::filesystem::exists(dir / "index.pvd.part"));
    EXPECT_FALSE(std::filesystem::exists(path));
    out << "first\n";
  });
  write_file_atomically(path, [](std::ostream& out) { out << "second\n"; });  // replaces
  EXPECT_EQ(read_lines(path), std::vector<std::string>{"second"});
  EXPECT_FALSE(std::filesystem::exists(dir / "index.pvd.part"));
}

TEST(AtomicFile, FailedWriteLeavesTheOldFileAndNoPart) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "run.toml";
  write_file_atomically(path, [](std::ostream& out) { out << "old\n"; });
  EXPECT_THROW(write_file_atomically(path,
                                     [](std::ostream& out) {
                                       out << "half";
                                       throw std::runtime_error("interrupted");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read_lines(path), std::vector<std::string>{"old"});
  EXPECT_FALSE(std::filesystem::exists(dir / "run.toml.part"));
}

TEST(AtomicFile, IoErrorsNameThePathAndTheReason) {
  const test::TempFolder dir;
  const std::filesystem::path missing = dir / "missing" / "f.txt";
  std::string message =
      test::io_error_message([&] { write_file_atomically(missing, [](std::ostream&) {}); });
  EXPECT_TRUE(test::contains(message, missing.string())) << message;
  EXPECT_TRUE(test::contains(message, "No such file or directory")) << message;

  message = test::io_error_message([&] { commit_file(dir / "nothing.part", dir / "nothing"); });
  EXPECT_TRUE(test::contains(message, (dir / "nothing.part").string())) << message;
  EXPECT_TRUE(test::contains(message, "No such file or directory")) << message;
}

}  // namespace
}  // namespace field::io
