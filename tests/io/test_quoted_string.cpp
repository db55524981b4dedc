// io::quoted_string: the escapes shared by run.toml (TOML basic strings) and summary.json.
#include <gtest/gtest.h>

#include "libfield/io/quoted_string.hpp"

namespace field::io {
namespace {

TEST(QuotedString, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(quoted_string("plain/path.csv"), "\"plain/path.csv\"");
  EXPECT_EQ(quoted_string("a \"b\" \\c"), "\"a \\\"b\\\" \\\\c\"");
  EXPECT_EQ(quoted_string("two\nlines\tand\x01\x7f"), "\"two\\nlines\\tand\\u0001\\u007f\"");
  EXPECT_EQ(quoted_string("ü"), "\"ü\"");  // UTF-8 passes through
}

}  // namespace
}  // namespace field::io
