#include "libfield/io/number_text.hpp"

// Dragonbox's to_decimal is compiled into this file (format-inl.h holds its definition) rather
// than called in the shared library, with the full table of powers of ten (9.7 KiB; the shared
// library recovers most of them from a compressed table): the same digits, fewer instructions.
#define FMT_USE_FULL_CACHE_DRAGONBOX 1
#include <fmt/format-inl.h>
#include <fmt/format.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace field::io {

namespace {

/// The bits of a double.
inline std::uint64_t bits_of(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// Whether `value` is finite, nonzero and below 2^53 in magnitude, from its bits: the biased
/// exponent below 1023 + 53 and not all of the bits but the sign zero (twice - 1 wraps for 0).
inline bool nonzero_below_2_53(double value) {
  const std::uint64_t twice = bits_of(value) << 1;  // the sign dropped
  return twice - 1 < (std::uint64_t{1023 + 53} << 53) - 1;
}

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// Number of decimal digits of v >= 1.
int digit_count(std::uint64_t v) {
  static constexpr std::uint64_t kPow10[20] = {1ULL,
                                               10ULL,
                                               100ULL,
                                               1000ULL,
                                               10000ULL,
                                               100000ULL,
                                               1000000ULL,
                                               10000000ULL,
                                               100000000ULL,
                                               1000000000ULL,
                                               10000000000ULL,
                                               100000000000ULL,
                                               1000000000000ULL,
                                               10000000000000ULL,
                                               100000000000000ULL,
                                               1000000000000000ULL,
                                               10000000000000000ULL,
                                               100000000000000000ULL,
                                               1000000000000000000ULL,
                                               10000000000000000000ULL};
  const int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;  // floor or ceil of log10
  return t + (v >= kPow10[t] ? 1 : 0);
}

/// The 8 decimal digits of x < 10^8 (leading zeros included) as 8 ASCII bytes in memory order
/// (little-endian): x is split into two 4-digit lanes, each into two 2-digit lanes, each into two
/// digits, all lanes of one 64-bit word at once; (y * 10486) >> 20 = y / 100 for y < 10^4 and
/// (y * 103) >> 10 = y / 10 for y < 100.
inline __attribute__((always_inline)) std::uint64_t eight_digits(std::uint32_t x) {
  std::uint64_t z = (x / 10000) | (std::uint64_t{x % 10000} << 32);
  const std::uint64_t hundreds = ((z * 10486) >> 20) & 0x0000007F0000007FULL;
  z = hundreds | ((z - hundreds * 100) << 16);
  const std::uint64_t tens = ((z * 103) >> 10) & 0x000F000F000F000FULL;
  z = tens | ((z - tens * 10) << 8);
  return z + 0x3030303030303030ULL;
}

/// Stores the 8 bytes of `word` at out.
inline void store(char* out, std::uint64_t word) {
  std::memcpy(out, &word, sizeof word);
}

#if defined(__SSE2__)
/// The 8 decimal digits of x < 10^8 (leading zeros included) as eight 16-bit lanes, most
/// significant first, by SSE2 (the method of Milo Yip's itoa benchmarks): x = abcd * 10^4 + efgh,
/// each half broadcast to four lanes, divided by 10^3, 10^2, 10^1, 10^0 in two high-half
/// multiplications ((4 y * 8389) >> 25 = y / 1000, (4 y * 5243) >> 21 = y / 100, (4 y * 13108) >>
/// 19 = y / 10, y for y < 10^4), then each lane minus ten times its left neighbour.
inline __attribute__((always_inline)) __m128i eight_digit_lanes(std::uint32_t x) {
  const __m128i value = _mm_cvtsi32_si128(static_cast<int>(x));
  const __m128i abcd = _mm_srli_epi64(_mm_mul_epu32(value, _mm_set1_epi32(-776530087)), 45);
  const __m128i efgh = _mm_sub_epi32(value, _mm_mul_epu32(abcd, _mm_set1_epi32(10000)));
  const __m128i halves = _mm_slli_epi64(_mm_unpacklo_epi16(abcd, efgh), 2);  // 4 abcd, 4 efgh
  const __m128i pairs = _mm_unpacklo_epi16(halves, halves);
  const __m128i lanes = _mm_unpacklo_epi32(pairs, pairs);  // 4 x (4 abcd), 4 x (4 efgh)
  const __m128i quotients = _mm_mulhi_epu16(
      _mm_mulhi_epu16(lanes, _mm_setr_epi16(8389, 5243, 13108, -32768, 8389, 5243, 13108, -32768)),
      _mm_setr_epi16(1 << 7, 1 << 11, 1 << 13, -32768, 1 << 7, 1 << 11, 1 << 13, -32768));
  // a, ab, abc, abcd, e, ef, efg, efgh -> a, b, c, d, e, f, g, h
  return _mm_sub_epi16(quotients,
                       _mm_slli_epi64(_mm_mullo_epi16(quotients, _mm_set1_epi16(10)), 16));
}
#endif

/// Writes the `n` digits of v (n = digit_count(v) <= 17) at out[0..n). When n <= 8, by one 8-byte
/// store (the word shifted to drop its leading zeros), overwriting out[n..8); otherwise the 17
/// digits of v (leading zeros included) end at out[n]: the first by one byte, the last 16 by
/// SSE2 in one 16-byte store, overwriting out[n-17..0) with '0' characters (the scalar path
/// without SSE2 writes out[0..n) only). Every caller below writes into a local buffer with room
/// for those bytes, and writes what precedes the digits (the sign, "0.") after them.
inline __attribute__((always_inline)) void write_digits(char* out, std::uint64_t v, int n) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "eight_digits is little-endian");
  if (n <= 8) {
    store(out, eight_digits(static_cast<std::uint32_t>(v)) >> (8 * (8 - n)));
    return;
  }
#if defined(__SSE2__)
  constexpr std::uint64_t kTen16 = 10000000000000000ULL;
  const std::uint64_t first = v / kTen16;  // 0..9: v < 10^17
  const std::uint64_t rest = v - first * kTen16;
  const auto upper = static_cast<std::uint32_t>(rest / 100000000);
  const auto lower = static_cast<std::uint32_t>(rest - std::uint64_t{upper} * 100000000);
  out[n - 17] = static_cast<char>('0' + first);
  _mm_storeu_si128(
      reinterpret_cast<__m128i*>(out + n - 16),
      _mm_add_epi8(_mm_packus_epi16(eight_digit_lanes(upper), eight_digit_lanes(lower)),
                   _mm_set1_epi8('0')));
#else
  const std::uint64_t high = v / 100000000;
  const std::uint64_t low = eight_digits(static_cast<std::uint32_t>(v % 100000000));
  if (n <= 16) {
    store(out, eight_digits(static_cast<std::uint32_t>(high)) >> (8 * (16 - n)));
  } else {
    store(out, eight_digits(static_cast<std::uint32_t>(high / 100000000)) >> (8 * (24 - n)));
    store(out + n - 16, eight_digits(static_cast<std::uint32_t>(high % 100000000)));
  }
  store(out + n - 8, low);
#endif
}

/// The text of a finite nonzero `value` below 2^53 in magnitude, as write_shortest writes it, or
/// with `kIntegersWhole` as write_double writes it (an integral value always in fixed notation).
/// The text is made in a local buffer with room for whole-word stores and moves (before it too:
/// write_digits), then its first kMaxDoubleChars bytes are copied to `out` in one go (the bytes
/// after the text are scratch).
template <bool kIntegersWhole>
inline __attribute__((always_inline)) char* shortest_below_2_53(char* out, double value) {
  char buffer[56];
  char* const text = buffer + 8;
  // value = digits * 10^e with the fewest digits that read back to value (Dragonbox).
  const auto decimal = fmt::detail::dragonbox::to_decimal(value);
  std::uint64_t digits = decimal.significand;
  int e = decimal.exponent;
  while (digits % 10 == 0) {  // no trailing zeros (Dragonbox removes them already)
    digits /= 10;
    ++e;
  }
  const bool negative = (bits_of(value) >> 63) != 0;
  char* p = text + (negative ? 1 : 0);  // after the sign, written last
  const int n = digit_count(digits);
  // The shorter of fixed and scientific notation, fixed on a tie (std::to_chars's rule), from
  // the lengths: scientific "d.ddde+XX" has n + (n > 1) + 4 characters (+ 1 for a three-digit
  // exponent). Fixed: with e >= 0 (an integer below 2^53, exponent <= 15) "ddd" and e zeros,
  // n + e: fixed iff e <= (n > 1) + 4; with n + e > 0 "ddd.ddd", n + 1: always fixed; else
  // "0.000ddd" with z = -(n + e) zeros after the point, 2 + z + n: fixed iff z <= (n > 1) + 2
  // (never with a three-digit exponent, z >= 99).
  const int more = n > 1 ? 1 : 0;
  const bool fixed = e >= 0 ? kIntegersWhole || e <= more + 4 : n + e > 0 || -(n + e) <= more + 2;
  if (fixed) {
    if (e >= 0) {  // n + e <= 16 digits below 2^53
      write_digits(p, digits, n);
      store(p + n, 0x3030303030303030ULL);
      store(p + n + 8, 0x3030303030303030ULL);
      p += n + e;
    } else if (n + e > 0) {  // ddd.ddd: the -e <= 16 digits after the point move right by one
      write_digits(p, digits, n);
      char tail[16];
      std::memcpy(tail, p + n + e, sizeof tail);
      std::memcpy(p + n + e + 1, tail, sizeof tail);
      p[n + e] = '.';
      p += n + 1;
    } else {  // 0.000ddd: -(n + e) <= 3 zeros here (else scientific is shorter)
      store(p + 2, 0x3030303030303030ULL);
      write_digits(p + 2 - (n + e), digits, n);
      p[0] = '0';
      p[1] = '.';
      p += 2 - e;
    }
  } else {
    const int exponent = e + n - 1;  // d.ddde+XX
    const int exponent_abs = exponent < 0 ? -exponent : exponent;
    write_digits(p + 1, digits, n);
    p[0] = p[1];
    p[1] = '.';
    p += n > 1 ? n + 1 : 1;
    p[0] = 'e';
    p[1] = exponent < 0 ? '-' : '+';
    if (exponent_abs >= 100) {
      p[2] = static_cast<char>('0' + exponent_abs / 100);
      ++p;
    }
    const int pair = (exponent_abs % 100) * 2;
    p[2] = kPairs[pair];
    p[3] = kPairs[pair + 1];
    p += 4;
  }
  if (negative) text[0] = '-';
  std::memcpy(out, text, kMaxDoubleChars);
  return out + (p - text);
}

}  // namespace

char* write_integer(char* out, long long value) {
  return std::to_chars(out, out + 20, value).ptr;
}

char* write_shortest(char* out, double value) {
  if (!nonzero_below_2_53(value)) return std::to_chars(out, out + kMaxDoubleChars, value).ptr;
  return shortest_below_2_53<false>(out, value);
}

namespace {

/// write_double, inlined into write_double and write_doubles.
inline __attribute__((always_inline)) char* double_text(char* out, double value) {
  // Integral values below 2^53 as integers: "100000", not the "1e+05" of the shortest form.
  // Zero, infinities, NaN and magnitudes of 2^53 and above go to std::to_chars (std::to_chars
  // keeps the sign of -0; every double of 2^53 and above is integral, but not written whole).
  if (__builtin_expect(!nonzero_below_2_53(value), 0))
    return std::to_chars(out, out + kMaxDoubleChars, value).ptr;
  return shortest_below_2_53<true>(out, value);
}

}  // namespace

char* write_double(char* out, double value) {
  return double_text(out, value);
}

char* write_doubles(char* out, const double* values, std::size_t count, char end) {
  for (std::size_t k = 0; k < count; ++k) {
    out = double_text(out, values[k]);
    *out++ = k + 1 < count ? ',' : end;
  }
  return out;
}

}  // namespace field::io
