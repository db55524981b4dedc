#include "libfield/io/field_csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/input_file.hpp"

namespace field::io {

template <class E>
const std::vector<std::string>& field_csv_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c = {"j", "a", "t", "s"};
    for (const char* name : lie::Coordinates<E>::names) c.emplace_back(name);
    return c;
  }();
  return columns;
}

template <class E>
BasicFieldCsvWriter<E>::BasicFieldCsvWriter(std::filesystem::path path,
                                            const mesh::SpacetimeMesh& mesh, bool by_rows,
                                            mesh::Side left, int stride)
    : mesh_(mesh),
      by_rows_(by_rows),
      selection_(by_rows ? mesh.J() : mesh.A(), stride),
      csv_(std::move(path), field_csv_columns<E>(), CsvWrites::behind),
      keys_(mesh, by_rows, left) {}

template <class E>
void BasicFieldCsvWriter<E>::slab(int index, const std::vector<E>& values,
                                  const march::SlabStats&) {
  const int size = by_rows_ ? mesh_.A() + 1 : mesh_.J() + 1;
  FIELD_CHECK(index >= 0 && index <= selection_.last(),
              "field.csv: slab " << index << " outside 0.." << selection_.last());
  FIELD_CHECK(static_cast<int>(values.size()) == size, "field.csv: slab "
                                                           << index << " has " << values.size()
                                                           << " poses, expected " << size);
  if (selection_.selects(index)) {
    write_slab(index, values);
    pending_index_ = -1;
  } else {
    pending_ = values;
    pending_index_ = index;
  }
}

template <class E>
void BasicFieldCsvWriter<E>::finish() {
  if (!csv_.is_open()) return;
  if (pending_index_ >= 0) write_slab(pending_index_, pending_);
  pending_index_ = -1;
  csv_.close();
}

template <class E>
void BasicFieldCsvWriter<E>::write_slab(int index, const std::vector<E>& values) {
  // The whole slab as one text, values in the shortest round-trip form (csv_writer.hpp): per
  // node "j,a,t,s," (io/slab_key_texts.hpp), then the coordinates. The line's room, kMaxLine,
  // holds the keys' slots: a slot is at most kSlot bytes past the start of the last key, and n
  // numbers of kMaxDoubleChars and their separators follow.
  using C = lie::Coordinates<E>;
  constexpr int n = C::size;
  keys_.begin(index);
  // j, a, t, s and their commas; n values: kMaxDoubleChars each, n separators.
  constexpr std::size_t kMaxLine = SlabKeyTexts::kMaxChars + n * (kMaxDoubleChars + 1);
  static_assert(kMaxLine >= 10 + 1 + 10 + 1 + kMaxDoubleChars + 1 + SlabKeyTexts::kSlot,
                "the slot of s_a (time rows) or t_j (space columns) fits in the line's room");
  csv_.lines(static_cast<long long>(values.size()), values.size() * kMaxLine, [&](char* out) {
    for (std::size_t k = 0; k < values.size(); ++k) {
      out = keys_.write(out, k);
      double coordinates[n];
      C::write(values[k], coordinates);
      out = write_doubles(out, coordinates, n, '\n');
    }
    return out;
  });
}

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();  // a trailing empty field
  return fields;
}

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

}  // namespace

template <class E>
BasicFieldCsv<E> read_field_csv(const std::filesystem::path& path, bool prefix) {
  using C = lie::Coordinates<E>;
  std::ifstream in = open_input(path, kAnySize, "field file");
  const std::string name = path.string();
  BasicFieldCsv<E> csv;
  csv.path = path;
  const std::vector<std::string>& wanted = field_csv_columns<E>();
  std::string names;  // "j,a,t,s,x,y,z,..."
  for (const std::string& c : wanted) names += (names.empty() ? "" : ",") + c;

  std::string text;
  FIELD_CHECK(std::getline(in, text),
              name << " is empty: expected the header line '" << names << "'");
  FIELD_CHECK(!prefix || !in.eof(), name << " holds no complete line (only " << text.size()
                                         << " bytes of its header): the run was stopped before "
                                            "it wrote a row");
  std::vector<std::string> header = split(text);
  for (std::string& h : header) h = trim(h);
  std::vector<size_t> column(wanted.size());
  for (size_t c = 0; c < wanted.size(); ++c) {
    size_t k = 0;
    while (k < header.size() && header[k] != wanted[c]) ++k;
    FIELD_CHECK(k < header.size(), name << " line 1: column '" << wanted[c]
                                        << "' is missing; the header must name the columns "
                                        << names << ", got '" << trim(text) << "'");
    column[c] = k;
  }

  double v[4 + C::size];
  long long line_number = 1;
  while (std::getline(in, text)) {
    ++line_number;
    if (prefix && in.eof()) {  // no line end: cut by the kill
      csv.cut_line = true;
      break;
    }
    const std::vector<std::string> fields = split(text);
    FIELD_CHECK(fields.size() == header.size(),
                name << " line " << line_number << ": " << fields.size() << " values for "
                     << header.size() << " columns ('" << trim(text)
                     << "'); every line needs one value per column");
    for (size_t c = 0; c < wanted.size(); ++c) {
      const std::string value = trim(fields[column[c]]);
      char* end = nullptr;
      v[c] = std::strtod(value.c_str(), &end);
      FIELD_CHECK(!value.empty() && end == value.c_str() + value.size(),
                  name << " line " << line_number << ", column '" << wanted[c] << "': '" << value
                       << "' is not a number");
      FIELD_CHECK(std::isfinite(v[c]), name << " line " << line_number << ", column '" << wanted[c]
                                            << "': " << value
                                            << " is not finite; the run that wrote it diverged");
    }
    for (int c = 0; c < 2; ++c)
      FIELD_CHECK(v[c] >= 0.0 && v[c] <= 2e9 && v[c] == std::floor(v[c]),
                  name << " line " << line_number << ", column '" << wanted[c] << "': " << v[c]
                       << " is not a node index (a non-negative integer)");
    const std::string problem = C::problem(v + 4);
    FIELD_CHECK(problem.empty(), name << " line " << line_number << ": " << problem);
    csv.line.push_back(line_number);
    csv.j.push_back(static_cast<int>(v[0]));
    csv.a.push_back(static_cast<int>(v[1]));
    csv.t.push_back(v[2]);
    csv.s.push_back(v[3]);
    csv.g.push_back(C::read(v + 4));
  }
  if (in.bad())
    throw IoError("cannot read '" + name + "' after line " + std::to_string(line_number) + ": " +
                  last_os_error());
  return csv;
}

template <class E>
long long drop_incomplete_last_slab(BasicFieldCsv<E>& csv, bool by_rows, int slab_size) {
  const std::vector<int>& slab = by_rows ? csv.j : csv.a;
  if (slab.empty()) return 0;
  size_t first = slab.size();
  while (first > 0 && slab[first - 1] == slab.back()) --first;
  const long long count = static_cast<long long>(slab.size() - first);
  if (count >= slab_size) return 0;
  for (auto* v : {&csv.j, &csv.a}) v->resize(first);
  for (auto* v : {&csv.t, &csv.s}) v->resize(first);
  csv.line.resize(std::min(csv.line.size(), first));
  csv.g.resize(first);
  return count;
}

template <class E>
mesh::BasicField<E> assemble_field(const BasicFieldCsv<E>& csv, const mesh::SpacetimeMesh& mesh,
                                   bool by_rows) {
  const std::string name = csv.path.string();
  const int J = mesh.J(), A = mesh.A();
  mesh::BasicField<E> field(mesh, by_rows ? mesh::Layout::by_row : mesh::Layout::by_column);
  std::vector<long long> seen(static_cast<size_t>(mesh.node_count()), 0);  // line, 0: not seen
  for (size_t k = 0; k < csv.g.size(); ++k) {
    const int j = csv.j[k], a = csv.a[k];
    const long long line = k < csv.line.size() ? csv.line[k] : static_cast<long long>(k) + 2;
    FIELD_CHECK(mesh.has_node(j, a), name << " line " << line << ": node (" << j << ", " << a
                                          << ") is outside the mesh (j = 0.." << J << ", a = 0.."
                                          << A << "); the file belongs to another run");
    const double t = mesh.t(j);
    FIELD_CHECK(std::abs(csv.t[k] - t) <= 1e-12 * std::max(1.0, std::abs(t)),
                name << " line " << line << ": t = " << csv.t[k] << " at node (" << j << ", " << a
                     << ") but the mesh has t_j = " << t << " (dt = " << mesh.dt()
                     << "); the file belongs to another run");
    long long& first = seen[static_cast<size_t>(j) * (A + 1) + a];
    FIELD_CHECK(first == 0, name << " line " << line << ": node (" << j << ", " << a
                                 << ") appears a second time (first at line " << first
                                 << "); every node must appear once");
    first = line;
    field(j, a) = csv.g[k];
  }
  // The first missing node in the order the march writes them.
  const int outer = by_rows ? J : A, inner = by_rows ? A : J;
  for (int p = 0; p <= outer; ++p)
    for (int q = 0; q <= inner; ++q) {
      const int j = by_rows ? p : q, a = by_rows ? q : p;
      FIELD_CHECK(seen[static_cast<size_t>(j) * (A + 1) + a] != 0,
                  name << ": node (" << j << ", " << a << ") is missing (" << csv.g.size()
                       << " nodes in the file, the mesh has " << mesh.node_count()
                       << "); `field check` needs every node: write the run with stride 1");
    }
  return field;
}

// The poses of the beams (the planar beam's embedded) and the points of the cable.
#define FIELD_INSTANTIATE(E)                                                       \
  template const std::vector<std::string>& field_csv_columns<E>();                 \
  template class BasicFieldCsvWriter<E>;                                           \
  template BasicFieldCsv<E> read_field_csv<E>(const std::filesystem::path&, bool); \
  template long long drop_incomplete_last_slab<E>(BasicFieldCsv<E>&, bool, int);   \
  template mesh::BasicField<E> assemble_field<E>(const BasicFieldCsv<E>&,          \
                                                 const mesh::SpacetimeMesh&, bool);
FIELD_INSTANTIATE(lie::SE3)
FIELD_INSTANTIATE(Vec3)
#undef FIELD_INSTANTIATE

}  // namespace field::io
