#include "libfield/io/checkpoint.hpp"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/input_file.hpp"
#include "libfield/io/pose_track.hpp"

namespace field::io {

namespace {

// The exact text of a double: C99 hexadecimal ("0x1.47ae147ae147bp-8"), read back by strtod.
std::string hex(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", v);
  return text;
}

const char* const kRows[2] = {"prev", "cur"};
const char* const kRates[3] = {"xi", "back1", "back2"};
const char* const kDamping[3] = {"dxi", "deta", "dD2"};  // Checkpoint::damping_*

}  // namespace

double Checkpoint::number(const std::string& name) const {
  for (const auto& [key, value] : numbers)
    if (key == name) return value;
  FIELD_CHECK(false, path.string() << ": no line 'number " << name
                                   << "': the checkpoint was not written by this program's "
                                      "`field simulate` ([output] checkpoint = true)");
  return 0.0;
}

std::uint64_t checkpoint_case_hash(const CaseSpec& spec) {
  CaseSpec physics = spec;
  physics.file.clear();  // the header line names the case file
  physics.name.clear();
  physics.description.clear();
  physics.J = 0;
  physics.initial = InitialSpec{};
  physics.output = OutputSpec{};
  std::ostringstream text;
  write_case(text, physics);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a, 64 bits
  for (const unsigned char c : text.str()) h = (h ^ c) * 1099511628211ull;
  return h;
}

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  const march::MarchState<lie::SE3, Vec6>& s = c.march;
  FIELD_CHECK(s.k >= 1 && static_cast<int>(s.cur.size()) == c.A + 1,
              "checkpoint: no march state to write");
  FIELD_CHECK(c.theory == Theory::beam || c.theory == Theory::planar_beam,
              "checkpoint: only the beam's and the planar beam's marches are written");
  write_file_atomically(path, [&](std::ostream& out) {
    char hash[24];
    std::snprintf(hash, sizeof hash, "%016" PRIx64, c.case_hash);
    out << "# libfield checkpoint: the state of a time march after row " << s.k
        << ", exact (hexadecimal floats); continue it with [initial] checkpoint = \"...\" "
           "(docs/cli.md)\nformat 1\nretraction "
        << (c.retraction == lie::RetractionKind::cayley ? "cayley" : "exp") << "\n";
    // Only the planar beam's: the SE(3) beam's checkpoints keep the lines they always had.
    if (c.theory == Theory::planar_beam) out << "theory planar_beam\n";
    out << "case " << hash << "\nA " << c.A << "\ndt " << hex(c.dt) << "\nds " << hex(c.ds)
        << "\nrow " << s.k << "\n";
    for (const auto& [name, value] : c.numbers)
      out << "number " << name << " " << hex(value) << "\n";
    for (int kind = 0; kind < 2; ++kind) {
      const std::vector<lie::SE3>& row = kind == 0 ? s.prev : s.cur;
      for (int a = 0; a <= c.A; ++a) {
        const lie::SE3& g = row[static_cast<std::size_t>(a)];
        out << kRows[kind] << " " << a;
        for (int i = 0; i < 3; ++i)
          for (int k = 0; k < 3; ++k) out << " " << hex(g.R(i, k));
        for (int i = 0; i < 3; ++i) out << " " << hex(g.r(i));
        out << "\n";
      }
    }
    for (int kind = 0; kind < 3; ++kind) {
      const std::vector<Vec6>& v = kind == 0 ? s.y : kind == 1 ? s.back1 : s.back2;
      for (int a = 0; a <= c.A; ++a) {
        out << kRates[kind] << " " << a;
        for (int i = 0; i < 6; ++i) out << " " << hex(v[static_cast<std::size_t>(a)](i));
        out << "\n";
      }
    }
    for (int kind = 0; kind < 3; ++kind) {
      const std::vector<Vec6>& v = kind == 0   ? c.damping_xi
                                   : kind == 1 ? c.damping_eta
                                               : c.damping_D2;
      for (std::size_t a = 0; a < v.size(); ++a) {
        out << kDamping[kind] << " " << a;
        for (int i = 0; i < 6; ++i) out << " " << hex(v[a](i));
        out << "\n";
      }
    }
  });
}

Checkpoint read_checkpoint(const std::filesystem::path& path) {
  std::ifstream in = open_input(path, kAnySize, "checkpoint file");
  Checkpoint c;
  c.path = path;
  const std::string name = path.string();
  std::map<std::string, long long> seen;  // header key -> line
  // Rows and rates by kind: the values of node a, and the line that gave them.
  std::map<std::string, std::map<long long, std::pair<std::vector<double>, long long>>> nodes;
  std::string text;
  long long line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text[0] == '#') continue;
    std::istringstream words(text);
    std::string key;
    words >> key;
    std::vector<std::string> rest;
    for (std::string w; words >> w;) rest.push_back(w);
    const auto where = [&] { return name + ":" + std::to_string(line) + ": '" + key + "'"; };
    const auto value = [&](const std::string& word) {
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(word.c_str(), &end);
      FIELD_CHECK(end == word.c_str() + word.size() && !word.empty(),
                  where() << ": '" << word << "' is not a number");
      FIELD_CHECK(std::isfinite(v), where() << ": " << word << " is not finite");
      return v;
    };
    const auto integer = [&](const std::string& word) {
      const double v = value(word);
      FIELD_CHECK(v == std::floor(v) && v >= 0.0 && v <= 2e9,
                  where() << ": " << word << " is not a non-negative integer");
      return static_cast<long long>(v);
    };
    const auto count = [&](std::size_t n) {
      FIELD_CHECK(rest.size() == n, where() << " has " << rest.size() << " values, expected " << n);
    };
    bool is_node = false;
    std::size_t width = 0;
    for (const char* k : kRows)
      if (key == k) is_node = true, width = 12;
    for (const char* k : kRates)
      if (key == k) is_node = true, width = 6;
    for (const char* k : kDamping)
      if (key == k) is_node = true, width = 6;
    if (is_node) {
      count(width + 1);
      const long long a = integer(rest[0]);
      auto& slot = nodes[key][a];
      FIELD_CHECK(slot.second == 0,
                  where() << " " << a << " given twice (first on line " << slot.second << ")");
      for (std::size_t i = 1; i < rest.size(); ++i) slot.first.push_back(value(rest[i]));
      slot.second = line;
      continue;
    }
    if (key == "number") {
      count(2);
      c.numbers.emplace_back(rest[0], value(rest[1]));
      continue;
    }
    FIELD_CHECK(key == "format" || key == "retraction" || key == "theory" || key == "case" ||
                    key == "A" || key == "dt" || key == "ds" || key == "row",
                where() << " is not a line of a checkpoint");
    FIELD_CHECK(seen.count(key) == 0, where()
                                          << " given twice (first on line " << seen[key] << ")");
    seen[key] = line;
    count(1);
    if (key == "format") {
      FIELD_CHECK(rest[0] == "1",
                  where() << ": format " << rest[0] << " is not known to this program (format 1)");
    } else if (key == "retraction") {
      FIELD_CHECK(rest[0] == "cayley" || rest[0] == "exp",
                  where() << ": '" << rest[0] << "' is not cayley or exp");
      c.retraction =
          rest[0] == "cayley" ? lie::RetractionKind::cayley : lie::RetractionKind::exponential;
    } else if (key == "theory") {
      FIELD_CHECK(rest[0] == "planar_beam" || rest[0] == "beam",
                  where() << ": '" << rest[0] << "' is not beam or planar_beam");
      c.theory = rest[0] == "planar_beam" ? Theory::planar_beam : Theory::beam;
    } else if (key == "case") {
      char* end = nullptr;
      c.case_hash = std::strtoull(rest[0].c_str(), &end, 16);
      FIELD_CHECK(end == rest[0].c_str() + rest[0].size() && rest[0].size() == 16,
                  where() << ": '" << rest[0] << "' is not a 16-digit hexadecimal hash");
    } else if (key == "A") {
      c.A = static_cast<int>(integer(rest[0]));
    } else if (key == "dt") {
      c.dt = value(rest[0]);
    } else if (key == "ds") {
      c.ds = value(rest[0]);
    } else {
      c.march.k = static_cast<int>(integer(rest[0]));
    }
  }
  if (in.bad())
    throw IoError("cannot read '" + name + "' after line " + std::to_string(line) + ": " +
                  last_os_error());
  for (const char* key : {"format", "retraction", "case", "A", "dt", "ds", "row"})
    FIELD_CHECK(seen.count(key) == 1, name << ": the line '" << key
                                           << "' is missing; the file is not a complete "
                                              "checkpoint.txt");
  FIELD_CHECK(c.A >= 1 && c.march.k >= 1 && c.dt > 0.0 && c.ds > 0.0,
              name << ": A = " << c.A << ", row " << c.march.k << ", dt = " << c.dt
                   << ", ds = " << c.ds << ": not the state of a time march (A >= 1, row >= 1)");
  // Nodes 0..last of `key` (last = A, or A-1 for the damping terms of the A segments).
  const auto fill = [&](const char* key, auto& out, auto convert, int last) {
    const auto& by_node = nodes[key];
    for (int a = 0; a <= last; ++a) {
      const auto at = by_node.find(a);
      FIELD_CHECK(at != by_node.end(), name << ": the line '" << key << " " << a
                                            << "' is missing (A = " << c.A << ": nodes 0.." << last
                                            << ")");
      out.push_back(convert(at->second.first));
    }
    FIELD_CHECK(by_node.size() == static_cast<std::size_t>(last) + 1,
                name << ": line " << by_node.rbegin()->second.second << ": '" << key << " "
                     << by_node.rbegin()->first << "' is outside the nodes 0.." << last);
  };
  const auto pose = [](const std::vector<double>& v) {
    lie::SE3 g;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) g.R(i, k) = v[static_cast<std::size_t>(3 * i + k)];
    g.r = Vec3(v[9], v[10], v[11]);
    return g;
  };
  const auto rate = [](const std::vector<double>& v) {
    Vec6 x;
    for (int i = 0; i < 6; ++i) x(i) = v[static_cast<std::size_t>(i)];
    return x;
  };
  fill("prev", c.march.prev, pose, c.A);
  fill("cur", c.march.cur, pose, c.A);
  fill("xi", c.march.y, rate, c.A);
  fill("back1", c.march.back1, rate, c.A);
  fill("back2", c.march.back2, rate, c.A);
  if (nodes.count("dxi") + nodes.count("deta") + nodes.count("dD2") > 0) {  // a damped march
    fill("dxi", c.damping_xi, rate, c.A);
    fill("deta", c.damping_eta, rate, c.A - 1);
    fill("dD2", c.damping_D2, rate, c.A - 1);
  }
  return c;
}

void check_checkpoint_fits(const Checkpoint& c, const CaseSpec& spec) {
  const std::string both = spec.file.string() + ": [initial] checkpoint '" + c.path.string() + "'";
  const auto theory = [](Theory t) {
    return t == Theory::planar_beam ? "a planar beam (theory = \"planar_beam\", SE(2))"
                                    : "a beam on SE(3) (theory = \"beam\")";
  };
  FIELD_CHECK(c.theory == spec.theory,
              both << " holds the march of " << theory(c.theory) << ", and this case is "
                   << theory(spec.theory)
                   << ": continue a run with a case of the theory that wrote the checkpoint");
  FIELD_CHECK(c.A == spec.A && c.dt == spec.dt && c.ds == spec.ds,
              both << " was written on a grid with A = " << c.A << ", dt = " << hex(c.dt)
                   << ", ds = " << hex(c.ds) << "; this case has A = " << spec.A
                   << ", dt = " << hex(spec.dt) << ", ds = " << hex(spec.ds)
                   << ": continue a run on the grid it was written on");
  FIELD_CHECK(c.retraction == spec.retraction,
              both << " was written with another retraction: give the run's retraction");
  FIELD_CHECK(c.case_hash == checkpoint_case_hash(spec),
              both << " was written by a case with other beam, shape, boundary, loads, damping or "
                      "solver settings: continue a run with the case that wrote it (only name, "
                      "description, J, [initial] and [output] may differ)");
  // The march's rotations are orthogonal to round-off; an edited one would march a field that
  // is no motion of the beam (theory §2), so R must be a rotation to kQuaternionTolerance.
  for (int kind = 0; kind < 2; ++kind)
    for (int a = 0; a <= c.A; ++a) {
      const Mat3& R = (kind == 0 ? c.march.prev : c.march.cur)[static_cast<std::size_t>(a)].R;
      const double off = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
      FIELD_CHECK(off <= kQuaternionTolerance && R.determinant() > 0.0,
                  c.path.string() << ": the line '" << kRows[kind] << " " << a
                                  << "' holds no rotation R (max |R^T R - I| = " << off
                                  << ", det R = " << R.determinant() << ", tolerance "
                                  << kQuaternionTolerance
                                  << "): give the checkpoint.txt the run wrote, unedited");
    }
  FIELD_CHECK(!spec.loads.damping.any() || c.march.k < 2 || !c.damping_xi.empty(),
              both << " has no damping terms (lines 'dxi a', 'deta a', 'dD2 a'), which a damped "
                      "run's checkpoint after row 2 holds (theory §4.7): give the checkpoint.txt "
                      "the damped run wrote, whole");
  FIELD_CHECK(c.march.k < spec.J,
              both << " holds the state after row " << c.march.k << ", and the case ends at J = "
                   << spec.J << ": raise J above " << c.march.k << " to continue the run");
}

Checkpoint read_fitting_checkpoint(const CaseSpec& spec) {
  return named(spec, spec.initial.checkpoint, [&] {
    Checkpoint read = read_checkpoint(spec.initial.checkpoint);
    check_checkpoint_fits(read, spec);
    return read;
  });
}

}  // namespace field::io
