#pragma once
/// A bounded excerpt of a text for error messages: a 10 MB CSV line or a 10^6-entry TOML array
/// must not end up whole in a message (issue 15, class 4).
#include <cstddef>
#include <string>

namespace field::io {

/// Characters of a value quoted in a message, at most.
inline constexpr std::size_t kExcerptLength = 60;

/// `text` itself when it has at most `length` bytes; otherwise its first `length` bytes (cut
/// before a UTF-8 continuation byte, never inside a character) followed by
/// "... (N bytes)", N = text.size().
std::string excerpt(const std::string& text, std::size_t length = kExcerptLength);

}  // namespace field::io
