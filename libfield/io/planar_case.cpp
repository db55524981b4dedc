#include "libfield/io/planar_case.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "libfield/core/error.hpp"
#include "libfield/io/checkpoint.hpp"
#include "libfield/io/toml_table.hpp"
#include "libfield/march/planar_embedding.hpp"

namespace field::io {

namespace {

const char* const kWhy = " is not supported for theory = \"planar_beam\" yet (docs/lie-groups.md)";

/// Whether an SE(3) body velocity is one of the plane's (march/planar_embedding.hpp), exactly.
bool in_plane_velocity(const Vec6& xi) {
  return xi(0) == 0.0 && xi(2) == 0.0 && xi(4) == 0.0;
}

TomlTable table_of(const toml::table& root, const std::string& key, const CaseSpec& c) {
  return table_or_top(root, key, c.file);
}

}  // namespace

void check_planar_case(const toml::table& root, const CaseSpec& c) {
  TomlTable top(root, "", c.file);
  if (c.retraction != lie::RetractionKind::cayley)
    top.fail("retraction", std::string("the planar beam runs on SE(2) with Cayley (theory §1.7): "
                                       "use retraction = \"cayley\" or leave it out"));
  if (c.march == MarchKind::space) {  // `field reconstruct`: the space march of theory §6.2
    TomlTable reconstruct = table_of(root, "reconstruct", c);
    if (c.reconstruct.method != ReconstructSpec::Method::space)
      reconstruct.fail("method", std::string("a method other than \"space\"") + kWhy +
                                     ": the planar beam is rebuilt by the space march of theory "
                                     "§6.2: leave method out or use \"space\"; or run the same "
                                     "case with theory = \"beam\", which has the driven and "
                                     "estimate methods and equals the planar beam in the plane to "
                                     "round-off (docs/planar_beam.md)");
    TomlTable boundary = table_of(root, "boundary", c);
    for (const auto& [key, row] : {std::pair{"first", &c.first}, std::pair{"last", &c.last}})
      if (row->kind == RowSpec::Kind::prescribed)
        boundary.fail(key, std::string("a prescribed row") + kWhy + ": use \"zero_momentum\"");
  }
  TomlTable beam = table_of(root, "beam", c);
  if (!c.section_table.empty()) beam.fail("section", std::string("section = \"table\"") + kWhy);
  const model::SectionLaw law = c.section_law();
  if (!law.diagonal())
    beam.fail("section",
              "the planar beam needs a diagonal section law (theory §1.7): the "
              "in-plane stiffnesses and inertias must not couple to the others");
  if (law.J(3, 3) != law.J(5, 5) || law.J(3, 3) != law.mass_per_length)
    beam.fail("section",
              "the planar beam has one rho A (theory §1.7): give rhoA equal for both "
              "linear inertias and the weight");
  if (root.contains("shape"))
    top.fail("shape", std::string("[shape] (a stress-free shape other than straight)") + kWhy);
  TomlTable boundary = table_of(root, "boundary", c);
  for (const auto& [key, end] : {std::pair{"left", &c.left}, std::pair{"right", &c.right}})
    if (end->kind == EndSpec::Kind::prescribed)
      boundary.fail(key, std::string("a prescribed end") + kWhy + ": use \"free\" or \"clamped\"");
  TomlTable initial = table_of(root, "initial", c);
  const InitialSpec& in = c.initial;
  // A continued run takes its rows from the checkpoint (PlanarProblem; the other [initial] keys
  // are refused with it, io/case_file.cpp).
  if (c.march == MarchKind::time && in.checkpoint.empty()) {
    if (in.configuration != InitialSpec::Configuration::straight)
      initial.fail("configuration", std::string("a row 0 other than \"straight\"") + kWhy);
    if (in.origin(2) != 0.0)
      initial.fail("origin", "the planar beam lies in the x-y plane: the z component must be 0");
    if (in.axis(2) != 0.0)
      initial.fail("axis", "the planar beam lies in the x-y plane: the z component must be 0");
    // The body velocity in the plane: (omega, v1, v2) of the SE(2) beam is (0, omega, 0, v2, 0,
    // v1) in the SE(3) beam's body order (march/planar_embedding.hpp); a file's rows are checked
    // as the problem reads them.
    if (in.velocity == InitialSpec::Velocity::uniform && !in_plane_velocity(in.velocity_value))
      initial.fail("xi",
                   "the planar beam moves in the x-y plane: xi = (Omega1, Omega2, Omega3, V1, "
                   "V2, V3) must have Omega1 = Omega3 = V2 = 0 (Omega2 turns it about the "
                   "normal, V1 and V3 move it in the plane; docs/lie-groups.md)");
  }
  TomlTable loads = table_of(root, "loads", c);
  if (c.gravity(2) != 0.0)
    loads.fail("gravity",
               "the planar beam's gravity lies in the x-y plane: the z component "
               "must be 0");
  for (const char* key : {"distributed", "point", "end"})
    if (loads.has(key)) loads.fail(key, std::string("loads other than gravity") + kWhy);
  if (root.contains("damping")) top.fail("damping", std::string("[damping]") + kWhy);
  if (root.contains("static")) top.fail("static", std::string("[static]") + kWhy);
}

model::PlanarSection planar_section(const model::SectionLaw& law) {
  model::PlanarSection s;
  s.EI = law.C(1, 1);
  s.EA = law.C(5, 5);
  s.GA = law.C(3, 3);
  s.rhoA = law.mass_per_length;
  s.rhoI = law.J(1, 1);
  return s;
}

namespace {

/// Row 0 of the planar beam: straight from the origin along the axis (theory §3.4), d1 along the
/// axis.
std::vector<lie::SE2> planar_row0(const Problem& p) {
  const CaseSpec& c = p.spec;
  const Vec3 axis = c.initial.axis.stableNormalized();
  const double theta = std::atan2(axis(1), axis(0));
  lie::Mat2 R;
  R << std::cos(theta), -std::sin(theta), std::sin(theta), std::cos(theta);
  std::vector<lie::SE2> row(c.A + 1);
  for (int a = 0; a <= c.A; ++a) {
    const Vec3 r = c.initial.origin + p.mesh.s(a, c.left_side()) * axis;
    row[a] = lie::SE2{R, lie::Vec2(r(0), r(1))};
  }
  return row;
}

march::BasicSideSpec<lie::SE2> planar_end(const EndSpec& end, const lie::SE2& g) {
  if (end.kind == EndSpec::Kind::clamped) return march::BasicSideSpec<lie::SE2>::clamped(g);
  return march::BasicSideSpec<lie::SE2>::free();  // prescribed ends are refused by the check
}

}  // namespace

PlanarProblem::PlanarProblem(const Problem& problem)
    : density(planar_section(problem.spec.section_law()),
              lie::Vec2(problem.spec.gravity(0), problem.spec.gravity(1))),
      model(density, loads, problem.mesh) {
  const CaseSpec& c = problem.spec;
  FIELD_CHECK(c.theory == Theory::planar_beam, c.file.string() << ": not a planar-beam case");
  if (c.march == MarchKind::space) return;  // its input is planar_space_input's
  if (!c.initial.checkpoint.empty()) {      // continue a run from its state (io/checkpoint.hpp)
    const Checkpoint checkpoint = read_fitting_checkpoint(c);
    // Stored embedded in SE(3) (march::embed_planar), projected back bit for bit.
    FIELD_CHECK(march::in_plane(checkpoint.march),
                c.file.string() << ": [initial] checkpoint '" << checkpoint.path.string()
                                << "': its rows and velocities are not a planar beam's embedded "
                                   "in the x-y plane (march::embed_planar): give the "
                                   "checkpoint.txt the planar run wrote, unchanged");
    check_checkpoint_positions(problem, checkpoint.march);
    input.resume = march::project_planar(checkpoint.march);
    // A clamped end keeps the pose of row 0, which every row since holds exactly.
    input.left = planar_end(c.left, input.resume.cur.front());
    input.right = planar_end(c.right, input.resume.cur.back());
    return;
  }
  input.row0 = planar_row0(problem);
  // The [initial] velocities, in the plane (march/planar_embedding.hpp), as for the SE(3) beam:
  // g_1 = g_0 tau(dt xi(0)) for the first-order start, else theory §6.1 step 2.
  std::vector<Vec3> xi;
  const std::vector<Vec6> velocities = initial_velocities(c);
  for (std::size_t a = 0; a < velocities.size(); ++a) {
    FIELD_CHECK(in_plane_velocity(velocities[a]),
                c.initial.velocity_file.string()
                    << ": node a = " << a << ": the velocity (Omega1, Omega3, V2) = ("
                    << velocities[a](0) << ", " << velocities[a](2) << ", " << velocities[a](4)
                    << ") is not in the x-y plane: theory = \"planar_beam\" needs w1 = w3 = v2 = "
                       "0 (the file of "
                    << c.file.string() << ": [initial] velocity_file)");
    xi.push_back(march::project_planar_body(velocities[a]));
  }
  if (c.initial.start == InitialSpec::Start::first_order) {
    for (int a = 0; a <= c.A; ++a)
      input.row1.push_back(input.row0[a] * lie::Se2Cayley::tau(c.dt * xi[a]));
  } else {
    input.velocities = xi;
  }
  input.left = planar_end(c.left, input.row0.front());
  input.right = planar_end(c.right, input.row0.back());
}

march::SpaceMarchInputOf<lie::Se2Cayley> planar_space_input(const Problem& problem,
                                                            const SpaceSetup& setup) {
  const CaseSpec& c = problem.spec;
  const march::SpaceMarchInput& in = setup.input;
  FIELD_CHECK(in.first.is_free() && in.last.is_free(),
              c.file.string() << ": a planar space march with prescribed rows");  // refused above
  const double L = c.length();
  const auto fail = [&](int j, const std::string& what, double value) {
    std::ostringstream m;
    m << c.tip.string() << ": the tip at row j = " << j << " of the grid (t = " << j * c.dt
      << " s) is not in the x-y plane: " << what << " = " << value << " (tolerance "
      << kPlanarTolerance
      << "): theory = \"planar_beam\" needs tip poses in the plane with d2 = e3 (the normal, "
         "docs/lie-groups.md) and in-plane strains (Omega1 = Omega3 = Gamma2 = 0); give planar "
         "tip data, or remove theory = \"planar_beam\" to rebuild it as an SE(3) beam";
    throw Error(m.str());
  };
  march::SpaceMarchInputOf<lie::Se2Cayley> out;
  for (std::size_t j = 0; j < in.column0.size(); ++j) {
    const lie::SE3& g = in.column0[j];
    // d2 = e3: R e2 = (0, 0, 1); d1, d3 in the plane: R(2, 0) = R(2, 2) = 0 (march::embed_planar).
    const double d2 = (g.R.col(1) - Vec3::UnitZ()).cwiseAbs().maxCoeff();
    if (d2 > kPlanarTolerance) fail(int(j), "|d2 - e3|", d2);
    for (int k : {0, 2})
      if (std::abs(g.R(2, k)) > kPlanarTolerance)
        fail(int(j), "the z component of d" + std::to_string(k + 1), g.R(2, k));
    if (std::abs(g.r(2)) > kPlanarTolerance * L) fail(int(j), "z/L", g.r(2) / L);
    out.column0.push_back(march::project_planar(g));
  }
  for (std::size_t j = 0; j < in.strain0.size(); ++j) {
    const Vec6& eta = in.strain0[j];
    for (const auto& [k, name, scale] :
         {std::tuple{0, "Omega1 L", L}, std::tuple{2, "Omega3 L", L}, std::tuple{4, "Gamma2", 1.0}})
      if (std::abs(eta(k)) * scale > kPlanarTolerance) fail(int(j), name, eta(k) * scale);
    out.strain0.push_back(march::project_planar_body(eta));
  }
  return out;  // rows j = 0 and J free (zero momentum)
}

}  // namespace field::io
