#include "libfield/io/section_table.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/node_data.hpp"

namespace field::io {

const std::vector<std::string>& section_table_columns() {
  static const std::vector<std::string> columns = {"EA",  "GA1",  "GA2",   "GJ",    "EI1",
                                                   "EI2", "rhoA", "rhoJ1", "rhoJ2", "rhoJ3"};
  return columns;
}

namespace {

using Constants = std::array<double, 10>;  // in the order of section_table_columns()

Constants row_constants(const CsvTable& table, std::size_t row) {
  Constants k;
  for (std::size_t c = 0; c < k.size(); ++c) {
    const std::string& name = section_table_columns()[c];
    k[c] = table.value(row, name);
    FIELD_CHECK(k[c] >= std::numeric_limits<double>::min(),
                table.where(row) << ": column '" << name << "': " << shortest(k[c])
                                 << " must be positive (a section stiffness or inertia)");
  }
  return k;
}

model::SectionLaw law_of(const Constants& k) {
  return model::SectionLaw::stiffnesses(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9]);
}

// The coupled form: the upper triangles of the stiffness (K) and inertia (M) matrices in the
// libfield order, K11, K12, ..., K16, K22, ..., K66 and the same for M.
const std::vector<std::string>& matrix_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c;
    for (const char m : {'K', 'M'})
      for (int i = 1; i <= 6; ++i)
        for (int j = i; j <= 6; ++j) c.push_back(std::string(1, m) + char('0' + i) + char('0' + j));
    return c;
  }();
  return columns;
}

struct Matrices {
  Mat6 C, J;
};

Matrices row_matrices(const CsvTable& table, std::size_t row) {
  Matrices m;
  std::size_t k = 0;
  for (Mat6* M : {&m.C, &m.J})
    for (int i = 0; i < 6; ++i)
      for (int j = i; j < 6; ++j) (*M)(i, j) = (*M)(j, i) = table.value(row, matrix_columns()[k++]);
  for (const auto& [M, name] : {std::pair{&m.C, "stiffness (K)"}, std::pair{&m.J, "inertia (M)"}}) {
    const std::string problem = model::spd_problem(*M, name);
    FIELD_CHECK(problem.empty(), table.where(row) << ": " << problem
                                                  << ": a section matrix must be symmetric "
                                                     "positive definite");
  }
  return m;
}

model::SectionLaw law_of(const Matrices& m) {
  return model::SectionLaw::matrices(m.C, m.J);
}

// Row i's law, or the law linear between rows i and i+1 at weight w (entry by entry: the
// engineering constants, or the matrices, whose convex combination stays positive definite).
template <class Row>
model::SectionLaw law_between(const CsvTable& table, std::size_t i, double w, Row row) {
  const auto k0 = row(table, i);
  if (w == 0.0 && table.rows.size() == 1) return law_of(k0);
  const auto k1 = row(table, i + 1);
  auto k = k0;
  if constexpr (std::is_same_v<decltype(k0), const Matrices>) {
    k.C = (1.0 - w) * k0.C + w * k1.C;
    k.J = (1.0 - w) * k0.J + w * k1.J;
  } else {
    for (std::size_t c = 0; c < k.size(); ++c) k[c] = (1.0 - w) * k0[c] + w * k1[c];
  }
  return law_of(k);
}

template <class Row>
std::vector<model::SectionLaw> laws_of(const CsvTable& table, const std::vector<double>& midpoints,
                                       Row row) {
  const std::filesystem::path& path = table.path;
  const int segments = static_cast<int>(midpoints.size());
  const bool by_s = table.has_column("s");
  FIELD_CHECK(by_s != table.has_column("a"),
              path.string() << ": give exactly one of the columns 's' (material coordinate [m], "
                               "interpolated at the segment midpoints) and 'a' (one row per "
                               "segment)");
  std::vector<model::SectionLaw> laws;
  if (!by_s) {
    // One row per segment: the rules of the node files (io/node_data.hpp), with A segments.
    for (const std::size_t i : segment_rows(table, segments)) laws.push_back(law_of(row(table, i)));
    return laws;
  }
  const std::size_t n = table.rows.size();
  FIELD_CHECK(n >= 1, path.string() << ": no rows; give the properties at two or more s");
  for (std::size_t i = 1; i < n; ++i)
    FIELD_CHECK(table.value(i, "s") > table.value(i - 1, "s"),
                table.where(i) << ": column 's': " << shortest(table.value(i, "s"))
                               << " does not increase (previous row "
                               << shortest(table.value(i - 1, "s"))
                               << "); give the rows in strictly increasing s");
  const double s_first = table.value(0, "s"), s_last = table.value(n - 1, "s");
  std::size_t i = 0;
  for (int a = 0; a < segments; ++a) {
    const double s = midpoints[static_cast<std::size_t>(a)];
    FIELD_CHECK(s >= s_first && s <= s_last,
                path.string() << ": the midpoint s = " << shortest(s) << " m of segment a = " << a
                              << " is outside the table's s = " << shortest(s_first) << " .. "
                              << shortest(s_last)
                              << " m: extend the table to cover the beam (theory §3.4: s_a = "
                                 "(a + 1/2) ds with a free left end, a ds with a held one)");
    while (i + 1 < n - 1 && table.value(i + 1, "s") < s) ++i;
    if (n == 1) {
      laws.push_back(law_of(row(table, 0)));
      continue;
    }
    const double s0 = table.value(i, "s"), s1 = table.value(i + 1, "s");
    laws.push_back(law_between(table, i, (s - s0) / (s1 - s0), row));
  }
  return laws;
}

}  // namespace

const std::vector<std::string>& section_matrix_columns() {
  return matrix_columns();
}

std::vector<model::SectionLaw> read_section_table(const std::filesystem::path& path,
                                                  const std::vector<double>& midpoints) {
  // The header decides the form: K11 present, the coupled matrices; else the constants.
  const bool coupled = read_csv(path, {}).has_column("K11");
  if (coupled) return laws_of(read_csv(path, matrix_columns()), midpoints, row_matrices);
  return laws_of(read_csv(path, section_table_columns()), midpoints, row_constants);
}

}  // namespace field::io
