#include "libfield/io/planar_case.hpp"

#include <cmath>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/checkpoint.hpp"
#include "libfield/io/toml_table.hpp"
#include "libfield/march/planar_embedding.hpp"

namespace field::io {

namespace {

const char* const kWhy = " is not supported for theory = \"planar_beam\" yet (docs/lie-groups.md)";

TomlTable table_of(const toml::table& root, const std::string& key, const CaseSpec& c) {
  return table_or_top(root, key, c.file);
}

}  // namespace

void check_planar_case(const toml::table& root, const CaseSpec& c) {
  TomlTable top(root, "", c.file);
  if (c.retraction != lie::RetractionKind::cayley)
    top.fail("retraction", std::string("the planar beam runs on SE(2) with Cayley (theory §1.7): "
                                       "use retraction = \"cayley\" or leave it out"));
  if (c.march != MarchKind::time) top.fail("march", std::string("march = \"space\"") + kWhy);
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
  if (in.checkpoint.empty()) {
    if (in.configuration != InitialSpec::Configuration::straight)
      initial.fail("configuration", std::string("a row 0 other than \"straight\"") + kWhy);
    if (in.origin(2) != 0.0)
      initial.fail("origin", "the planar beam lies in the x-y plane: the z component must be 0");
    if (in.axis(2) != 0.0)
      initial.fail("axis", "the planar beam lies in the x-y plane: the z component must be 0");
    if (in.velocity != InitialSpec::Velocity::zero)
      initial.fail("velocity", std::string("an initial velocity other than \"zero\"") + kWhy);
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
  FIELD_CHECK(c.theory == Theory::planar_beam && c.march == MarchKind::time,
              c.file.string() << ": not a planar-beam time march");
  if (!c.initial.checkpoint.empty()) {  // continue a run from its state (io/checkpoint.hpp)
    const Checkpoint checkpoint = read_fitting_checkpoint(c);
    // Stored embedded in SE(3) (march::embed_planar), projected back bit for bit.
    FIELD_CHECK(march::in_plane(checkpoint.march),
                c.file.string() << ": [initial] checkpoint '" << checkpoint.path.string()
                                << "': its rows and velocities are not a planar beam's embedded "
                                   "in the x-y plane (march::embed_planar): give the "
                                   "checkpoint.txt the planar run wrote, unchanged");
    check_positions(problem, checkpoint.march.cur,
                    c.file.string() + ": [initial] checkpoint row, node a =");
    input.resume = march::project_planar(checkpoint.march);
    // A clamped end keeps the pose of row 0, which every row since holds exactly.
    input.left = planar_end(c.left, input.resume.cur.front());
    input.right = planar_end(c.right, input.resume.cur.back());
    return;
  }
  input.row0 = planar_row0(problem);
  if (c.initial.start == InitialSpec::Start::first_order)
    input.row1 = input.row0;  // g_1 = g_0 tau(dt 0): at rest
  else
    input.velocities.assign(c.A + 1, Vec3::Zero());
  input.left = planar_end(c.left, input.row0.front());
  input.right = planar_end(c.right, input.row0.back());
}

}  // namespace field::io
