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

namespace field::io {

const std::vector<std::string>& field_csv_columns() {
  static const std::vector<std::string> columns = {"j", "a",  "t",  "s",  "x", "y",
                                                   "z", "qw", "qx", "qy", "qz"};
  return columns;
}

FieldCsvWriter::FieldCsvWriter(std::filesystem::path path, const mesh::SpacetimeMesh& mesh,
                               bool by_rows, mesh::Side left, int stride)
    : mesh_(mesh),
      by_rows_(by_rows),
      selection_(by_rows ? mesh.J() : mesh.A(), stride),
      csv_(std::move(path), field_csv_columns()),
      keys_(mesh, by_rows, left) {}

void FieldCsvWriter::slab(int index, const std::vector<lie::SE3>& values, const march::SlabStats&) {
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

void FieldCsvWriter::finish() {
  if (!csv_.is_open()) return;
  if (pending_index_ >= 0) write_slab(pending_index_, pending_);
  pending_index_ = -1;
  csv_.close();
}

void FieldCsvWriter::write_slab(int index, const std::vector<lie::SE3>& values) {
  // The whole slab as one text, values in the shortest round-trip form (csv_writer.hpp): per
  // node "j,a,t,s," (io/slab_key_texts.hpp), then the pose. The line's room, kMaxLine, holds the
  // keys' slots: a slot is at most kSlot bytes past the start of the last key, and 7 numbers of
  // kMaxDoubleChars and their separators follow.
  keys_.begin(index);
  // j, a, t, s and their commas; 7 pose values: kMaxDoubleChars each, 7 separators.
  constexpr std::size_t kMaxLine = SlabKeyTexts::kMaxChars + 7 * (kMaxDoubleChars + 1);
  static_assert(kMaxLine >= 10 + 1 + 10 + 1 + kMaxDoubleChars + 1 + SlabKeyTexts::kSlot,
                "the slot of s_a (time rows) or t_j (space columns) fits in the line's room");
  csv_.lines(static_cast<long long>(values.size()), values.size() * kMaxLine, [&](char* out) {
    for (std::size_t k = 0; k < values.size(); ++k) {
      out = keys_.write(out, k);
      const lie::SE3& g = values[k];
      const Vec4 q = g.quat();
      const double pose[7] = {g.r.x(), g.r.y(), g.r.z(), q(0), q(1), q(2), q(3)};
      out = write_doubles(out, pose, 7, '\n');
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

FieldCsv read_field_csv(const std::filesystem::path& path, bool prefix) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw IoError("cannot open '" + path.string() + "' for reading: " + last_os_error() +
                  "; give the field.csv of a run folder");
  const std::string name = path.string();
  FieldCsv csv;
  csv.path = path;

  std::string text;
  FIELD_CHECK(std::getline(in, text), name << " is empty: expected the header line '"
                                           << "j,a,t,s,x,y,z,qw,qx,qy,qz'");
  FIELD_CHECK(!prefix || !in.eof(), name << " holds no complete line (only " << text.size()
                                         << " bytes of its header): the run was stopped before "
                                            "it wrote a row");
  std::vector<std::string> header = split(text);
  for (std::string& h : header) h = trim(h);
  const std::vector<std::string>& wanted = field_csv_columns();
  std::vector<size_t> column(wanted.size());
  for (size_t c = 0; c < wanted.size(); ++c) {
    size_t k = 0;
    while (k < header.size() && header[k] != wanted[c]) ++k;
    FIELD_CHECK(k < header.size(), name << " line 1: column '" << wanted[c]
                                        << "' is missing; the header must name the columns "
                                        << "j,a,t,s,x,y,z,qw,qx,qy,qz, got '" << trim(text) << "'");
    column[c] = k;
  }

  double v[11];
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
    const Vec4 q(v[7], v[8], v[9], v[10]);
    FIELD_CHECK(std::abs(q.norm() - 1.0) <= 1e-6,
                name << " line " << line_number << ": the quaternion (" << v[7] << ", " << v[8]
                     << ", " << v[9] << ", " << v[10] << ") has norm " << q.norm()
                     << ", not 1 (to 1e-6); the rotation columns qw,qx,qy,qz must be a unit "
                        "quaternion");
    csv.line.push_back(line_number);
    csv.j.push_back(static_cast<int>(v[0]));
    csv.a.push_back(static_cast<int>(v[1]));
    csv.t.push_back(v[2]);
    csv.s.push_back(v[3]);
    csv.g.push_back(lie::SE3::from_quat(q.normalized(), Vec3(v[4], v[5], v[6])));
  }
  if (in.bad())
    throw IoError("cannot read '" + name + "' after line " + std::to_string(line_number) + ": " +
                  last_os_error());
  return csv;
}

long long drop_incomplete_last_slab(FieldCsv& csv, bool by_rows, int slab_size) {
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

mesh::Field assemble_field(const FieldCsv& csv, const mesh::SpacetimeMesh& mesh, bool by_rows) {
  const std::string name = csv.path.string();
  const int J = mesh.J(), A = mesh.A();
  mesh::Field field(mesh, by_rows ? mesh::Layout::by_row : mesh::Layout::by_column);
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

}  // namespace field::io
