#include "libfield/io/excerpt.hpp"

namespace field::io {

std::string excerpt(const std::string& text, std::size_t length) {
  if (text.size() <= length) return text;
  std::size_t cut = length;
  // Do not split a UTF-8 character: back up over continuation bytes 10xxxxxx.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace field::io
