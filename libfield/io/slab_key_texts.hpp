#pragma once
/// The texts "j,a,t,s," that begin every line of the node CSV files of a run folder (field.csv,
/// field_rates.csv; docs/output-format.md): node indices, t_j and s_a in their shortest round-trip
/// form (number_text.hpp). Time rows repeat a and s_a in every row, space columns j and t_j in
/// every column: those are formatted once, the slab's own index and t_j (or s_a) once per slab.
/// Each text sits in a slot of kSlot bytes that is copied whole and then overwritten from its end
/// by what follows (the fast path of docs/performance.md, "Whole runs").
#include <cstddef>
#include <vector>

#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::io {

class SlabKeyTexts {
 public:
  /// Bytes of a slot: write() may write this many bytes past the start of its last text.
  static constexpr std::size_t kSlot = 32;
  /// The most characters the four keys take (j, a: 10 digits; t, s: kMaxDoubleChars; 4 commas).
  static constexpr std::size_t kMaxChars = 2 * 10 + 2 * 24 + 4;

  /// `by_rows`: slabs are time rows j (nodes a = 0..A), else space columns a (nodes j = 0..J).
  /// `left` says where the nodes sit: s = mesh.s(a, left).
  SlabKeyTexts(const mesh::SpacetimeMesh& mesh, bool by_rows, mesh::Side left);

  /// Formats the slab's own index and its t_j (time row) or s_a (space column).
  void begin(int index);
  /// Writes "j,a,t,s," of node k of the slab begun last and returns the end. Writes up to kSlot
  /// bytes past the start of the last text: the caller's room holds at least kSlot bytes more
  /// than kMaxChars (the values that follow overwrite them).
  char* write(char* out, std::size_t k) const;

 private:
  bool by_rows_;
  mesh::SpacetimeMesh mesh_;
  mesh::Side left_;
  // Node k's index text in slot 2k, its t or s text in slot 2k + 1: the text of slot i is
  // texts_[i kSlot .. i kSlot + sizes_[i]) (with its comma).
  std::vector<char> texts_;
  std::vector<unsigned char> sizes_;
  alignas(16) char fixed_[2 * kSlot];  // the slab's index and t_j or s_a, with their commas
  std::size_t fixed_index_size_ = 0, fixed_size_ = 0;
};

}  // namespace field::io
