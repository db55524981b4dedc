#include "libfield/io/mechanics_case.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/io/excerpt.hpp"
#include "libfield/io/input_file.hpp"
#include "libfield/io/toml_guard.hpp"
#include "libfield/mechanics/rigid_body.hpp"

namespace field::io {

namespace fs = std::filesystem;

namespace {

/// One table of a mechanics case: typed getters that remember the keys read, and messages
/// `file:line: [table] key: what`. (A smaller sibling of case_file.cpp's reader.)
class Keys {
 public:
  Keys(const toml::table& table, std::string name, fs::path file)
      : table_(table), name_(std::move(name)), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    const toml::node* node = table_.get(key);
    const auto& where = node ? node->source() : table_.source();
    std::ostringstream out;
    out << file_.string() << ":" << where.begin.line << ": "
        << (node ? qualified(key) + ": " : "missing key " + qualified(key) + ": ") << what;
    throw Error(out.str());
  }
  const toml::node* node(const std::string& key) {
    used_.insert(key);
    return table_.get(key);
  }
  double number(const std::string& key, std::optional<double> fallback, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    if (!n->is_number()) fail(key, "expected a number: " + what);
    const double v = n->value<double>().value();
    if (!std::isfinite(v)) fail(key, "must be finite: " + what);
    return v;
  }
  double positive(const std::string& key, std::optional<double> fallback, const std::string& what) {
    const double v = number(key, fallback, what);
    if (!(v > 0.0)) fail(key, "must be > 0: " + what);
    return v;
  }
  long long integer(const std::string& key, std::optional<long long> fallback, long long min,
                    long long max, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    if (!n->is_integer())
      fail(key, "expected an integer (without a decimal point or exponent): " + what);
    const long long v = n->as_integer()->get();
    if (v < min || v > max)
      fail(key,
           "must be between " + std::to_string(min) + " and " + std::to_string(max) + ": " + what);
    return v;
  }
  std::string string(const std::string& key, std::optional<std::string> fallback,
                     const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    if (!n->is_string()) fail(key, "expected a string: " + what);
    return n->as_string()->get();
  }
  std::string choice(const std::string& key, std::optional<std::string> fallback,
                     const std::vector<std::string>& choices) {
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
    const std::string v = string(key, fallback, "one of " + list);
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
      fail(key, "expected one of " + list + ", got \"" + excerpt(v) + "\"");
    return v;
  }
  /// An array of `size` finite numbers.
  std::vector<double> numbers(const toml::node& n, const std::string& key, std::size_t size,
                              const std::string& what) const {
    const toml::array* array = n.as_array();
    if (!array || array->size() != size)
      fail(key, "expected an array of " + std::to_string(size) + " numbers: " + what);
    std::vector<double> v;
    for (const toml::node& e : *array) {
      if (!e.is_number() || !std::isfinite(e.value<double>().value()))
        fail(key, "entry " + std::to_string(v.size() + 1) + " is not a finite number: " + what);
      v.push_back(e.value<double>().value());
    }
    return v;
  }
  Vec3 vec3(const std::string& key, std::optional<Vec3> fallback, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(key, "required: " + what);
    }
    const std::vector<double> v = numbers(*n, key, 3, what);
    return Vec3(v[0], v[1], v[2]);
  }
  /// [[a, b, c], [d, e, f], [g, h, i]] row by row.
  Mat3 mat3(const std::string& key, const std::string& what) {
    const toml::node* n = node(key);
    if (!n) fail(key, "required: " + what);
    const toml::array* rows = n->as_array();
    if (!rows || rows->size() != 3) fail(key, "expected 3 rows of 3 numbers: " + what);
    Mat3 m;
    for (int i = 0; i < 3; ++i) {
      const std::vector<double> row =
          numbers(*rows->get(i), key, 3, "row " + std::to_string(i + 1));
      for (int j = 0; j < 3; ++j) m(i, j) = row[j];
    }
    return m;
  }
  std::optional<Keys> table(const std::string& key) {
    const toml::node* n = node(key);
    if (!n) return std::nullopt;
    if (!n->is_table()) fail(key, "expected a table");
    return Keys(*n->as_table(), qualified(key), file_);
  }
  void reject_unknown() const {
    for (const auto& [key, value] : table_) {
      const std::string k(key.str());
      if (used_.count(k)) continue;
      std::string list;
      for (const auto& a : used_) list += (list.empty() ? "" : ", ") + a;
      std::ostringstream out;
      out << file_.string() << ":" << key.source().begin.line << ": unknown key "
          << excerpt(qualified(k)) << " (allowed here: " << list << "; check the spelling)";
      throw Error(out.str());
    }
  }
  bool has(const std::string& key) const { return table_.contains(key); }

 private:
  std::string qualified(const std::string& key) const {
    return name_.empty() ? key : "[" + name_ + "] " + key;
  }
  const toml::table& table_;
  std::string name_;
  fs::path file_;
  std::set<std::string> used_;
};

constexpr long long kMaxSteps = 2000000000;

void read_pendulum(Keys t, MechanicsCase& c) {
  auto& p = c.pendulum;
  p.m1 = t.positive("m1", std::nullopt, "mass of the first point [kg]");
  p.m2 = t.positive("m2", std::nullopt, "mass of the second point [kg]");
  p.l1 = t.positive("l1", std::nullopt, "length of the first rod [m]");
  p.l2 = t.positive("l2", std::nullopt, "length of the second rod [m]");
  p.gravity = t.number("gravity", 9.81, "gravitational acceleration along -z [m/s^2]");
  if (p.gravity < 0) t.fail("gravity", "must be >= 0 (it points along -z)");
  c.theta1 =
      t.number("theta1", std::nullopt, "polar angle of rod 1 from the downward vertical [rad]");
  c.phi1 = t.number("phi1", 0.0, "azimuth of rod 1 about z [rad]");
  c.theta2 =
      t.number("theta2", std::nullopt, "polar angle of rod 2 from the downward vertical [rad]");
  c.phi2 = t.number("phi2", 0.0, "azimuth of rod 2 about z [rad]");
  c.v1 = t.vec3("v1", Vec3::Zero(), "initial velocity of mass 1 [m/s]");
  c.v2 = t.vec3("v2", Vec3::Zero(), "initial velocity of mass 2 [m/s]");
  t.reject_unknown();
}

void read_rigid_body(Keys t, MechanicsCase& c) {
  if (t.has("inertia") && t.has("principal_moments"))
    t.fail("principal_moments", "give either inertia (a 3x3 tensor) or principal_moments");
  if (t.has("principal_moments")) {
    const Vec3 moments = t.vec3("principal_moments", std::nullopt, "J1, J2, J3 [kg m^2]");
    c.inertia = moments.asDiagonal();
  } else {
    c.inertia = t.mat3("inertia", "body-frame inertia tensor [kg m^2], rows");
  }
  try {
    mechanics::matrix_inertia(c.inertia);
  } catch (const Error& e) {
    t.fail(t.has("inertia") ? "inertia" : "principal_moments", e.what());
  }
  c.form = t.choice("form", "lie_group", {"lie_group", "rotation_matrix"}) == "lie_group"
               ? RigidBodyForm::lie_group
               : RigidBodyForm::rotation_matrix;
  c.axis = t.vec3("axis", Vec3::UnitZ(), "axis of the initial rotation");
  if (!(c.axis.norm() > 0)) t.fail("axis", "must not be zero");
  c.axis.normalize();
  c.angle = t.number("angle", 0.0, "angle of the initial rotation [rad]");
  c.omega = t.vec3("omega", std::nullopt, "initial body angular velocity [rad/s]");
  t.reject_unknown();
}

}  // namespace

MechanicsCase load_mechanics_case(const fs::path& file) {
  return parse_mechanics_case(read_input(file, kCaseFileLimit, "case file"), file);
}

MechanicsCase parse_mechanics_case(const std::string& text, const fs::path& file) {
  check_toml_text(text, file);
  const std::string_view body =
      std::string_view(text).substr(text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);
  toml::table root;
  try {
    root = toml::parse(body, file.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << file.string() << ":" << e.source().begin.line << ":" << e.source().begin.column
        << ": not valid TOML: " << excerpt(std::string(e.description()), 200);
    throw Error(out.str());
  }
  MechanicsCase c;
  c.file = fs::absolute(file).lexically_normal();
  Keys top(root, "", c.file);
  if (top.integer("format", std::nullopt, 1, 1, "case format version (1)") != 1)
    top.fail("format", "this version of field reads format = 1");
  c.name = top.string("name", c.file.parent_path().filename().string(), "case name");
  c.description = top.string("description", "", "one line on what the case shows");
  c.system =
      top.choice("system", std::nullopt, {"double_pendulum", "rigid_body"}) == "double_pendulum"
          ? MechanicsSystemKind::double_pendulum
          : MechanicsSystemKind::rigid_body;

  std::optional<Keys> time = top.table("time");
  if (!time) top.fail("time", "the case needs a [time] table (h, steps)");
  c.h = time->positive("h", std::nullopt, "time step [s]");
  c.steps = time->integer("steps", std::nullopt, 1, kMaxSteps, "number of time steps");
  time->reject_unknown();

  if (std::optional<Keys> method = top.table("method")) {
    c.quadrature =
        method->choice("quadrature", "trapezoidal", {"trapezoidal", "midpoint"}) == "trapezoidal"
            ? mechanics::Quadrature::trapezoidal
            : mechanics::Quadrature::midpoint;
    c.scheme = method->choice("constraints", "rattle", {"rattle", "shake"}) == "rattle"
                   ? mechanics::ConstraintScheme::rattle
                   : mechanics::ConstraintScheme::shake;
    c.newton.tolerance = method->positive("tolerance", 1e-12, "Newton step tolerance");
    if (c.newton.tolerance < 1e-15 || c.newton.tolerance > 1e-6)
      method->fail("tolerance", "must be between 1e-15 and 1e-6");
    c.newton.max_iterations = static_cast<int>(
        method->integer("max_iterations", 30, 1, 200, "Newton iterations per step"));
    method->reject_unknown();
  }

  const std::string section =
      c.system == MechanicsSystemKind::double_pendulum ? "double_pendulum" : "rigid_body";
  const std::string other =
      c.system == MechanicsSystemKind::double_pendulum ? "rigid_body" : "double_pendulum";
  if (top.has(other))
    top.fail(other, "this case is system = \"" + section + "\": remove the [" + other + "] table");
  std::optional<Keys> system = top.table(section);
  if (!system) top.fail(section, "the case needs a [" + section + "] table");
  if (c.system == MechanicsSystemKind::double_pendulum)
    read_pendulum(*system, c);
  else
    read_rigid_body(*system, c);

  if (std::optional<Keys> output = top.table("output")) {
    c.csv_stride = static_cast<int>(
        output->integer("csv_stride", 1, 1, 2000000000, "a CSV row every csv_stride steps"));
    c.vtk_stride = static_cast<int>(output->integer(
        "vtk_stride", 10, 0, 2000000000, "a VTK frame every vtk_stride steps (0: no VTK)"));
    output->reject_unknown();
  }
  top.reject_unknown();
  return c;
}

}  // namespace field::io
