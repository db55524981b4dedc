#include "libfield/io/slab_key_texts.hpp"

#include <cstring>

#include "libfield/io/number_text.hpp"

namespace field::io {

SlabKeyTexts::SlabKeyTexts(const mesh::SpacetimeMesh& mesh, bool by_rows, mesh::Side left)
    : by_rows_(by_rows), mesh_(mesh), left_(left) {
  static_assert(kMaxChars == 2 * 10 + 2 * kMaxDoubleChars + 4, "the keys' room");
  const int count = by_rows_ ? mesh.A() + 1 : mesh.J() + 1;
  texts_.assign(2 * static_cast<std::size_t>(count) * kSlot, ',');
  sizes_.resize(2 * static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) {
    char* const index = texts_.data() + 2 * k * kSlot;
    sizes_[2 * k] = static_cast<unsigned char>(write_integer(index, k) - index + 1);
    char text[kMaxDoubleChars];
    const char* const end = write_double(text, by_rows_ ? mesh.s(k, left_) : mesh.t(k));
    std::memcpy(index + kSlot, text, static_cast<std::size_t>(end - text));
    index[kSlot + (end - text)] = ',';
    sizes_[2 * k + 1] = static_cast<unsigned char>(end - text + 1);
  }
  std::memset(fixed_, ',', sizeof fixed_);
}

void SlabKeyTexts::begin(int index) {
  std::memset(fixed_, ',', sizeof fixed_);
  fixed_index_size_ = static_cast<std::size_t>(write_integer(fixed_, index) - fixed_) + 1;
  char text[kMaxDoubleChars];
  const char* const end = write_double(text, by_rows_ ? mesh_.t(index) : mesh_.s(index, left_));
  std::memcpy(fixed_ + kSlot, text, static_cast<std::size_t>(end - text));
  fixed_size_ = static_cast<std::size_t>(end - text) + 1;
}

char* SlabKeyTexts::write(char* out, std::size_t k) const {
  const auto copy = [](char* to, const char* slot, std::size_t size) {
    std::memcpy(to, slot, kSlot);
    return to + size;
  };
  const char* const node_index = texts_.data() + 2 * k * kSlot;
  const char* const node_text = node_index + kSlot;
  if (by_rows_) {
    out = copy(out, fixed_, fixed_index_size_);
    out = copy(out, node_index, sizes_[2 * k]);
    out = copy(out, fixed_ + kSlot, fixed_size_);
    return copy(out, node_text, sizes_[2 * k + 1]);
  }
  out = copy(out, node_index, sizes_[2 * k]);
  out = copy(out, fixed_, fixed_index_size_);
  out = copy(out, node_text, sizes_[2 * k + 1]);
  return copy(out, fixed_ + kSlot, fixed_size_);
}

}  // namespace field::io
