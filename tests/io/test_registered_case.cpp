// A case of a registered theory (io/registered_case.hpp, model/theory_registry.hpp): the linear
// string's case resolves to its parameters and row 0, run.toml loads back to the same case, bad
// input is refused naming file, line, key and value, and a density registered at run time on
// SE(3) (the beam's own density behind another name) marches to the same bits as the beam's case
// and its tip.csv reads back as a space march of it takes it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/group_tip.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/model/beam_density.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

const std::string kString = R"(format = 1
name = "s"
march = "time"
theory = "string"

[string]
rho = 0.25
k = 1.0
reference_strain = [0.6, 0.0, 0.8]

[grid]
A = 4
ds = 0.5
J = 10
dt = 0.1

[boundary]
left = "clamped"
right = "free"

[initial]
origin = [1.0, 2.0, 3.0]
velocity = "uniform"
xi = [0.0, 0.5, 0.0]

[loads]
gravity = [0.0, 0.0, -9.81]
)";

CaseSpec parse(const std::string& text) {
  return parse_case(text, "/cases/string/case.toml");
}

// `text` with `from` replaced by `to` (once).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kString;
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(RegisteredCase, TheStringResolvesAndItsRunTomlLoadsBack) {
  const CaseSpec c = parse(kString);
  EXPECT_EQ(c.theory, Theory::registered);
  EXPECT_EQ(theory_name(c), "string");
  ASSERT_EQ(c.registered.parameters.entries().size(), 3u);
  EXPECT_EQ(c.registered.parameters.entries()[2].values, (std::vector<double>{0.6, 0.0, 0.8}));
  EXPECT_EQ(c.registered.xi, (std::vector<double>{0.0, 0.5, 0.0}));
  std::ostringstream out;
  write_case(out, c);
  EXPECT_EQ(out.str().find("retraction"), std::string::npos) << "R^3 has one retraction";
  const CaseSpec back = parse(out.str());
  EXPECT_EQ(back.registered.name, "string");
  EXPECT_TRUE(back.registered.parameters == c.registered.parameters);
  EXPECT_EQ(back.registered.xi, c.registered.xi);
  EXPECT_EQ(back.initial.origin, c.initial.origin);
  EXPECT_EQ(back.left.kind, EndSpec::Kind::clamped);
  // A key left out is written with its default (reference_strain = e3).
  const CaseSpec defaults = parse(edited("reference_strain = [0.6, 0.0, 0.8]\n", ""));
  std::ostringstream written;
  write_case(written, defaults);
  EXPECT_NE(written.str().find("reference_strain = [0.0, 0.0, 1.0]"), std::string::npos)
      << written.str();
}

// Row 0 is the stress-free shape from node 0 at the origin (theory (1.6.3)); the clamped end
// holds node 0, the velocities are xi; the first-order start moves row 1 by dt xi.
TEST(RegisteredCase, RowZeroIsTheStressFreeShapeFromTheOrigin) {
  const CaseSpec c = parse(kString);
  const RegisteredProblem<lie::Rn<3>> p(c);
  ASSERT_EQ(p.input.row0.size(), 5u);
  for (int a = 0; a <= 4; ++a)
    EXPECT_LT((p.input.row0[a] - (Vec3(1, 2, 3) + 0.5 * a * Vec3(0.6, 0, 0.8))).norm(), 1e-15);
  EXPECT_FALSE(p.input.left.is_free());
  EXPECT_EQ(p.input.left.motion(7), p.input.row0[0]);
  EXPECT_TRUE(p.input.right.is_free());
  ASSERT_EQ(p.input.velocities.size(), 5u);
  EXPECT_EQ(p.input.velocities[3], Vec3(0, 0.5, 0));
  EXPECT_EQ(p.density->potential_force(Vec3::Zero()), Vec3(0, 0, -0.25 * 9.81));
  EXPECT_DOUBLE_EQ(p.stability().cfl_time, 2.0 * 0.1 / 0.5);
  const CaseSpec first = parse(edited("[loads]", "start = \"first_order\"\n\n[loads]"));
  const RegisteredProblem<lie::Rn<3>> q(first);
  EXPECT_TRUE(q.input.velocities.empty());
  EXPECT_EQ(q.input.row1[2], q.input.row0[2] + Vec3(0, 0.05, 0));
}

// The magnitude rule of theory §12 (io/magnitudes.hpp) holds for every theory: with
// c = sqrt(k/rho) = 2 m/s, ds = 0.5 m, dt = 0.1 s the limit is 1e11 min(ds, c dt) = 2e10 m, on
// row 0 and on row 1 (row 0 moved by dt xi).
TEST(RegisteredCase, NodesBeyondTheMagnitudeLimitAreRefused) {
  const auto message = [](const std::string& text) {
    return test::error_message([&] { RegisteredProblem<lie::Rn<3>> p(parse(text)); });
  };
  EXPECT_NO_THROW(
      RegisteredProblem<lie::Rn<3>>(parse(edited("[1.0, 2.0, 3.0]", "[1.9e10, 0.0, 0.0]"))));
  EXPECT_NE(message(edited("[1.0, 2.0, 3.0]", "[2.1e10, 0.0, 0.0]"))
                .find("[initial] row 0, node a = 0 is at |r| = 2.1e+10 m from the origin, beyond "
                      "the limit 1e11 min(ds, c_E dt) = 2e+10 m"),
            std::string::npos);
  EXPECT_NE(message(edited("xi = [0.0, 0.5, 0.0]", "xi = [0.0, 3e11, 0.0]"))
                .find("[initial] row 1 (row 0 moved by dt xi), node a = 0 is at |r| = 3e+10 m"),
            std::string::npos);
}

TEST(RegisteredCase, BadInputNamesFileLineKeyAndValue) {
  const auto message = [](const std::string& text) {
    return test::error_message([&] { parse(text); });
  };
  const struct {
    std::string from, to, expected;
  } cases[] = {
      {"rho = 0.25", "rho = -0.25", "case.toml:7: [string] rho = -0.25: must be > 0"},
      {"rho = 0.25\n", "", "case.toml:6: missing key [string] rho: required"},
      {"k = 1.0", "k = 1.0\nkk = 2", "case.toml:9: unknown key [string] kk (allowed here: k, "},
      {"[0.6, 0.0, 0.8]", "[0.6, 0.8]",
       "[string] reference_strain = [0.6, 0.8]: expected an "
       "array of 3 numbers"},
      {"theory = \"string\"", "theory = \"strung\"",
       "case.toml:4: theory = \"strung\": expected "
       "one of \"beam\", \"planar_beam\", \"cable\", "
       "\"string\""},
      {"theory = \"string\"", "theory = \"string\"\nretraction = \"exp\"",
       "retraction = \"exp\": the theory runs on R^3, which has one retraction"},
      {"[grid]", "[damping]\nmass = 1.0\n\n[grid]",
       "[damping] is not supported for theory = "
       "\"string\""},
      {"left = \"clamped\"", "left = { prescribed = \"path.csv\" }",
       "case.toml:18: [boundary] left = {...}: a prescribed end is not supported for theory = "
       "\"string\""},
      {"xi = [0.0, 0.5, 0.0]\n", "",
       "missing key [initial] xi: required with velocity = "
       "\"uniform\""},
      {"xi = [0.0, 0.5, 0.0]", "xi = [0.0, 0.5]",
       "[initial] xi = [0.0, 0.5]: expected an array "
       "of 3 numbers"},
      {"[initial]", "[initial]\naxis = [1.0, 0.0, 0.0]", "unknown key [initial] axis"},
      {"[loads]", "[output]\nrates = true\n\n[loads]",
       "[output] rates = true: field_rates.csv "
       "is written for beams"},
      {"[loads]", "[output]\ncheckpoint = true\n\n[loads]", "[output] checkpoint = true"},
      {"gravity = [0.0, 0.0, -9.81]",
       "gravity = [0.0, 0.0, -9.81]\n[[loads.point]]\nnode = 1\n"
       "wrench = [0, 0, 0, 1, 0, 0]",
       "[loads] point = "},
  };
  for (const auto& k : cases) {
    const std::string got = message(edited(k.from, k.to));
    EXPECT_NE(got.find(k.expected), std::string::npos) << "got: " << got;
  }
}

// A space-march case of a registered theory (`field reconstruct`): [tip] file and time_offset;
// the beam's reconstruction extras are refused with file, line and key.
TEST(RegisteredCase, ASpaceCaseTakesTheTipFileOnly) {
  const std::string space = R"(format = 1
march = "space"
theory = "string"

[string]
rho = 0.25
k = 1.0

[grid]
A = 4
ds = 0.5
J = 10
dt = 0.25

[tip]
file = "tip.csv"
time_offset = 0.5
)";
  const CaseSpec c = parse(space);
  EXPECT_EQ(c.march, MarchKind::space);
  EXPECT_EQ(c.tip, "/cases/string/tip.csv");
  std::ostringstream out;
  write_case(out, c);
  EXPECT_EQ(out.str().find("noise_position"), std::string::npos) << "the beam's prediction";
  const CaseSpec back = parse(out.str());
  EXPECT_EQ(back.tip, c.tip);
  EXPECT_EQ(back.tip_data.time_offset, 0.5);
  const auto refused = [&](const std::string& add, const std::string& says) {
    const std::string got = test::error_message([&] { parse(space + add); });
    EXPECT_NE(got.find(says), std::string::npos) << "got: " << got;
  };
  refused("noise_position = 1e-3\n",
          "[tip] noise_position = 0.001: the prediction of the error "
          "growth (theory §6.3) is the beam's");
  refused("strain_at = \"tip_point\"\n", "[tip] strain_at = \"tip_point\"");
  refused("\n[reconstruct]\nmethod = \"driven\"\n",
          "[reconstruct] method = \"driven\": a method other than \"space\" is not supported");
  refused("\n[boundary]\nfirst = { prescribed = \"row.csv\" }\n",
          "[boundary] first = {...}: a prescribed row is not supported for theory = \"string\"");
}

// A theory registered at run time on SE(3) whose factory makes the beam's density from a few
// parameters: read, built and marched by the generic path, it equals the beam case with the
// same law and row 0 bit for bit (the same density behind another name, so the same kernel).
std::unique_ptr<const model::Density<lie::Se3Group>> make_rod(Parameters& p, const Vec3& gravity) {
  model::BeamSection section;
  section.area = p.positive("area", std::nullopt, "cross-section area [m^2]");
  section.I1 = section.I2 = p.positive("I", std::nullopt, "second moment of area [m^4]");
  section.torsion = 2 * section.I1;
  section.shear_k = 5.0 / 6.0;
  model::BeamMaterial material;
  material.E = p.positive("E", std::nullopt, "Young's modulus [Pa]");
  material.nu = 0.3;
  material.rho = p.positive("rho", std::nullopt, "density [kg/m^3]");
  return std::make_unique<model::BeamDensity>(model::SectionLaw::geometric(section, material),
                                              gravity);
}

TEST(RegisteredCase, ADensityOnSe3MarchesAsTheBeamCaseOfTheSameLaw) {
  if (!model::find_theory<lie::Se3Group>("test_rod"))
    model::register_theory<lie::Se3Group>({"test_rod", "the beam by another name", make_rod});
  const std::string common = R"(
[grid]
A = 6
ds = 0.125
J = 12
dt = 2e-5

[boundary]
left = "clamped"
right = "free"

[loads]
gravity = [0.0, -9.81, 0.0]
)";
  const CaseSpec rod = parse_case(R"(format = 1
march = "time"
theory = "test_rod"
retraction = "cayley"

[test_rod]
area = 1e-2
I = 1e-5
E = 2e9
rho = 1000.0
)" + common + R"(
[initial]
origin = [0.0, 0.0, 1.0]
velocity = "uniform"
xi = [0.2, 0.0, 0.1, 0.0, 0.05, 0.0]
)",
                                  "/cases/rod/case.toml");
  const CaseSpec beam = parse_case(R"(format = 1
march = "time"

[beam]
section = "explicit"
area = 1e-2
I1 = 1e-5
I2 = 1e-5
torsion = 2e-5
shear_factor = 0.8333333333333334
E = 2e9
nu = 0.3
rho = 1000.0
)" + common + R"(
[initial]
configuration = "stress_free"
origin = [0.0, 0.0, 1.0]
axis = [0.0, 0.0, 1.0]
velocity = "uniform"
xi = [0.2, 0.0, 0.1, 0.0, 0.05, 0.0]
)",
                                   "/cases/beam/case.toml");
  std::ostringstream written;
  write_case(written, rod);
  EXPECT_NE(written.str().find("retraction = \"cayley\""), std::string::npos);
  const RegisteredProblem<lie::Se3Cayley> registered(rod);
  ASSERT_TRUE(registered.stability().time_march_stable());  // theory §6.1
  const Problem problem(beam);
  const dcel::DiscreteModel<lie::Se3Cayley> model = problem.model<lie::Se3Cayley>();
  const march::TimeMarchInput input = time_march_input<lie::Se3Cayley>(problem);
  march::FieldRecorder a(registered.mesh, true), b(problem.mesh, true);
  ASSERT_TRUE(march::time_march(registered.model, registered.input, {&a}).completed);
  ASSERT_TRUE(march::time_march(model, input, {&b}).completed);
  for (int j = 0; j <= 12; ++j)
    for (int k = 0; k <= 6; ++k) {
      ASSERT_EQ(a.field()(j, k).R, b.field()(j, k).R) << j << " " << k;
      ASSERT_EQ(a.field()(j, k).r, b.field()(j, k).r) << j << " " << k;
    }
  EXPECT_GT((a.field()(12, 6).r - a.field()(0, 6).r).norm(), 1e-6);  // it moved

  // Its tip.csv (io/group_tip.hpp: t, x..qz, xi1..6, eta1..6) read back as the space march of a
  // registered theory on SE(3) reads it (io::read_group_tip): the tip poses and strains of the
  // march, and column 1 rebuilt as g_j^0 tau(ds eta_j^0).
  const test::TempFolder dir;
  {
    GroupTipCsvWriter<lie::Se3Cayley> tip(dir / "tip.csv", registered.mesh);
    for (int j = 0; j <= 12; ++j) {
      std::vector<lie::SE3> row;
      for (int k = 0; k <= 6; ++k) row.push_back(a.field()(j, k));
      tip.slab(j, row, {});
    }
    tip.finish();
  }
  const GroupTipOnGrid<lie::Se3Cayley> data =
      read_group_tip<lie::Se3Cayley>(dir / "tip.csv", 2e-5, 12);
  ASSERT_EQ(data.g0.size(), 13u);
  ASSERT_EQ(data.eta0.size(), 12u);
  for (int j = 0; j < 12; ++j) {
    EXPECT_EQ(data.g0[j].r, a.field()(j, 0).r);
    EXPECT_LT((data.g0[j].R - a.field()(j, 0).R).norm(), 1e-15);
    EXPECT_EQ(data.eta0[j],
              mesh::convected<lie::Se3Cayley>(a.field()(j, 0), a.field()(j, 1), 0.125));
    const lie::SE3 column1 = data.g0[j] * lie::Se3Cayley::tau(0.125 * data.eta0[j]);
    EXPECT_LT((column1.matrix() - a.field()(j, 1).matrix()).norm(), 1e-14) << j;
  }
}

}  // namespace
}  // namespace field::io
