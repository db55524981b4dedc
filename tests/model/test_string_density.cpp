// The linear string of theory §1.9 (model::StringDensity) and the registry of theories
// (model/theory_registry.hpp, core/parameter_values.hpp): the density's derivatives against
// finite differences, its wave speed, its factory's checks, the replay of the parameters read
// and the registry's rules for names.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/core/parameter_values.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/model/beam_density.hpp"
#include "libfield/model/string_density.hpp"
#include "libfield/model/theory_registry.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/random.hpp"

namespace field::model {
namespace {

using R3 = lie::Rn<3>;

// T, V and Pi of (1.9.1) against their derivatives (central differences, h = 1e-6).
TEST(StringDensity, DerivativesMatchFiniteDifferences) {
  const StringDensity d(0.7, 3.0, Vec3(0.2, -0.5, 1.1), Vec3(0.3, -1.2, -9.81));
  test::Random rnd(1901);
  const double h = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 xi = rnd.vec3(3.0), eta = rnd.vec3(2.0), r = rnd.vec3(5.0);
    const auto [dT, dV, f, dp, dn] = test::density_differences(d, xi, eta, r, h);
    EXPECT_LT((d.kinetic_momentum(xi) - dT).norm(), 1e-8 * (1 + dT.norm()));
    EXPECT_LT((d.stress(eta) - dV).norm(), 1e-8 * (1 + dV.norm()));
    EXPECT_LT((d.potential_force(r) - f).norm(), 1e-8 * (1 + f.norm()));
    EXPECT_LT((d.kinetic_hessian(xi) - dp).norm(), 1e-7);
    EXPECT_LT((d.stress_hessian(eta) - dn).norm(), 1e-7);
  }
  EXPECT_EQ(d.stress(d.reference_strain()), Vec3::Zero());
  EXPECT_DOUBLE_EQ(d.wave_speeds().c_E, std::sqrt(3.0 / 0.7));  // (1.9.2)
  EXPECT_DOUBLE_EQ(d.wave_speeds().c_G, std::sqrt(3.0 / 0.7));
  EXPECT_TRUE(d.has_potential());
  EXPECT_FALSE(StringDensity(1, 1, Vec3::UnitZ(), Vec3::Zero()).has_potential());
  EXPECT_STREQ(d.output_name(), "string");
  EXPECT_THROW(StringDensity(0.0, 1.0, Vec3::UnitZ(), Vec3::Zero()), Error);
  EXPECT_THROW(StringDensity(1.0, -1.0, Vec3::UnitZ(), Vec3::Zero()), Error);
}

// The factory reads rho, k and reference_strain (default e3); the values it read, replayed,
// make the same density; a missing or non-positive value is refused naming the key.
TEST(StringDensity, TheFactoryReadsAndReplaysItsParameters) {
  const TheoryEntry<R3>* theory = find_theory<R3>("string");
  ASSERT_NE(theory, nullptr);
  EXPECT_NE(theory->summary.find("theory §1.9"), std::string::npos);
  ParameterValues given;
  given.record({"rho", ParameterValues::Entry::Kind::number, {2.0}, ""});
  given.record({"k", ParameterValues::Entry::Kind::number, {8.0}, ""});
  const auto density = theory->make(given, Vec3(0, 0, -1));
  EXPECT_EQ(density->reference_strain(), Vec3::UnitZ());
  EXPECT_DOUBLE_EQ(density->wave_speeds().c_E, 2.0);
  EXPECT_EQ(density->potential_force(Vec3::Zero()), Vec3(0, 0, -2.0));

  ParameterValues missing;
  missing.record({"rho", ParameterValues::Entry::Kind::number, {2.0}, ""});
  try {
    theory->make(missing, Vec3::Zero());
    ADD_FAILURE() << "k is required";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("parameter k: required"), std::string::npos) << e.what();
  }
  ParameterValues negative = given;
  negative.record({"rho", ParameterValues::Entry::Kind::number, {-1.0}, ""});
  EXPECT_THROW(theory->make(negative, Vec3::Zero()), Error);
  // A subnormal rho (1/rho = inf) marched NaN from row 0 (field simulate: exit 3).
  ParameterValues subnormal = given;
  subnormal.record({"rho", ParameterValues::Entry::Kind::number, {5e-324}, ""});
  try {
    theory->make(subnormal, Vec3::Zero());
    ADD_FAILURE() << "a subnormal rho is refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("parameter rho: must be at least 2.2250738585072014e-308"),
              std::string::npos)
        << e.what();
  }
}

// Names are [a-z0-9_], unique over every space, not a shipped theory's and not a key of the
// case file's top level; a theory registered at run time is found on its space only.
TEST(TheoryRegistry, NamesAreCheckedAndFoundOnTheirSpace) {
  EXPECT_EQ(find_theory<lie::Se3Group>("string"), nullptr);
  const auto make = [](Parameters&, const Vec3&) -> std::unique_ptr<const Density<R3>> {
    return std::make_unique<StringDensity>(1.0, 1.0, Vec3::UnitZ(), Vec3::Zero());
  };
  for (const std::string name :
       {"", "Rod", "a-b", "beam", "planar_beam", "cable", "string", "grid", "loads", "initial"})
    EXPECT_THROW(register_theory<R3>({name, "", make}), Error) << name;
  EXPECT_THROW(register_theory<R3>({"no_factory", "", nullptr}), Error);
  if (!find_theory<R3>("registry_test_string"))
    register_theory<R3>({"registry_test_string", "", make});
  EXPECT_NE(find_theory<R3>("registry_test_string"), nullptr);
  EXPECT_EQ(find_theory<lie::Se3Group>("registry_test_string"), nullptr);
  EXPECT_THROW(register_theory<lie::Se3Group>(
                   {"registry_test_string", "",
                    [](Parameters&, const Vec3&) -> std::unique_ptr<const Density<lie::Se3Group>> {
                      return nullptr;
                    }}),
               Error);
  const std::vector<std::string> names = registered_theory_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "string"), names.end());
}

}  // namespace
}  // namespace field::model
