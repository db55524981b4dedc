#include "libfield/io/field_rates.hpp"

#include <cstring>

#include "libfield/io/beam_rates.hpp"
#include "libfield/io/vtk_file.hpp"

namespace field::io {

const std::vector<std::string>& field_rates_columns() {
  static const std::vector<std::string> columns = {"j",  "a",  "t",  "s",  "w1", "w2", "w3", "v1",
                                                   "v2", "v3", "k1", "k2", "k3", "g1", "g2", "g3",
                                                   "m1", "m2", "m3", "n1", "n2", "n3"};
  return columns;
}

template <class G>
FieldRatesWriter<G>::FieldRatesWriter(std::filesystem::path path,
                                      const dcel::DiscreteModel<G>& model, mesh::Side left,
                                      int stride, int first_row)
    : model_(model),
      selection_(model.mesh().J(), stride),
      csv_(std::move(path), field_rates_columns(), CsvWrites::behind),
      keys_(model.mesh(), true, left),
      first_(first_row),
      last_j_(first_row - 1) {}

template <class G>
void FieldRatesWriter<G>::slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats&) {
  check_frame_row("field_rates.csv", j, last_j_, finished_, row.size(), model_.mesh());
  if (last_j_ >= first_ && selection_.selects(last_j_)) write_row(last_j_, last_, &last_, &row);
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

template <class G>
void FieldRatesWriter<G>::finish() {
  if (finished_) return;
  finished_ = true;
  if (last_j_ > first_)  // the last row has no successor: the velocity of the step before
    write_row(last_j_, last_, &before_, &last_);
  else if (last_j_ == first_)
    write_row(last_j_, last_, nullptr, nullptr);
  csv_.close();
}

template <class G>
void FieldRatesWriter<G>::write_row(int j, const std::vector<lie::SE3>& row,
                                    const std::vector<lie::SE3>* from,
                                    const std::vector<lie::SE3>* to) {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const int A = mesh.A();
  keys_.begin(j);
  // The keys (and their slot, kSlot bytes past the last key), then 18 values and separators.
  constexpr std::size_t kMaxLine = SlabKeyTexts::kMaxChars + 18 * (kMaxDoubleChars + 1);
  static_assert(kMaxLine >= 10 + 1 + 10 + 1 + kMaxDoubleChars + 1 + SlabKeyTexts::kSlot,
                "the slot of s_a fits in the line's room");
  csv_.lines(A + 1, static_cast<std::size_t>(A + 1) * kMaxLine, [&](char* out) {
    for (int a = 0; a <= A; ++a) {
      out = keys_.write(out, static_cast<std::size_t>(a));
      const Vec6 xi = node_velocity<G>(mesh, from, to, a);
      if (a == A) {  // no segment (A, A+1): 12 empty fields
        out = write_doubles(out, xi.data(), 6, ',');
        std::memset(out, ',', 11);
        out += 11;
        *out++ = '\n';
        continue;
      }
      const SegmentStress segment = segment_stress(model_, row, a);
      double values[18];
      for (int c = 0; c < 6; ++c) {
        values[c] = xi(c);
        values[6 + c] = segment.eta(c);
        values[12 + c] = segment.stress(c);
      }
      out = write_doubles(out, values, 18, '\n');
    }
    return out;
  });
}

#define FIELD_INSTANTIATE(G) template class FieldRatesWriter<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
