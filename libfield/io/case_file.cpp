#include "libfield/io/case_file.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>
#include <tuple>

#include "libfield/core/error.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/excerpt.hpp"
#include "libfield/io/input_file.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/io/quoted_string.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/io/toml_guard.hpp"
#include "libfield/io/toml_table.hpp"

namespace field::io {

std::string theory_name(const CaseSpec& spec) {
  switch (spec.theory) {
    case Theory::planar_beam:
      return "planar_beam";
    case Theory::cable:
      return "cable";
    case Theory::registered:
      return spec.registered.name;
    case Theory::beam:
      break;
  }
  return "beam";
}

namespace fs = std::filesystem;

namespace {

/// [solver] bounds (meshes/README.md): a tolerance the step test can meet, a finite effort.
constexpr double kMinTolerance = 1e-15;
constexpr double kMaxTolerance = 1e-6;
// The estimator weighs the equations and the tip data by 1/level (theory §6.7): its squares in
// J^T J must stay inside double precision with room for 1/(dt ds) and the field's magnitudes
// (model_error = 1e-300 gave a start cost of inf, 1e300 a singular J^T J).
constexpr double kMinEstimateLevel = 1e-100, kMaxEstimateLevel = 1e100;
constexpr const char* kEstimateLevelRange =
    "lie between 1e-100 and 1e+100 for method = \"estimate\": it weighs by 1/level, whose "
    "square double precision must hold (theory §6.7)";
constexpr int kMaxIterations = 200;

/// The inertia rho diag(I1, I2, I1+I2, A, A, A) and the stiffness diag(E I1, E I2, G torsion,
/// k G A, k G A, E A) of theory §1 must be normal, finite doubles: a product that underflows to
/// 0 (or a subnormal) or overflows makes the node equations singular or non-finite.
void check_section_range(TomlTable& t, const std::string& section, const CaseSpec& c) {
  const Vec6 inertia = model::inertia_diagonal(c.section, c.material);
  const Vec6 stiffness = model::stiffness_diagonal(c.section, c.material);
  const char* names[6] = {"I1", "I2", "torsion", "area", "area", "area"};
  for (int i = 0; i < 6; ++i) {
    const char* inertia_name = "inertia rho diag(I1, I2, I1+I2, A, A, A)";
    const char* stiffness_name = "stiffness diag(E I1, E I2, G torsion, k G A, k G A, E A)";
    for (const auto& [value, what] :
         {std::pair{inertia(i), inertia_name}, std::pair{stiffness(i), stiffness_name}}) {
      if (std::isfinite(value) && value >= std::numeric_limits<double>::min()) continue;
      const std::string key = section == "square"   ? "side"
                              : section == "circle" ? "radius"
                                                    : names[i];
      std::ostringstream out;
      out << "entry " << i + 1 << " of the " << what << " is " << shortest(value)
          << ", outside the range of normal doubles [2.2e-308, 1.8e308] (with E = "
          << shortest(c.material.E) << ", rho = " << shortest(c.material.rho)
          << "): choose units that keep the section's values and their products with E and rho "
             "in range";
      t.fail(key, out.str());
    }
  }
}

// The sections, one reader each, in the order of meshes/README.md.

/// section = "stiffness": the engineering constants of the diagonal law (theory §1.3).
void read_stiffness_section(TomlTable& t, CaseSpec& c) {
  const auto get = [&t](const char* key, const char* what) {
    return t.positive(key, std::nullopt, what);
  };
  const double EA = get("EA", "axial stiffness EA [N]");
  const double GA1 = get("GA1", "shear stiffness along d1, k G A [N]");
  const double GA2 = get("GA2", "shear stiffness along d2, k G A [N]");
  const double GJ = get("GJ", "torsional stiffness [N m^2]");
  const double EI1 = get("EI1", "bending stiffness about d1 [N m^2]");
  const double EI2 = get("EI2", "bending stiffness about d2 [N m^2]");
  const double rhoA = get("rhoA", "mass per length [kg/m]");
  const double rhoJ1 = get("rhoJ1", "rotary inertia about d1 per length [kg m]");
  const double rhoJ2 = get("rhoJ2", "rotary inertia about d2 per length [kg m]");
  const double rhoJ3 = get("rhoJ3", "polar rotary inertia about d3 per length [kg m]");
  t.reject_unknown(
      {"section", "EA", "GA1", "GA2", "GJ", "EI1", "EI2", "rhoA", "rhoJ1", "rhoJ2", "rhoJ3"});
  c.law = model::SectionLaw::stiffnesses(EA, GA1, GA2, GJ, EI1, EI2, rhoA, rhoJ1, rhoJ2, rhoJ3);
}

/// section = "matrix": full symmetric positive-definite 6x6 stiffness and inertia (theory §1.5).
void read_matrix_section(TomlTable& t, CaseSpec& c) {
  const std::string order = t.choice("order", "libfield", {"libfield", "beamdyn", "gxbeam"});
  const model::SectionOrder o = order == "beamdyn"  ? model::SectionOrder::beamdyn
                                : order == "gxbeam" ? model::SectionOrder::gxbeam
                                                    : model::SectionOrder::libfield;
  const Mat6 C = model::to_libfield_order(
      t.matrix<6, 6>("stiffness", "6x6 stiffness matrix in the order `order`"), o);
  const Mat6 J = model::to_libfield_order(
      t.matrix<6, 6>("inertia", "6x6 inertia (mass) matrix in the order `order`"), o);
  for (const auto& [m, key, name] :
       {std::tuple{&C, "stiffness", "stiffness"}, std::tuple{&J, "inertia", "inertia"}}) {
    const std::string problem = model::spd_problem(*m, name);
    if (!problem.empty())
      t.fail(key, problem + ": a section matrix must be symmetric positive definite");
  }
  t.reject_unknown({"section", "order", "stiffness", "inertia"});
  c.law = model::SectionLaw::matrices(C, J);
}

/// section = "table": the stiffnesses and inertias per segment or along s (theory §1.6), from a
/// CSV file that io/case_setup reads.
void read_table_section(TomlTable& t, CaseSpec& c) {
  c.section_table = t.path("file",
                           "CSV with columns s (or a), EA, GA1, GA2, GJ, EI1, EI2, rhoA, rhoJ1, "
                           "rhoJ2, rhoJ3 (or K11..K66, M11..M66 for coupled laws)");
  c.file_keys.emplace_back(c.section_table, t.where("file"));
  t.reject_unknown({"section", "file"});
}

void read_beam(TomlTable t, CaseSpec& c) {
  const std::string section = t.choice(
      "section", std::nullopt, {"square", "circle", "explicit", "stiffness", "matrix", "table"});
  if (section == "stiffness") return read_stiffness_section(t, c);
  if (section == "matrix") return read_matrix_section(t, c);
  if (section == "table") return read_table_section(t, c);
  const double k = t.positive("shear_factor", 1.0, "shear factor k [-] (theory §1: 1)");
  // A side or radius so small (or large) that the area or a second moment underflows to 0 (or
  // overflows) is an error of that key (model::BeamSection says which quantity).
  const auto sized = [&t](const std::string& key, const std::string& what, auto make) {
    const double v = t.positive(key, std::nullopt, what);
    try {
      return make(v);
    } catch (const Error& e) {
      std::string m = e.what();
      m = m.substr(0, m.find(" [check '"));
      t.fail(key, m + " (out of the range of doubles, about 1e-308 to 1e308): give the size "
                      "in units that keep the area and second moments in range");
    }
  };
  if (section == "square") {
    c.section = sized("side", "side b [m]", model::BeamSection::square);
  } else if (section == "circle") {
    c.section = sized("radius", "radius [m]", model::BeamSection::circle);
  } else {
    c.section.area = t.positive("area", std::nullopt, "cross-section area [m^2]");
    c.section.I1 = t.positive("I1", std::nullopt, "second moment about d1 [m^4]");
    c.section.I2 = t.positive("I2", std::nullopt, "second moment about d2 [m^4]");
    c.section.torsion = t.positive("torsion", std::nullopt, "torsion constant [m^4]");
  }
  c.section.shear_k = k;
  c.material.E = t.positive("E", std::nullopt, "Young's modulus [Pa]");
  c.material.nu = t.number("nu", std::nullopt, "Poisson ratio [-] in (-1, 0.5)");
  if (!(c.material.nu > -1.0 && c.material.nu < 0.5))
    t.fail("nu", "Poisson ratio must lie in (-1, 0.5)");
  c.material.rho = t.positive("rho", std::nullopt, "density [kg/m^3]");
  check_section_range(t, section, c);
  t.reject_unknown({"section", "side", "radius", "area", "I1", "I2", "torsion", "shear_factor", "E",
                    "nu", "rho"});
}

/// Integer count n = total/step when total is a multiple of step (relative 1e-9), at most
/// kTomlMaxInteger (beyond it the message says what the request would cost, `nodes` per row).
int multiple(TomlTable& t, const std::string& key, double total, double step,
             const std::string& step_name, int nodes) {
  const double n = std::round(total / step);
  if (n > static_cast<double>(kTomlMaxInteger)) {
    // Say what the request means instead of overflowing the count (issue 15, class 8).
    const double updates = n * nodes;
    std::ostringstream what;
    what << "with " << step_name << " = " << shortest(step) << " gives J = " << key << "/"
         << step_name << " = "
         << (n < 1e18 ? std::to_string(static_cast<long long>(n)) : shortest(n))
         << " rows, more than the limit J <= " << kTomlMaxInteger << "; with " << nodes
         << " nodes per row that is " << std::setprecision(2) << updates << " node updates, about "
         << updates / 1e7 / 3600.0 << " hours at 10^7 node updates per second: use a larger "
         << step_name << " or a shorter " << key;
    t.fail(key, what.str());
  }
  if (n < 1 || std::abs(n * step - total) > 1e-9 * total)
    t.fail(key, "must be a whole multiple of " + step_name + " = " + shortest(step));
  return static_cast<int>(n);
}

void read_grid(TomlTable t, CaseSpec& c) {
  c.A = t.integer("A", std::nullopt, c.march == MarchKind::space ? 2 : 1,
                  "last node index: nodes a = 0..A along the beam");
  const bool has_ds = t.has("ds"), has_L = t.has("L");
  if (has_ds == has_L) t.fail(has_ds ? "L" : "ds", "give exactly one of ds and L");
  if (has_ds) {
    c.ds = t.positive("ds", std::nullopt, "arc-length step [m]");
  } else {
    const double L = t.positive("L", std::nullopt, "beam length [m]");
    // L = (A + 1/2 [left free] - 1/2 [right free]) ds, theory §3.4; resolved after [boundary].
    c.ds = L;  // provisional: divided in finish_grid
  }
  const int given = t.has("dt") + t.has("J") + t.has("T");
  if (given != 2) t.fail(t.has("dt") ? "dt" : "J", "give exactly two of dt, J and T");
  if (t.has("dt") && t.has("J")) {
    c.dt = t.positive("dt", std::nullopt, "time step [s]");
    c.J = t.integer("J", std::nullopt, 2, "last row index: rows j = 0..J");
  } else if (t.has("dt")) {
    c.dt = t.positive("dt", std::nullopt, "time step [s]");
    const double T = t.positive("T", std::nullopt, "duration [s]");
    c.J = multiple(t, "T", T, c.dt, "dt", c.A + 1);
  } else {
    const double T = t.positive("T", std::nullopt, "duration [s]");
    c.J = t.integer("J", std::nullopt, 2, "last row index: rows j = 0..J");
    c.dt = T / c.J;
  }
  if (c.J < 2) t.fail(t.has("J") ? "J" : "T", "a march needs at least J = 2 rows");
  t.reject_unknown({"A", "ds", "L", "dt", "J", "T"});
}

EndSpec read_end(TomlTable& t, const std::string& key, CaseSpec& c) {
  EndSpec end;
  const toml::node* n = t.node(key);
  if (!n) return end;  // free
  if (n->is_string()) {
    const std::string v = n->as_string()->get();
    if (v == "free") return end;
    if (v == "clamped") {
      end.kind = EndSpec::Kind::clamped;
      return end;
    }
    t.fail(key, R"(expected "free", "clamped" or { prescribed = "motion.csv" })");
  }
  if (!n->is_table()) t.fail(key, R"(expected "free", "clamped" or { prescribed = "motion.csv" })");
  TomlTable sub(*n->as_table(), t.name() + " " + key, t.file());
  end.kind = EndSpec::Kind::prescribed;
  end.file = sub.path("prescribed", "CSV with columns t,x,y,z,qw,qx,qy,qz");
  c.file_keys.emplace_back(end.file, sub.where("prescribed"));
  sub.reject_unknown({"prescribed"});
  return end;
}

RowSpec read_row(TomlTable& t, const std::string& key, CaseSpec& c) {
  RowSpec row;
  const toml::node* n = t.node(key);
  if (!n) return row;  // zero momentum
  const std::string expected = R"(expected "zero_momentum" or { prescribed = "rows.csv", j = 0 })";
  if (n->is_string()) {
    if (n->as_string()->get() == "zero_momentum") return row;
    t.fail(key, expected);
  }
  if (!n->is_table()) t.fail(key, expected);
  TomlTable sub(*n->as_table(), t.name() + " " + key, t.file());
  row.kind = RowSpec::Kind::prescribed;
  row.file = sub.path("prescribed", "CSV with columns [j,]a,x,y,z,qw,qx,qy,qz");
  c.file_keys.emplace_back(row.file, sub.where("prescribed"));
  if (sub.has("j")) row.j = sub.integer("j", std::nullopt, 0, "row of the file to use");
  sub.reject_unknown({"prescribed", "j"});
  return row;
}

void read_boundary(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;  // defaults: free ends, zero-momentum rows
  if (c.march == MarchKind::time) {
    c.left = read_end(*t, "left", c);
    c.right = read_end(*t, "right", c);
    t->reject_unknown({"left", "right"});
  } else {
    c.first = read_row(*t, "first", c);
    c.last = read_row(*t, "last", c);
    t->reject_unknown({"first", "last"});
  }
}

// [reconstruct] (space march cases): the method of `field reconstruct` (docs/reconstruction.md).
void read_reconstruct(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;  // the space march of theory §6.2
  ReconstructSpec& r = c.reconstruct;
  const std::string method = t->choice("method", "space", {"space", "driven", "estimate"});
  r.method = method == "driven"     ? ReconstructSpec::Method::driven
             : method == "estimate" ? ReconstructSpec::Method::estimate
                                    : ReconstructSpec::Method::space;
  if (r.method == ReconstructSpec::Method::estimate) {
    // theory §6.7: the estimator over the whole (t, s) mesh.
    if (c.first.kind != RowSpec::Kind::zero_momentum || c.last.kind != RowSpec::Kind::zero_momentum)
      t->fail("method",
              "the estimator prescribes no rows: remove [boundary] first and last and declare "
              "[reconstruct] first_row (\"rest\", \"straight\" or \"free\") and last_row");
    const std::string far = t->choice("far_end", "free", {"free", "clamped", "none"});
    r.far_end = far == "clamped" ? EndSpec::Kind::clamped : EndSpec::Kind::free;
    r.far_end_none = far == "none";
    const std::string first = t->choice("first_row", "rest", {"rest", "straight", "free"});
    r.first_at_rest = first != "free";
    r.first_straight = first == "straight";
    r.last_at_rest = t->choice("last_row", "rest", {"rest", "free"}) == "rest";
    r.model_error = t->positive("model_error", 1e-3,
                                "model-error level of the DCEL equations [N/m] (theory §6.7)");
    if (r.model_error < kMinEstimateLevel || r.model_error > kMaxEstimateLevel)
      t->fail("model_error", std::string("must ") + kEstimateLevelRange);
    r.max_iterations =
        t->integer("max_iterations", 50, 1, "Levenberg-Marquardt iterations", 100000);
    r.covariance = t->boolean("covariance", true,
                              "the standard deviations per node (field_std.csv, field_std.vtu)");
    t->reject_unknown({"method", "far_end", "first_row", "last_row", "model_error",
                       "max_iterations", "covariance"});
    return;
  }
  if (r.method == ReconstructSpec::Method::driven &&
      (c.first.kind != RowSpec::Kind::zero_momentum || c.last.kind != RowSpec::Kind::zero_momentum))
    t->fail("method",
            "a driven reconstruction starts at rest and prescribes no rows: remove [boundary] "
            "first and last, or use method = \"space\"");
  if (t->has("far_end")) {
    if (r.method != ReconstructSpec::Method::driven)
      t->fail("far_end",
              "only a driven reconstruction (method = \"driven\") has a far end "
              "condition; the space march imposes nothing at a = A");
    r.far_end = t->choice("far_end", "free", {"free", "clamped"}) == "clamped"
                    ? EndSpec::Kind::clamped
                    : EndSpec::Kind::free;
  }
  t->reject_unknown({"method", "far_end"});
}

// [shape] (theory §1.6): the stress-free shape, exactly one of curvature, strain, file and
// polyline.
void read_shape(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;  // straight: eta0 = E6
  ShapeSpec& shape = c.shape;
  const int given = t->has("curvature") + t->has("strain") + t->has("file") + t->has("polyline");
  if (given != 1)
    t->fail(t->has("strain")     ? "strain"
            : t->has("file")     ? "file"
            : t->has("polyline") ? "polyline"
                                 : "curvature",
            "give exactly one of curvature, strain, file and polyline");
  if (t->has("curvature")) {
    shape.kind = ShapeSpec::Kind::uniform;
    shape.strain.head<3>() = t->vec<3>("curvature", std::nullopt,
                                       "stress-free curvature and twist (k1, k2, k3) [rad/m]");
  } else if (t->has("strain")) {
    shape.kind = ShapeSpec::Kind::uniform;
    shape.strain =
        t->vec<6>("strain", std::nullopt, "stress-free strain eta0 = (Omega0 [rad/m], Gamma0 [-])");
  } else {
    const char* key = t->has("file") ? "file" : "polyline";
    shape.kind = t->has("file") ? ShapeSpec::Kind::file : ShapeSpec::Kind::polyline;
    shape.file =
        t->path(key, t->has("file") ? "CSV with columns a,k1,k2,k3,g1,g2,g3, one row per segment"
                                    : "CSV with columns s,x,y,z,qw,qx,qy,qz, the centreline and "
                                      "its frames along s");
    c.file_keys.emplace_back(shape.file, t->where(key));
  }
  t->reject_unknown({"curvature", "strain", "file", "polyline"});
}

void read_initial(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;  // straight along e3 from the origin, at rest
  InitialSpec& in = c.initial;
  if (t->has("checkpoint")) {  // continue a run (io/checkpoint.hpp)
    in.checkpoint = t->path("checkpoint", "the checkpoint.txt of a run to continue");
    c.file_keys.emplace_back(in.checkpoint, t->where("checkpoint"));
    for (const char* key : {"configuration", "origin", "axis", "strain", "file", "row", "velocity",
                            "xi", "velocity_file", "start"})
      if (t->has(key))
        t->fail(key,
                "the checkpoint gives the rows and velocities to continue from: remove this key");
    t->reject_unknown({"checkpoint"});
    return;
  }
  const std::string conf =
      t->choice("configuration", "straight", {"straight", "arc", "file", "stress_free", "static"});
  if (conf == "file") {
    in.configuration = InitialSpec::Configuration::file;
    in.file = t->path("file", "CSV of node poses, columns a,x,y,z,qw,qx,qy,qz");
    c.file_keys.emplace_back(in.file, t->where("file"));
    if (t->has("row"))
      in.row = t->integer("row", std::nullopt, 0,
                          "the row j of the file (a run's field.csv) to start from");
  } else {
    if (t->has("row"))
      t->fail("row", "a row of a file needs configuration = \"file\" and file = \"field.csv\"");
    in.configuration = conf == "arc"           ? InitialSpec::Configuration::arc
                       : conf == "stress_free" ? InitialSpec::Configuration::stress_free
                       : conf == "static"      ? InitialSpec::Configuration::static_equilibrium
                                               : InitialSpec::Configuration::straight;
    if (c.shape.kind == ShapeSpec::Kind::polyline && (conf == "stress_free" || conf == "static"))
      for (const char* key : {"origin", "axis"})
        if (t->has(key))
          t->fail(key,
                  "the [shape] polyline places the stress-free beam (node 0 at its pose at s_0, "
                  "theory (1.6.4)): remove origin and axis");
    in.origin = t->vec<3>("origin", Vec3::Zero(), "position of the end s = 0 [m]");
    in.axis = t->vec<3>("axis", Vec3::UnitZ(), "direction of d3 at s = 0");
    // stableNorm: an axis of 1e200 is a direction too (norm() would overflow to inf).
    const double norm = in.axis.stableNorm();
    if (!(norm >= 1e-12)) t->fail("axis", "must not be the zero vector");
    in.axis /= norm;
    if (conf == "arc")
      in.strain = t->vec<6>("strain", std::nullopt, "uniform strain eta = (Omega, Gamma)");
  }
  const std::string velocity = t->choice("velocity", "zero", {"zero", "uniform", "file"});
  if (velocity == "uniform") {
    in.velocity = InitialSpec::Velocity::uniform;
    in.velocity_value = t->vec<6>("xi", std::nullopt, "body velocity (omega [rad/s], v [m/s])");
  } else if (velocity == "file") {
    in.velocity = InitialSpec::Velocity::file;
    in.velocity_file = t->path("velocity_file", "CSV with columns a,w1,w2,w3,v1,v2,v3");
    c.file_keys.emplace_back(in.velocity_file, t->where("velocity_file"));
  }
  const std::string start = t->choice("start", "second_order", {"second_order", "first_order"});
  in.start =
      start == "first_order" ? InitialSpec::Start::first_order : InitialSpec::Start::second_order;
  t->reject_unknown({"configuration", "origin", "axis", "strain", "file", "row", "velocity", "xi",
                     "velocity_file", "start"});
}

/// A wrench: constant `wrench = [6]`, or a time table `times = [...]`, `wrenches = [[6], ...]`.
model::TimeTable read_wrench(TomlTable& t) {
  const std::string what = "(moment, force): 3 + 3 numbers";
  if (t.has("wrench")) {
    if (t.has("times") || t.has("wrenches"))
      t.fail("wrench", "give either wrench or times + wrenches, not both");
    return model::TimeTable::constant(t.vec<6>("wrench", std::nullopt, what));
  }
  if (!t.has("times")) t.fail("wrench", "required (or times + wrenches): " + what);
  const toml::node* times = t.node("times");
  const toml::node* wrenches = t.node("wrenches");
  if (!times->is_array()) t.fail("times", "expected an array of times [s]");
  if (!wrenches || !wrenches->is_array())
    t.fail("wrenches", "expected an array of wrenches, one per time");
  const toml::array& ta = *times->as_array();
  const toml::array& wa = *wrenches->as_array();
  if (ta.size() != wa.size() || ta.empty())
    t.fail("wrenches", "needs one wrench per time (" + std::to_string(ta.size()) + " times)");
  std::vector<double> tv;
  std::vector<Vec6> wv;
  for (std::size_t i = 0; i < ta.size(); ++i) {
    const toml::node& ti = *ta.get(i);
    if (!ti.is_number()) t.fail("times", "entry " + std::to_string(i + 1) + " is not a number");
    tv.push_back(ti.value<double>().value());
    if (!std::isfinite(tv.back()) || (i > 0 && !(tv[i] > tv[i - 1])))
      t.fail("times",
             "must be finite and strictly increasing (entry " + std::to_string(i + 1) + ")");
    wv.push_back(t.vector(*wa.get(i), "wrenches", 6, what));
  }
  return model::TimeTable(tv, wv);
}

model::LoadFrame read_frame(TomlTable& t) {
  return t.choice("frame", "world", {"world", "body"}) == "body" ? model::LoadFrame::body
                                                                 : model::LoadFrame::world;
}

/// Array of tables `[[loads.<key>]]`, each handed to `read`.
template <class Read>
void each_table(TomlTable& t, const std::string& key, Read read) {
  const toml::node* n = t.node(key);
  if (!n) return;
  const toml::array* array = n->as_array();
  if (!array || !array->is_array_of_tables())
    t.fail(key, "expected [[" + t.name() + "." + key + "]] tables");
  int index = 0;
  for (const toml::node& e : *array) {
    read(TomlTable(*e.as_table(), t.name() + "." + key + " #" + std::to_string(++index), t.file()));
  }
}

void read_loads(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;
  c.gravity = t->vec<3>("gravity", Vec3::Zero(), "gravity vector [m/s^2] in the world frame");
  const int last_massive = c.A - 1;
  // A reconstruction by the driven march or the estimator with a free far end solves node A
  // too: it takes point loads there and the end wrench (theory §4.6, §6.7).
  const ReconstructSpec& r = c.reconstruct;
  const bool reconstruct_free_end = c.march == MarchKind::space &&
                                    r.method != ReconstructSpec::Method::space &&
                                    r.far_end == EndSpec::Kind::free && !r.far_end_none;
  const bool time_free_end = c.march == MarchKind::time && c.right.kind == EndSpec::Kind::free;
  each_table(*t, "distributed", [&](TomlTable d) {
    model::DistributedLoad load;
    load.frame = read_frame(d);
    load.wrench = read_wrench(d);
    if (d.has("nodes")) {
      const Eigen::VectorXd v = d.vector(*d.node("nodes"), "nodes", 2, "[first, last] node");
      load.a_first = static_cast<int>(v(0));
      load.a_last = static_cast<int>(v(1));
      if (v(0) != load.a_first || v(1) != load.a_last || load.a_first < 0 ||
          load.a_last < load.a_first || load.a_last > last_massive)
        d.fail("nodes", "expected whole node indices 0 <= first <= last <= A-1 = " +
                            std::to_string(last_massive));
    }
    d.reject_unknown({"frame", "wrench", "times", "wrenches", "nodes"});
    c.loads.distributed.push_back(load);
  });
  each_table(*t, "point", [&](TomlTable p) {
    model::PointLoad load;
    load.a = p.integer("node", std::nullopt, 0, "loaded node a");
    // Only solved nodes and a free end carry point loads (theory §1.4, §4.6; the marches check
    // it too): time march lo..A-1 (lo = 1 when the left end is held) and A when the right end is
    // free (the end wrench at the physical end); reconstruction 1..A-1, and A when the driven
    // march or the estimator has a free far end.
    const bool time = c.march == MarchKind::time;
    const int lo = !time || c.left.kind != EndSpec::Kind::free ? 1 : 0;
    const int hi = time_free_end || reconstruct_free_end ? c.A : last_massive;
    if (load.a < lo || load.a > hi)
      p.fail("node", "a point load must sit on a solved node or a free end " + std::to_string(lo) +
                         ".." + std::to_string(hi) +
                         (time ? " (a held end carries none)"
                               : " (node A is the untouched end of a space march; the driven "
                                 "march and the estimator with far_end = \"free\" solve it)"));
    load.frame = read_frame(p);
    load.wrench = read_wrench(p);
    p.reject_unknown({"node", "frame", "wrench", "times", "wrenches"});
    c.loads.point.push_back(load);
  });
  // The end wrench at the physical free end a = A (theory §4.6): in the time march (and the
  // driven reconstruction, the estimator, theory §6.7) W/2 on nodes A-1 and A; in statics whole
  // on node A.
  if (t->has("end") && c.march == MarchKind::space && !reconstruct_free_end)
    t->fail("end",
            "an end wrench needs a free far end a = A that the method solves: "
            "[reconstruct] method = \"estimate\" or \"driven\" with far_end = \"free\" "
            "(the space march imposes nothing at a = A; a clamped end reports its "
            "reaction instead)");
  if (t->has("end") && c.march == MarchKind::time && !time_free_end)
    t->fail("end",
            "an end wrench needs march = \"time\" with a free right end (node A); "
            "a held end reports its reaction instead");
  each_table(*t, "end", [&](TomlTable e) {
    model::PointLoad load;
    load.a = c.A;
    load.frame = read_frame(e);
    load.wrench = read_wrench(e);
    load.end = true;
    e.reject_unknown({"frame", "wrench", "times", "wrenches"});
    c.loads.point.push_back(load);
  });
  t->reject_unknown({"gravity", "distributed", "point", "end"});
}

// theory §4.7: Rayleigh-style damping of the time march (mass alpha [1/s], stiffness beta [s]).
void read_damping(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;
  c.loads.damping.mass =
      t->non_negative("mass", 0.0, "mass-proportional damping alpha [1/s] (force -alpha J xi)");
  c.loads.damping.stiffness = t->non_negative(
      "stiffness", 0.0, "stiffness-proportional damping beta [s] (stress beta C deta/dt)");
  t->reject_unknown({"mass", "stiffness"});
}

// theory §4.5: the static solver's load steps and Newton iterations per step.
void read_static(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;
  c.statics.steps = t->integer("steps", 1, 1, "load steps of the static solver");
  c.statics.max_iterations =
      t->integer("max_iterations", 30, 1, "Newton iterations per load step of the static solver");
  if (c.statics.steps > 100000) t->fail("steps", "out of range: must be between 1 and 100000");
  if (c.statics.max_iterations > kMaxIterations)
    t->fail("max_iterations",
            "out of range: must be between 1 and " + std::to_string(kMaxIterations));
  t->reject_unknown({"steps", "max_iterations"});
}

void read_solver(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;
  // The step test max|dy| <= tolerance (1 + max|y|) is relative to the unknown (theory §5,
  // dcel/node_solver.hpp): below about 4.5 machine epsilons round-off in dy can keep it from
  // ever holding, and Newton converges quadratically, so a few hundred iterations is the most
  // a node that converges at all can need (meshes/README.md, [solver]).
  c.newton.tolerance = t->positive("tolerance", 1e-14, "Newton step tolerance (theory §5)");
  if (c.newton.tolerance < kMinTolerance || c.newton.tolerance > kMaxTolerance)
    t->fail("tolerance", "out of range: must be between " + shortest(kMinTolerance) + " and " +
                             shortest(kMaxTolerance) +
                             " (relative to 1 + max|y|; below 1e-15 round-off keeps the Newton "
                             "step from ever meeting it; default 1e-14)");
  c.newton.max_iterations = t->integer("max_iterations", 30, 1, "Newton iterations per node");
  if (c.newton.max_iterations > kMaxIterations)
    t->fail("max_iterations", "out of range: must be between 1 and " +
                                  std::to_string(kMaxIterations) +
                                  " (Newton converges in a few iterations or not at all; "
                                  "default 30)");
  t->reject_unknown({"tolerance", "max_iterations"});
}

void read_output(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;
  c.output.stride = t->integer("stride", 1, 1, "write every stride-th row/column of field.csv");
  const std::string vtk_what =
      "write the VTK files every vtk_stride-th row (an integer >= 1), or "
      "\"auto\" (at most about 400 frames)";
  const toml::node* vtk_stride = t->node("vtk_stride");
  if (vtk_stride && vtk_stride->is_string()) {
    if (vtk_stride->as_string()->get() != "auto")
      t->fail("vtk_stride", "expected \"auto\" (lower case) or an integer >= 1: " + vtk_what);
    c.output.vtk_stride = 0;
  } else {
    c.output.vtk_stride = t->integer("vtk_stride", 0, 1, vtk_what);  // absent: 0, "auto"
  }
  c.output.csv = t->boolean("csv", true, "write field.csv");
  c.output.vtk = t->boolean("vtk", true, "write beam.pvd, frames/ and spacetime.vtu");
  c.output.tip = t->boolean("tip", c.march == MarchKind::time, "write tip.csv (time march)");
  if (c.output.tip && c.march == MarchKind::space)
    t->fail("tip", "tip.csv is written by time marches only");
  c.output.series_stride =
      t->integer("series_stride", 1, 1, "compute and write every series_stride-th series line");
  c.output.rates = t->boolean("rates", false,
                              "write field_rates.csv (velocity, strain and stress of every node)");
  if (c.output.rates && c.march == MarchKind::space)
    t->fail("rates", "field_rates.csv is written by time marches (`field simulate`) only");
  if (c.output.rates && (c.theory == Theory::cable || c.theory == Theory::registered))
    t->fail("rates",
            "field_rates.csv is written for beams (the frames of a cable or of a "
            "registered theory hold its strain and stress)");
  c.output.checkpoint =
      t->boolean("checkpoint", false, "write checkpoint.txt, the exact state after the last row");
  if (c.output.checkpoint &&
      (c.march == MarchKind::space || c.theory == Theory::cable || c.theory == Theory::registered))
    t->fail("checkpoint",
            "checkpoint.txt is written by time marches of the beam on SE(3) and of the planar "
            "beam (`field simulate`)");
  t->reject_unknown(
      {"stride", "vtk_stride", "csv", "vtk", "tip", "series_stride", "rates", "checkpoint"});
}

}  // namespace

std::vector<fs::path> CaseSpec::input_files() const {
  std::vector<fs::path> files;
  for (const fs::path& p : {file, section_table, shape.file, left.file, right.file, initial.file,
                            initial.velocity_file, initial.checkpoint, tip, first.file, last.file})
    if (!p.empty()) files.push_back(p);
  return files;
}

double CaseSpec::length() const {
  if (march == MarchKind::space)
    return reconstruct.method != ReconstructSpec::Method::space &&
                   reconstruct.far_end == EndSpec::Kind::free && !reconstruct.far_end_none
               ? (A - 0.5) * ds
               : A * ds;
  const double half_steps = (left.kind == EndSpec::Kind::free ? 0.5 : 0.0) -
                            (right.kind == EndSpec::Kind::free ? 0.5 : 0.0);
  return (A + half_steps) * ds;
}

mesh::Side CaseSpec::left_side() const {
  if (march == MarchKind::space) return mesh::Side::prescribed;  // the measured tip
  return left.kind == EndSpec::Kind::free ? mesh::Side::natural : mesh::Side::prescribed;
}

std::string CaseSpec::named_by(const fs::path& data_file) const {
  for (const auto& [path, key] : file_keys)
    if (path == data_file) return key;
  return "";
}

CaseSpec load_case(const fs::path& file) {
  return parse_case(read_input(file, kCaseFileLimit, "case file"), file);
}

CaseSpec parse_case(const std::string& text, const fs::path& file) {
  const toml::table root = parse_toml(text, file);
  CaseSpec c;
  c.file = fs::absolute(file).lexically_normal();
  TomlTable top(root, "", c.file);
  const int format = top.integer("format", std::nullopt, 1, "case format version (1)");
  if (format != 1) top.fail("format", "this version of field reads format = 1");
  c.name = top.string("name", c.file.parent_path().filename().string(), "case name");
  if (c.name.empty() || c.name == "." || c.name == ".." ||
      c.name.find_first_of("/\\") != std::string::npos)
    top.fail("name",
             "the case name names the run folder runs/<name>: give a plain name, "
             "without '/' or '\\', not empty, '.' or '..' (got \"" +
                 excerpt(c.name) + "\")");
  if (std::any_of(c.name.begin(), c.name.end(),
                  [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; }))
    top.fail("name",
             "the case name names the run folder runs/<name>: it must not hold control "
             "characters (got " +
                 quoted_string(c.name) + ")");
  c.description = top.string("description", "", "one line on what the case shows");
  c.march = top.choice("march", std::nullopt, {"time", "space"}) == "space" ? MarchKind::space
                                                                            : MarchKind::time;
  const std::string retraction =
      top.choice("retraction", "cayley", {"cayley", "exp", "exponential"});
  c.retraction =
      retraction == "cayley" ? lie::RetractionKind::cayley : lie::RetractionKind::exponential;
  // The shipped theories, then the registry's (model/theory_registry.hpp, io/registered_case.hpp).
  std::vector<std::string> theories = {"beam", "planar_beam", "cable"};
  for (const std::string& name : model::registered_theory_names()) theories.push_back(name);
  const std::string theory = top.choice("theory", "beam", theories);
  c.theory = theory == "planar_beam" ? Theory::planar_beam
             : theory == "cable"     ? Theory::cable
             : theory == "beam"      ? Theory::beam
                                     : Theory::registered;
  const bool cable = c.theory == Theory::cable;
  const bool registered = c.theory == Theory::registered;
  if (registered) c.registered.name = theory;

  const auto need = [&](const std::string& key) {
    std::optional<TomlTable> t = top.table(key);
    if (!t) top.fail(key, "the case needs a [" + key + "] table");
    return *t;
  };
  if (cable) {
    read_cable(need("cable"), c);  // io/cable_case.hpp: [cable] in place of [beam] and [shape]
  } else if (!registered) {  // a registered theory's [NAME] is read after [loads] (its gravity)
    read_beam(need("beam"), c);
    read_shape(top.table("shape"), c);
  }
  const bool length_given = root["grid"]["L"] && !root["grid"]["ds"];
  read_grid(need("grid"), c);
  read_boundary(top.table("boundary"), c);
  if (c.march == MarchKind::time && c.A < 2 && c.left.kind != EndSpec::Kind::free)
    top.fail("grid", "A = 1 with a held left end leaves no node to solve: use A >= 2");
  if (c.march == MarchKind::time) {
    if (cable)
      read_cable_initial(top.table("initial"), c);
    else if (registered)
      read_registered_initial(top.table("initial"), c);  // io/registered_case.hpp
    else
      read_initial(top.table("initial"), c);
  } else {
    if (top.has("initial")) top.fail("initial", "a space march has no initial row: use [tip]");
    // [tip]: the sensor's file and declarations. The data may come from elsewhere instead
    // (`field reconstruct --tip FILE`, Python's tip arrays): then the file, or the whole table,
    // may be left out, and a run without tip data is refused when it reads them
    // (io::space_march_input).
    const toml::table no_tip;
    std::optional<TomlTable> given = top.table("tip");
    TomlTable tip = given ? *given : TomlTable(no_tip, "tip", c.file);
    if (tip.has("file")) {
      c.tip = tip.path("file", "tip CSV: t,x,y,z,qw,qx,qy,qz,Omega1..3,Gamma1..3");
      c.file_keys.emplace_back(c.tip, tip.where("file"));
    }
    // theory §6.3: declared noise (standard deviation per sample) and the bound on the
    // predicted far-end error.
    c.tip_noise.position = tip.non_negative("noise_position", 0.0, "tip position noise [m]");
    c.tip_noise.angle = tip.non_negative("noise_angle", 0.0, "tip angle noise [rad]");
    if (c.tip_noise.angle >= M_PI) tip.fail("noise_angle", "must be < pi: tip angle noise [rad]");
    c.tip_noise.strain = tip.non_negative("noise_strain", 0.0, "tip strain noise [-]");
    if (tip.has("max_predicted_error"))
      c.tip_noise.max_predicted_error = tip.positive("max_predicted_error", std::nullopt,
                                                     "bound on the predicted far-end error [m]");
    // docs/reconstruction.md: the sensor clock and where the strain is measured (theory §6.6).
    if (tip.has("time_offset"))
      c.tip_data.time_offset =
          tip.number("time_offset", std::nullopt, "sensor-clock time of the grid's t = 0 [s]");
    c.tip_data.strain_at =
        tip.choice("strain_at", "segment", {"segment", "tip_point"}) == "tip_point"
            ? TipDataSpec::StrainAt::tip_point
            : TipDataSpec::StrainAt::segment;
    tip.reject_unknown({"file", "noise_position", "noise_angle", "noise_strain",
                        "max_predicted_error", "time_offset", "strain_at"});
    read_reconstruct(top.table("reconstruct"), c);
    if (c.reconstruct.method == ReconstructSpec::Method::estimate)  // 0: exact data, weighed 1e-6
      for (const auto& [key, level] : {std::pair{"noise_position", c.tip_noise.position},
                                       std::pair{"noise_angle", c.tip_noise.angle},
                                       std::pair{"noise_strain", c.tip_noise.strain}})
        if (level != 0.0 && (level < kMinEstimateLevel || level > kMaxEstimateLevel))
          tip.fail(key, std::string("must be 0 (exact data) or ") + kEstimateLevelRange);
  }
  read_loads(top.table("loads"), c);
  if (registered) read_registered(need(theory), root, c);  // io/registered_case.hpp
  read_solver(top.table("solver"), c);
  if (c.march == MarchKind::time)
    read_damping(top.table("damping"), c);
  else if (top.has("damping"))
    top.fail("damping", "[damping] belongs to march = \"time\" cases (theory §4.7)");
  if (c.march == MarchKind::time)
    read_static(top.table("static"), c);
  else if (top.has("static"))
    top.fail("static", "[static] belongs to march = \"time\" cases (field static)");
  c.output.tip = c.march == MarchKind::time;  // tip.csv: time marches only
  read_output(top.table("output"), c);
  if (c.march == MarchKind::time && top.has("reconstruct"))
    top.fail("reconstruct", "[reconstruct] belongs to march = \"space\" cases (field reconstruct)");
  if (c.theory == Theory::planar_beam) check_planar_case(root, c);  // io/planar_case.hpp
  check_cable_case(root, c);                                        // io/cable_case.hpp
  std::vector<std::string> keys = {"format",     "name",    "description", "march",       "theory",
                                   "retraction", "beam",    "cable",       "shape",       "grid",
                                   "boundary",   "initial", "tip",         "reconstruct", "loads",
                                   "solver",     "static",  "output",      "damping"};
  if (registered) keys.push_back(theory);
  top.reject_unknown(keys);
  if (length_given) {
    const double L = c.ds;
    c.ds = 1.0;
    const double cells = c.length();  // L/ds in units of ds, theory §3.4
    if (cells <= 0.0) top.fail("grid", "A is too small for the chosen ends");
    c.ds = L / cells;
  }
  if (c.march == MarchKind::space && c.tip_noise.max_predicted_error == 0.0)
    c.tip_noise.max_predicted_error = 0.1 * c.length();  // theory §6.3: 10 % of L
  return c;
}

// --- write_case: the resolved case, every key explicit ---------------------------------------

namespace {

std::string number(double v) {
  std::ostringstream out;
  out << std::setprecision(17) << v;
  std::string s = out.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // stays a TOML float
  return s;
}

template <class V>
std::string array(const V& v) {
  std::string s = "[";
  for (int i = 0; i < v.size(); ++i) s += (i ? ", " : "") + number(v(i));
  return s + "]";
}

// TOML basic strings (io/quoted_string.hpp): any name, description or path reads back unchanged.
std::string quoted(const std::string& s) {
  return quoted_string(s);
}
std::string quoted(const fs::path& p) {
  return quoted_string(p.string());
}

void write_wrench(std::ostream& out, const model::TimeTable& table) {
  if (table.times().size() == 1) {
    out << "wrench = " << array(table.values()[0]) << "\n";
    return;
  }
  out << "times = [";
  for (std::size_t i = 0; i < table.times().size(); ++i)
    out << (i ? ", " : "") << number(table.times()[i]);
  out << "]\nwrenches = [";
  for (std::size_t i = 0; i < table.values().size(); ++i)
    out << (i ? ", " : "") << array(table.values()[i]);
  out << "]\n";
}

const char* frame_name(model::LoadFrame f) {
  return f == model::LoadFrame::body ? "body" : "world";
}

}  // namespace

void write_case(std::ostream& out, const CaseSpec& c) {
  const bool time = c.march == MarchKind::time;
  out << "# Resolved case (every key explicit), written by field from " << c.file.string()
      << "\nformat = 1\nname = " << quoted(c.name) << "\ndescription = " << quoted(c.description)
      << "\nmarch = " << (time ? "\"time\"" : "\"space\"") << "\n";
  const bool cable = c.theory == Theory::cable;
  const bool registered = c.theory == Theory::registered;
  // A group with one retraction takes no key (the cable's R^3, io/cable_case.hpp; a registered
  // theory's, io/registered_case.hpp).
  const bool one_retraction = registered && with_registered_group(c, [](auto group) {
                                using G = decltype(group);
                                return std::is_same_v<G, typename G::Space>;
                              });
  if (!cable && !one_retraction)
    out << "retraction = "
        << (c.retraction == lie::RetractionKind::exponential ? "\"exp\"" : "\"cayley\"") << "\n";
  if (c.theory == Theory::planar_beam) out << "theory = \"planar_beam\"\n";
  if (cable) {
    out << "theory = \"cable\"\n\n[cable]\nEA = " << number(c.cable.EA)
        << "\nrhoA = " << number(c.cable.rhoA) << "\nslack = " << (c.cable.slack ? "true" : "false")
        << "\nreference_tension = " << number(c.cable.reference_tension) << "\n";
    if (c.cable.free_end_direction)
      out << "free_end_direction = " << array(*c.cable.free_end_direction) << "\n";
  } else if (registered) {
    out << "theory = " << quoted(c.registered.name) << "\n\n[" << c.registered.name << "]\n";
    for (const ParameterValues::Entry& e : c.registered.parameters.entries()) {
      out << e.key << " = ";
      if (e.kind == ParameterValues::Entry::Kind::flag)
        out << (e.values.at(0) != 0.0 ? "true" : "false");
      else if (e.kind == ParameterValues::Entry::Kind::number)
        out << number(e.values.at(0));
      else
        out << array(Eigen::Map<const Eigen::VectorXd>(e.values.data(), e.values.size()));
      out << "\n";
    }
  } else if (!c.section_table.empty()) {
    out << "\n[beam]\nsection = \"table\"\nfile = " << quoted(c.section_table) << "\n";
  } else if (c.law) {
    out << "\n[beam]\nsection = \"matrix\"\norder = \"libfield\"";
    for (const auto& [key, m] :
         {std::pair{"stiffness", &c.law->C}, std::pair{"inertia", &c.law->J}}) {
      out << "\n" << key << " = [";
      for (int i = 0; i < 6; ++i) {
        out << (i ? ",\n  [" : "\n  [");
        for (int j = 0; j < 6; ++j) out << (j ? ", " : "") << number((*m)(i, j));
        out << "]";
      }
      out << "]";
    }
    out << "\n";
  } else {
    out << "\n[beam]\nsection = \"explicit\"\narea = " << number(c.section.area)
        << "\nI1 = " << number(c.section.I1) << "\nI2 = " << number(c.section.I2)
        << "\ntorsion = " << number(c.section.torsion)
        << "\nshear_factor = " << number(c.section.shear_k) << "\nE = " << number(c.material.E)
        << "\nnu = " << number(c.material.nu) << "\nrho = " << number(c.material.rho) << "\n";
  }
  if (c.shape.kind == ShapeSpec::Kind::uniform)
    out << "\n[shape]\nstrain = " << array(c.shape.strain) << "\n";
  else if (c.shape.kind == ShapeSpec::Kind::file)
    out << "\n[shape]\nfile = " << quoted(c.shape.file) << "\n";
  else if (c.shape.kind == ShapeSpec::Kind::polyline)
    out << "\n[shape]\npolyline = " << quoted(c.shape.file) << "\n";
  out << "\n[grid]\nA = " << c.A << "\nds = " << number(c.ds) << "\nJ = " << c.J
      << "\ndt = " << number(c.dt) << "\n";
  out << "\n[boundary]\n";
  if (time) {
    for (const auto& [key, end] : {std::pair{"left", &c.left}, std::pair{"right", &c.right}}) {
      out << key << " = ";
      if (end->kind == EndSpec::Kind::prescribed)
        out << "{ prescribed = " << quoted(end->file) << " }\n";
      else
        out << (end->kind == EndSpec::Kind::free ? "\"free\"\n" : "\"clamped\"\n");
    }
    const InitialSpec& in = c.initial;
    out << "\n[initial]\n";
    if (cable && c.cable.shape == CableSpec::Shape::catenary) {
      out << "configuration = \"catenary\"\norigin = " << array(in.origin)
          << "\nend = " << array(c.cable.end) << "\n";
    } else if (cable) {
      out << "configuration = \"straight\"\norigin = " << array(in.origin)
          << "\naxis = " << array(in.axis) << "\n";
    } else if (registered) {
      out << "origin = " << array(in.origin) << "\n";
    } else if (!in.checkpoint.empty()) {
      out << "checkpoint = " << quoted(in.checkpoint) << "\n";
    } else if (in.configuration == InitialSpec::Configuration::file) {
      out << "configuration = \"file\"\nfile = " << quoted(in.file) << "\n";
      if (in.row) out << "row = " << *in.row << "\n";
    } else {
      out << "configuration = "
          << (in.configuration == InitialSpec::Configuration::arc           ? "\"arc\""
              : in.configuration == InitialSpec::Configuration::stress_free ? "\"stress_free\""
              : in.configuration == InitialSpec::Configuration::static_equilibrium ? "\"static\""
                                                                                   : "\"straight\"")
          << "\n";
      const bool placed_by_shape =  // the polyline places the beam (read_initial)
          c.shape.kind == ShapeSpec::Kind::polyline &&
          (in.configuration == InitialSpec::Configuration::stress_free ||
           in.configuration == InitialSpec::Configuration::static_equilibrium);
      if (!placed_by_shape)
        out << "origin = " << array(in.origin) << "\naxis = " << array(in.axis) << "\n";
      if (in.configuration == InitialSpec::Configuration::arc)
        out << "strain = " << array(in.strain) << "\n";
    }
    const CableSpec& k = c.cable;
    if (!in.checkpoint.empty()) {
      // the checkpoint gives the velocities too (read_initial)
    } else if (registered && !c.registered.xi.empty()) {
      out << "velocity = \"uniform\"\nxi = "
          << array(
                 Eigen::Map<const Eigen::VectorXd>(c.registered.xi.data(), c.registered.xi.size()))
          << "\n";
    } else if (cable && k.velocity == CableSpec::Velocity::uniform) {
      out << "velocity = \"uniform\"\nxi = " << array(k.xi) << "\n";
    } else if (cable && k.velocity == CableSpec::Velocity::rotation) {
      out << "velocity = \"rotation\"\nomega = " << array(k.omega)
          << "\ncenter = " << array(k.center) << "\n";
    } else if (cable && k.velocity == CableSpec::Velocity::file) {
      out << "velocity = \"file\"\nvelocity_file = " << quoted(in.velocity_file) << "\n";
    } else if (in.velocity == InitialSpec::Velocity::uniform) {
      out << "velocity = \"uniform\"\nxi = " << array(in.velocity_value) << "\n";
    } else if (in.velocity == InitialSpec::Velocity::file) {
      out << "velocity = \"file\"\nvelocity_file = " << quoted(in.velocity_file) << "\n";
    } else {
      out << "velocity = \"zero\"\n";
    }
    if (in.checkpoint.empty())
      out << "start = "
          << (in.start == InitialSpec::Start::first_order ? "\"first_order\"" : "\"second_order\"")
          << "\n";
  } else {
    for (const auto& [key, row] : {std::pair{"first", &c.first}, std::pair{"last", &c.last}}) {
      out << key << " = ";
      if (row->kind == RowSpec::Kind::prescribed) {
        out << "{ prescribed = " << quoted(row->file);
        if (row->j) out << ", j = " << *row->j;
        out << " }\n";
      } else {
        out << "\"zero_momentum\"\n";
      }
    }
    out << "\n[tip]\n";
    if (!c.tip.empty()) out << "file = " << quoted(c.tip) << "\n";
    if (!cable && !registered)  // the prediction of theory §6.3 is the beam's (io/cable_case.hpp)
      out << "noise_position = " << number(c.tip_noise.position)
          << "\nnoise_angle = " << number(c.tip_noise.angle)
          << "\nnoise_strain = " << number(c.tip_noise.strain)
          << "\nmax_predicted_error = " << number(c.tip_noise.max_predicted_error) << "\n";
    if (c.tip_data.time_offset) out << "time_offset = " << number(*c.tip_data.time_offset) << "\n";
    out << "strain_at = "
        << (c.tip_data.strain_at == TipDataSpec::StrainAt::tip_point ? "\"tip_point\""
                                                                     : "\"segment\"")
        << "\n";
    const bool driven = c.reconstruct.method == ReconstructSpec::Method::driven;
    const bool estimate = c.reconstruct.method == ReconstructSpec::Method::estimate;
    out << "\n[reconstruct]\nmethod = "
        << (driven     ? "\"driven\""
            : estimate ? "\"estimate\""
                       : "\"space\"")
        << "\n";
    if (estimate) {
      const ReconstructSpec& r = c.reconstruct;
      out << "far_end = "
          << (r.far_end_none                        ? "\"none\""
              : r.far_end == EndSpec::Kind::clamped ? "\"clamped\""
                                                    : "\"free\"")
          << "\nfirst_row = "
          << (r.first_straight  ? "\"straight\""
              : r.first_at_rest ? "\"rest\""
                                : "\"free\"")
          << "\nlast_row = " << (r.last_at_rest ? "\"rest\"" : "\"free\"")
          << "\nmodel_error = " << number(r.model_error)
          << "\nmax_iterations = " << r.max_iterations
          << "\ncovariance = " << (r.covariance ? "true" : "false") << "\n";
    }
    if (driven)
      out << "far_end = "
          << (c.reconstruct.far_end == EndSpec::Kind::clamped ? "\"clamped\"" : "\"free\"") << "\n";
  }
  out << "\n[loads]\ngravity = " << array(c.gravity) << "\n";
  for (const auto& d : c.loads.distributed) {
    out << "\n[[loads.distributed]]\nframe = \"" << frame_name(d.frame) << "\"\n";
    write_wrench(out, d.wrench);
    out << "nodes = [" << d.a_first << ", " << (d.a_last < 0 ? c.A - 1 : d.a_last) << "]\n";
  }
  for (const auto& p : c.loads.point) {
    if (p.end)
      out << "\n[[loads.end]]\n";
    else
      out << "\n[[loads.point]]\nnode = " << p.a << "\n";
    out << "frame = \"" << frame_name(p.frame) << "\"\n";
    write_wrench(out, p.wrench);
  }
  // [damping] only when damped (theory §4.7): undamped run.toml files keep their bytes.
  if (c.loads.damping.any())
    out << "\n[damping]\nmass = " << number(c.loads.damping.mass)
        << "\nstiffness = " << number(c.loads.damping.stiffness) << "\n";
  out << "\n[solver]\ntolerance = " << number(c.newton.tolerance)
      << "\nmax_iterations = " << c.newton.max_iterations << "\n";
  // [static] only when it is not the default: the run.toml of every other case keeps its bytes.
  if (time && (c.statics.steps != StaticSpec{}.steps ||
               c.statics.max_iterations != StaticSpec{}.max_iterations))
    out << "\n[static]\nsteps = " << c.statics.steps
        << "\nmax_iterations = " << c.statics.max_iterations << "\n";
  out << "\n[output]\nstride = " << c.output.stride << "\nvtk_stride = "
      << (c.output.vtk_stride > 0 ? std::to_string(c.output.vtk_stride) : "\"auto\"")
      << "\ncsv = " << std::boolalpha << c.output.csv << "\nvtk = " << c.output.vtk
      << "\ntip = " << c.output.tip << "\nseries_stride = " << c.output.series_stride << "\n";
  if (c.output.rates) out << "rates = true\n";
  if (c.output.checkpoint)
    out << "checkpoint = true\n";  // only when on: other run.toml files keep their bytes
}

}  // namespace field::io
