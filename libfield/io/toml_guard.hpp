#pragma once
/// A cheap pre-scan of a case file's text before the TOML library parses it (issue 15, class 1):
/// the library recurses once per table level and trusts its input, so a header or dotted key of
/// tens of thousands of parts overflows the stack, and some invalid bytes reach assertions. The
/// scan rejects, naming the line and column:
///   - bytes that are not valid UTF-8 (overlong forms, surrogates, beyond U+10FFFF, cut short);
///   - control characters TOML never allows (U+0000..U+001F except tab, newline and a carriage
///     return before a newline; U+007F), in strings and comments too;
///   - non-ASCII characters outside strings and comments (TOML keys and values are ASCII);
///   - keys and table headers of more than kTomlMaxKeyParts dotted parts;
///   - values nested deeper than kTomlMaxDepth (table levels of the header and keys plus arrays and
///     inline tables around a value).
/// Valid TOML within these bounds is never rejected: strings and comments are skipped as TOML
/// defines them. Anything else is left to the library, which reports it.
#include <filesystem>
#include <string_view>

namespace field::io {

inline constexpr int kTomlMaxKeyParts = 64;
inline constexpr int kTomlMaxDepth = 128;

/// Throws field::Error "file:line:column: ..." for the first problem found.
void check_toml_text(std::string_view text, const std::filesystem::path& file);

}  // namespace field::io
