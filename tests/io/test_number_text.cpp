// write_shortest writes the bytes of std::to_chars(value) and write_double those of the integer
// rule plus std::to_chars, on random bit patterns (subnormals included), values of the output
// files (order 1, j dt, (a + 1/2) ds), every decimal scale from 1e-30 to 1e30, every number of
// digits at every place of the point, and edge cases.
#include "libfield/io/number_text.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace field::io {
namespace {

std::string reference_shortest(double v) {
  char text[64];
  return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

// csv_writer's rule before number_text.hpp: integers below 2^53 whole, others by std::to_chars.
std::string reference_double(double v) {
  if (v != 0.0 && std::abs(v) < 9007199254740992.0 && v == std::trunc(v))
    return std::to_string(static_cast<long long>(v));
  return reference_shortest(v);
}

std::string shortest(double v) {
  char text[kMaxDoubleChars];
  return std::string(text, write_shortest(text, v));
}

// write_double writes whole 8-byte words of digits (number_text.cpp): it must stay within its
// kMaxDoubleChars; the bytes after them are checked.
std::string whole(double v) {
  char text[kMaxDoubleChars + 8];
  std::memset(text, '#', sizeof text);
  std::string result(text, write_double(text, v));
  if (std::string(text + kMaxDoubleChars, 8) != "########") result += " (wrote past its room)";
  return result;
}

std::vector<double> edge_cases() {
  using limits = std::numeric_limits<double>;
  std::vector<double> v = {0.0,
                           -0.0,
                           0.1,
                           0.2,
                           0.3,
                           0.1 + 0.2,
                           1.0 / 3.0,
                           -2.0 / 3.0,
                           1e-5,
                           1e-4,
                           1e-3,
                           0.0015,
                           1e5,
                           123456.0,
                           123456.789,
                           1e15 + 0.5,
                           1e16,
                           1e21,
                           1e22,
                           1e23,
                           4503599627370495.5,
                           4503599627370496.0,
                           9007199254740991.0,
                           9007199254740992.0,
                           9007199254740993.0,
                           -9007199254740991.5,
                           limits::denorm_min(),
                           -limits::denorm_min(),
                           limits::min(),
                           limits::min() / 3.0,
                           limits::max(),
                           limits::lowest(),
                           limits::epsilon(),
                           limits::infinity(),
                           -limits::infinity(),
                           limits::quiet_NaN(),
                           5e-324,
                           2.2250738585072014e-308,
                           -2.2250738585072014e-308,
                           1.7976931348623157e308,
                           9.999999999999999e22,
                           9.5e-5,
                           0.000123,
                           1.5e-10,
                           1e100,
                           1e-100,
                           5e-10,
                           0.5,
                           -0.5,
                           2.5,
                           1e300};
  for (int k = -325; k <= 308; ++k) {  // every power of ten and its neighbours
    const double p = std::pow(10.0, k);
    v.push_back(p);
    v.push_back(std::nextafter(p, 0.0));
    v.push_back(std::nextafter(p, limits::infinity()));
  }
  for (int k = -1074; k <= 1023; ++k) v.push_back(std::ldexp(1.0, k));  // every power of two
  return v;
}

TEST(NumberText, ShortestEqualsToCharsOnEdgeCases) {
  for (const double v : edge_cases()) {
    EXPECT_EQ(shortest(v), reference_shortest(v)) << reference_shortest(v);
    EXPECT_EQ(whole(v), reference_double(v)) << reference_shortest(v);
  }
  EXPECT_EQ(whole(1e5), "100000");
  EXPECT_EQ(shortest(1e5), "1e+05");
  EXPECT_EQ(shortest(1e-5), "1e-05");
  EXPECT_EQ(shortest(0.001), "0.001");  // fixed on a tie with "1e-03"
  EXPECT_EQ(shortest(0.0001), "1e-04");
  EXPECT_EQ(shortest(-0.0), "-0");
  EXPECT_EQ(shortest(5e-324), "5e-324");
  EXPECT_EQ(shortest(0.1 + 0.2), "0.30000000000000004");
}

TEST(NumberText, ShortestEqualsToCharsOnMillionsOfValues) {
  std::mt19937_64 bits(17);
  std::uniform_real_distribution<double> unit(-2.0, 2.0);
  std::uniform_int_distribution<int> scale(-30, 30);
  long long mismatches = 0, count = 0;
  const auto check = [&](double v) {
    ++count;
    const std::string expected = reference_double(v), got = whole(v);
    if (got != expected && ++mismatches <= 10)
      ADD_FAILURE() << "value " << reference_shortest(v) << ": '" << got << "'";
  };
  for (int k = 0; k < 1000000; ++k) {
    std::uint64_t b = bits();
    double v;
    std::memcpy(&v, &b, sizeof v);  // any bit pattern: all exponents, subnormals, NaN
    check(v);
    b &= 0x800FFFFFFFFFFFFFULL;  // a subnormal
    std::memcpy(&v, &b, sizeof v);
    check(v);
    check(unit(bits));                                // positions and quaternions
    check(unit(bits) * std::pow(10.0, scale(bits)));  // any scale
    check(k * (0.05 / 20.0));                         // t_j = j dt
    check((k % 1000 + 0.5) * 0.001);                  // s_a = (a + 1/2) ds
    check(static_cast<float>(unit(bits)));            // few digits
    // 1 to 17 digits, with 0 to 4 zeros after the point or the point among the digits.
    const double digits = std::pow(10.0, k % 17 + 1);
    check(std::round(unit(bits) * digits) / digits / std::pow(10.0, k % 5));
    check(std::round(unit(bits) * digits) / digits * std::pow(10.0, k % 7));
  }
  EXPECT_EQ(mismatches, 0) << "of " << count << " values";
}

// write_doubles: the texts of write_double separated by commas, `end` after the last, within
// count (kMaxDoubleChars + 1) characters.
TEST(NumberText, ListIsTheValuesTextsSeparatedByCommas) {
  std::vector<double> values = edge_cases();
  std::mt19937_64 bits(18);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int k = 0; k < 1000; ++k) values.push_back(k % 3 == 0 ? 60.0 * unit(bits) : unit(bits));
  for (const std::size_t count : {std::size_t{1}, std::size_t{7}, values.size()}) {
    std::string expected;
    for (std::size_t k = 0; k < count; ++k)
      expected += reference_double(values[k]) + (k + 1 < count ? "," : "\n");
    std::vector<char> text(count * (kMaxDoubleChars + 1) + 8, '#');
    const char* end = write_doubles(text.data(), values.data(), count, '\n');
    const std::string written(static_cast<const char*>(text.data()), end);
    EXPECT_EQ(written, expected) << count << " values";
    EXPECT_EQ(std::string(text.end() - 8, text.end()), "########") << "wrote past its room";
  }
}

}  // namespace
}  // namespace field::io
