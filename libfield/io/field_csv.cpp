#include "libfield/io/field_csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
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
      left_(left),
      selection_(by_rows ? mesh.J() : mesh.A(), stride),
      csv_(std::move(path), field_csv_columns()) {
  if (by_rows_) {  // "a," and "s_a," are the same in every row: formatted once
    for (int a = 0; a <= mesh_.A(); ++a) {
      a_text_.push_back(std::to_string(a) + ',');
      s_text_.emplace_back();
      append_double(s_text_.back(), mesh_.s(a, left_));
      s_text_.back() += ',';
    }
  }
}

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
  // node "j,a,t,s," then the pose. Time rows reuse "j," and "t_j," and the nodes' "a,s_a,".
  text_.clear();
  std::string row_text;  // "j," of a time row, "t_j," after it
  std::string t_text;
  if (by_rows_) {
    row_text = std::to_string(index) + ',';
    append_double(t_text, mesh_.t(index));
    t_text += ',';
  }
  for (int k = 0; k < static_cast<int>(values.size()); ++k) {
    const int j = by_rows_ ? index : k, a = by_rows_ ? k : index;
    if (by_rows_) {
      text_ += row_text;
      text_ += a_text_[static_cast<size_t>(a)];
      text_ += t_text;
      text_ += s_text_[static_cast<size_t>(a)];
    } else {
      text_ += std::to_string(j);
      text_ += ',';
      text_ += std::to_string(a);
      text_ += ',';
      append_double(text_, mesh_.t(j));
      text_ += ',';
      append_double(text_, mesh_.s(a, left_));
      text_ += ',';
    }
    const lie::SE3& g = values[static_cast<size_t>(k)];
    const Vec4 q = g.quat();
    const double pose[7] = {g.r.x(), g.r.y(), g.r.z(), q(0), q(1), q(2), q(3)};
    for (int c = 0; c < 7; ++c) {
      append_double(text_, pose[c]);
      text_ += c < 6 ? ',' : '\n';
    }
  }
  csv_.lines(text_, static_cast<long long>(values.size()));
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

FieldCsv read_field_csv(const std::filesystem::path& path) {
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
