#include "libfield/io/cable_case.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/magnitudes.hpp"
#include "libfield/io/node_data.hpp"
#include "libfield/io/plain_space_case.hpp"
#include "libfield/io/pose_track.hpp"
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
              "\"clamped\" (or a prescribed path that starts at the support)");
  } else {
    in.axis = t->vec<3>("axis", Vec3::UnitZ(), "direction of the cable at s = 0");
    const double norm = in.axis.stableNorm();
    if (!(norm >= 1e-12)) t->fail("axis", "must not be the zero vector");
    in.axis /= norm;
  }
  // The initial velocity r_t(0, s_a) (theory (1.8.10)); each kind takes its own keys.
  CableSpec& k = c.cable;
  const std::string velocity =
      t->choice("velocity", "zero", {"zero", "uniform", "rotation", "file"});
  const std::pair<const char*, const char*> owners[] = {
      {"xi", "uniform"}, {"omega", "rotation"}, {"center", "rotation"}, {"velocity_file", "file"}};
  for (const auto& [key, owner] : owners)
    if (t->has(key) && velocity != owner)
      t->fail(key, std::string("is read with velocity = \"") + owner + "\" only (velocity = \"" +
                       velocity + "\" here): remove it or set velocity = \"" + owner + "\"");
  if (velocity == "uniform") {
    k.velocity = CableSpec::Velocity::uniform;
    k.xi = t->vec<3>("xi", std::nullopt, "velocity r_t [m/s] of every node");
  } else if (velocity == "rotation") {
    k.velocity = CableSpec::Velocity::rotation;
    k.omega = t->vec<3>("omega", std::nullopt,
                        "angular velocity [rad/s] of the rigid rotation omega x (r - center)");
    k.center = t->vec<3>("center", in.origin, "a point of the rotation axis [m]");
  } else if (velocity == "file") {
    k.velocity = CableSpec::Velocity::file;
    in.velocity_file = t->path("velocity_file", "CSV with columns a,v1,v2,v3, one line per node");
    c.file_keys.emplace_back(in.velocity_file, t->where("velocity_file"));
  }
  const std::string start = t->choice("start", "second_order", {"second_order", "first_order"});
  in.start =
      start == "first_order" ? InitialSpec::Start::first_order : InitialSpec::Start::second_order;
  t->reject_unknown({"configuration", "origin", "axis", "end", "velocity", "xi", "omega", "center",
                     "velocity_file", "start"});
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
  if (c.march == MarchKind::space)  // `field reconstruct`: the space march of theory §6.2
    refuse_beam_space_keys(root, c, kWhy);
  for (const char* key : {"beam", "shape", "damping", "static"})
    if (root.contains(key))
      top.fail(key, "[" + std::string(key) + "]" + kWhy +
                        (std::string(key) == "beam" ? ": give the cable's law in [cable]" : ""));
  TomlTable loads = table_or_top(root, "loads", c.file);
  for (const char* key : {"distributed", "point", "end"})
    if (loads.has(key)) loads.fail(key, std::string("loads other than gravity") + kWhy);
  if (c.cable.shape == CableSpec::Shape::catenary) {
    TomlTable initial = table_or_top(root, "initial", c.file);
    if (c.gravity.isZero(0.0))
      loads.fail("gravity", "a catenary hangs under gravity: give a non-zero [loads] gravity");
    const Vec3 up = -c.gravity / c.gravity.stableNorm();  // norm() squares: under/overflow
    const Vec3 chord = c.cable.end - c.initial.origin;
    if ((chord - chord.dot(up) * up).norm() <= 1e-12 * std::max(1.0, chord.norm()))
      initial.fail("end", "the supports are on one vertical: the catenary needs a span");
  }
}

model::ElasticCatenary case_catenary(const CaseSpec& c) {
  // norm() squares: |gravity| = 1e-300 gave 0 and 1e300 inf (the same bits as before otherwise).
  const double norm = c.gravity.norm();
  const double g = norm > 0.0 && std::isfinite(norm) ? norm : c.gravity.stableNorm();
  const Vec3 up = -c.gravity / g;
  const Vec3 chord = c.cable.end - c.initial.origin;
  const double rise = chord.dot(up);
  const double span = (chord - rise * up).norm();
  try {
    return model::ElasticCatenary::between(c.cable.EA, c.cable.rhoA * g, c.A * c.ds, span, rise);
  } catch (const IoError&) {
    throw;
  } catch (const Error& e) {  // the keys it comes from, and what to change
    throw Error(c.file.string() + ": [initial] configuration = \"catenary\" with [cable] EA = " +
                shortest(c.cable.EA) + " N, weight rhoA |gravity| = " + shortest(c.cable.rhoA * g) +
                " N/m (give EA, rhoA and gravity of magnitudes double precision can solve "
                "for): " +
                e.what());
  }
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

/// The initial velocities r_t(0, s_a) of the nodes of row 0 (theory (1.8.10)).
std::vector<Vec3> cable_velocities(const CaseSpec& c, const std::vector<Vec3>& row0) {
  const CableSpec& k = c.cable;
  switch (k.velocity) {
    case CableSpec::Velocity::zero:
      break;
    case CableSpec::Velocity::uniform:
      return std::vector<Vec3>(row0.size(), k.xi);
    case CableSpec::Velocity::rotation: {
      std::vector<Vec3> v;
      for (const Vec3& r : row0) v.push_back(k.omega.cross(r - k.center));
      return v;
    }
    case CableSpec::Velocity::file:
      return named(c, c.initial.velocity_file,
                   [&] { return read_point_velocities(c.initial.velocity_file, c.A + 1); });
  }
  return std::vector<Vec3>(row0.size(), Vec3::Zero());
}

/// The positions r_j of a prescribed end at t_j = j dt, j = 0..J, from its path (linear between
/// the samples), sampled up front: a path that does not cover [0, T], or that does not start at
/// the end node `start` of row 0, is an input error before the march.
std::shared_ptr<const std::vector<Vec3>> end_path(const CaseSpec& c, const EndSpec& end,
                                                  const char* side, const Vec3& start) {
  auto path = named(c, end.file, [&] {
    const PoseTrack track = read_position_track(end.file);
    auto sampled = std::make_shared<std::vector<Vec3>>();
    for (int j = 0; j <= c.J; ++j) sampled->push_back(track.pose_at(j * c.dt).r);
    const Vec3& r0 = sampled->front();
    FIELD_CHECK(
        (r0 - start).norm() <= 1e-9 * std::max(1.0, start.norm()),
        end.file.string() << ": the path of the " << side << " end is at (" << shortest(r0(0))
                          << ", " << shortest(r0(1)) << ", " << shortest(r0(2))
                          << ") at t = 0, but row 0 puts "
                          << "that end at (" << shortest(start(0)) << ", " << shortest(start(1))
                          << ", " << shortest(start(2))
                          << "): start the path at the end of row 0, or move the cable ([initial] "
                             "origin, axis or end)");
    return sampled;
  });
  return path;
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
  FIELD_CHECK(spec.theory == Theory::cable, spec.file.string() << ": not a cable case");
  if (spec.march == MarchKind::space)
    return;  // its input is plain_space_input's (io/plain_space_case.hpp)
  using Side = march::BasicSideSpec<Vec3>;
  input.row0 = cable_row0(spec, mesh);
  // Row 1 by theory (1.8.11): the second-order start of the march from the velocities, or
  // r_1 = r_0 + dt v (first order).
  input.velocities = cable_velocities(spec, input.row0);
  // The magnitude rule of theory §12 on rows 0 and 1 (r_0 + dt v, also for the second-order
  // start) and on the driven ends' paths.
  const double limit = position_limit(spec.ds, spec.dt, density.wave_speeds().c_E);
  const std::string file = spec.file.string() + ": ";
  check_positions(limit, input.row0, file + "[initial] row 0, node a =");
  std::vector<Vec3> row1 = input.row0;
  for (int a = 0; a <= spec.A; ++a) row1[a] += spec.dt * input.velocities[a];
  check_positions(limit, row1, file + "[initial] row 1 (row 0 moved by dt v(0)), node a =");
  if (spec.initial.start == InitialSpec::Start::first_order) {
    input.row1 = std::move(row1);
    input.velocities.clear();
  }
  const auto end = [&](const EndSpec& e, const char* side, const Vec3& r) {
    switch (e.kind) {
      case EndSpec::Kind::free:
        break;
      case EndSpec::Kind::clamped:
        return Side::clamped(r);
      case EndSpec::Kind::prescribed: {
        const auto path = end_path(spec, e, side, r);
        check_positions(limit, *path,
                        file + "[boundary] " + side + " end (" + e.file.string() + ") at row j =");
        return Side::prescribed([path](int j) { return (*path)[j]; });
      }
    }
    return Side::free();
  };
  input.left = end(spec.left, "left", input.row0.front());
  input.right = end(spec.right, "right", input.row0.back());
}

bool CableProblem::driven() const {
  for (const auto* side : {&input.left, &input.right}) {
    if (side->is_free()) continue;
    for (int j = 1; j <= spec.J; ++j)
      if (side->motion(j) != side->motion(0)) return true;
  }
  return false;
}

}  // namespace field::io
