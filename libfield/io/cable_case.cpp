#include "libfield/io/cable_case.hpp"

#include <cmath>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/toml_table.hpp"
#include "libfield/model/elastic_catenary.hpp"

namespace field::io {

namespace {

const char* const kWhy = " is not supported for theory = \"cable\" (docs/cable.md)";

}  // namespace

void read_cable(TomlTable t, CaseSpec& c) {
  CableSpec& k = c.cable;
  k.EA = t.positive("EA", std::nullopt, "axial stiffness EA [N] (theory (1.8.2))");
  k.rhoA = t.positive("rhoA", std::nullopt, "mass per unstretched length rho A [kg/m]");
  k.slack = t.boolean("slack", false, "true: no compression, W = 0 for stretch < 1 (1.8.3)");
  k.reference_tension = t.non_negative("reference_tension", 0.0,
                                       "tension N_ref [N] of the transverse wave speed (1.8.6)");
  if (t.has("free_end_direction")) {
    const Vec3 d =
        t.vec<3>("free_end_direction", std::nullopt, "direction d0 of a free end's ghost (1.8.7)");
    const double norm = d.stableNorm();
    if (!(norm >= 1e-12)) t.fail("free_end_direction", "must not be the zero vector");
    k.free_end_direction = d / norm;
  }
  t.reject_unknown({"EA", "rhoA", "slack", "reference_tension", "free_end_direction"});
}

void read_cable_initial(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;  // straight along e3 from the origin, at rest
  InitialSpec& in = c.initial;
  const bool catenary =
      t->choice("configuration", "straight", {"straight", "catenary"}) == "catenary";
  in.origin = t->vec<3>("origin", Vec3::Zero(), "position of the node a = 0 [m]");
  if (catenary) {
    c.cable.shape = CableSpec::Shape::catenary;
    c.cable.end = t->vec<3>("end", std::nullopt, "position of the support at a = A [m]");
    if (c.left.kind == EndSpec::Kind::free || c.right.kind == EndSpec::Kind::free)
      t->fail("configuration",
              "the catenary hangs between two supports: give [boundary] left = right = "
              "\"clamped\"");
  } else {
    in.axis = t->vec<3>("axis", Vec3::UnitZ(), "direction of the cable at s = 0");
    const double norm = in.axis.stableNorm();
    if (!(norm >= 1e-12)) t->fail("axis", "must not be the zero vector");
    in.axis /= norm;
  }
  t->choice("velocity", "zero", {"zero"});  // a cable starts at rest
  const std::string start = t->choice("start", "second_order", {"second_order", "first_order"});
  in.start =
      start == "first_order" ? InitialSpec::Start::first_order : InitialSpec::Start::second_order;
  t->reject_unknown({"configuration", "origin", "axis", "end", "velocity", "start"});
}

void check_cable_case(const toml::table& root, const CaseSpec& c) {
  TomlTable top(root, "", c.file);
  if (c.theory != Theory::cable) {
    if (root.contains("cable"))
      top.fail("cable", "[cable] belongs to theory = \"cable\" cases (docs/cable.md)");
    return;
  }
  if (root.contains("retraction"))
    top.fail("retraction",
             "the cable runs on R^3, which has one retraction (tau(x) = x, theory §1.8): "
             "remove the key");
  if (c.march != MarchKind::time) top.fail("march", std::string("march = \"space\"") + kWhy);
  for (const char* key : {"beam", "shape", "damping", "static"})
    if (root.contains(key))
      top.fail(key, "[" + std::string(key) + "]" + kWhy +
                        (std::string(key) == "beam" ? ": give the cable's law in [cable]" : ""));
  TomlTable boundary = table_or_top(root, "boundary", c.file);
  for (const auto& [key, end] : {std::pair{"left", &c.left}, std::pair{"right", &c.right}})
    if (end->kind == EndSpec::Kind::prescribed)
      boundary.fail(key, std::string("a prescribed end") + kWhy + ": use \"free\" or \"clamped\"");
  TomlTable loads = table_or_top(root, "loads", c.file);
  for (const char* key : {"distributed", "point", "end"})
    if (loads.has(key)) loads.fail(key, std::string("loads other than gravity") + kWhy);
  if (c.cable.shape == CableSpec::Shape::catenary) {
    TomlTable initial = table_or_top(root, "initial", c.file);
    if (c.gravity.isZero(0.0))
      loads.fail("gravity", "a catenary hangs under gravity: give a non-zero [loads] gravity");
    const Vec3 up = -c.gravity.normalized();
    const Vec3 chord = c.cable.end - c.initial.origin;
    if ((chord - chord.dot(up) * up).norm() <= 1e-12 * std::max(1.0, chord.norm()))
      initial.fail("end", "the supports are on one vertical: the catenary needs a span");
  }
}

model::ElasticCatenary case_catenary(const CaseSpec& c) {
  const double g = c.gravity.norm();
  const Vec3 up = -c.gravity / g;
  const Vec3 chord = c.cable.end - c.initial.origin;
  const double rise = chord.dot(up);
  const double span = (chord - rise * up).norm();
  return model::ElasticCatenary::between(c.cable.EA, c.cable.rhoA * g, c.A * c.ds, span, rise);
}

namespace {

/// Row 0 of the cable (theory §3.4): straight from the origin along the axis, unstretched, or the
/// elastic catenary (1.8.9) between origin and end in the vertical plane through them.
std::vector<Vec3> cable_row0(const CaseSpec& c, const mesh::SpacetimeMesh& mesh) {
  const mesh::Side left = c.left_side();
  std::vector<Vec3> row(c.A + 1);
  if (c.cable.shape == CableSpec::Shape::straight) {
    for (int a = 0; a <= c.A; ++a) row[a] = c.initial.origin + mesh.s(a, left) * c.initial.axis;
    return row;
  }
  const Vec3 up = -c.gravity.normalized();
  const Vec3 chord = c.cable.end - c.initial.origin;
  const Vec3 horizontal = chord - chord.dot(up) * up;
  const double span = horizontal.norm();
  const model::ElasticCatenary catenary = case_catenary(c);
  for (int a = 0; a <= c.A; ++a) {
    const Vec3 xz = catenary(mesh.s(a, left));
    row[a] = c.initial.origin + xz(0) / span * horizontal + xz(2) * up;
  }
  row[c.A] = c.cable.end;  // exactly the support
  return row;
}

model::CableDensity::Options cable_options(const CaseSpec& c) {
  model::CableDensity::Options o;
  o.gravity = c.gravity;
  o.slack = c.cable.slack;
  o.reference_tension = c.cable.reference_tension;
  o.free_end_direction = c.cable.free_end_direction.value_or(
      c.cable.shape == CableSpec::Shape::straight ? c.initial.axis : Vec3::UnitZ());
  return o;
}

}  // namespace

CableProblem::CableProblem(const CaseSpec& case_spec)
    : spec(case_spec),
      density({spec.cable.EA, spec.cable.rhoA}, cable_options(spec)),
      mesh(spec.J, spec.A, spec.dt, spec.ds),
      model(density, loads, mesh) {
  FIELD_CHECK(spec.theory == Theory::cable && spec.march == MarchKind::time,
              spec.file.string() << ": not a cable time march");
  using Side = march::BasicSideSpec<Vec3>;
  input.row0 = cable_row0(spec, mesh);
  if (spec.initial.start == InitialSpec::Start::first_order)
    input.row1 = input.row0;  // r_1 = r_0 + dt 0: at rest
  else
    input.velocities.assign(spec.A + 1, Vec3::Zero());
  const auto end = [](const EndSpec& e, const Vec3& r) {
    return e.kind == EndSpec::Kind::clamped ? Side::clamped(r) : Side::free();
  };
  input.left = end(spec.left, input.row0.front());
  input.right = end(spec.right, input.row0.back());
}

}  // namespace field::io
