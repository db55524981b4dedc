#pragma once
/// The planar beam of docs/theory.md §1.7 and the SE(3) beam it restricts, for the tests that
/// compare them (tests/dcel/test_planar_beam.cpp, tests/march/test_planar_march.cpp): a planar
/// section, the embedding of SE(2) into SE(3) by the rotation P of theory §1.7 ("What is
/// shared": the motions in the e3e1 plane with rotations about e2) and the SE(3) beam with the
/// planar law in the plane's directions.
#include "libfield/core/types.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/model/beam_density.hpp"
#include "libfield/model/planar_beam_density.hpp"
#include "libfield/model/section_law.hpp"

namespace field::test {

inline const model::PlanarSection kPlanarSection{2.0e3, 7.0e2, 3.0e-1, 2.7, 4.0e-3};
constexpr double kPlanarCurvature = 0.7;

// P maps the plane's e1 (the planar beam's axis d1) to e3 (the SE(3) beam's axis d3), e2 to e1
// and e3 to e2: rotations about e3 in the plane become rotations about e2.
inline Mat3 P() {
  Mat3 p;
  p << 0, 1, 0, 0, 0, 1, 1, 0, 0;
  return p;
}
inline lie::SE3 embed(const lie::SE2& g) {
  Mat3 R = Mat3::Identity();
  R.topLeftCorner<2, 2>() = g.R;
  return lie::SE3{P() * R * P().transpose(), P() * Vec3(g.r(0), g.r(1), 0.0)};
}
// Algebra vectors and covectors (omega, v1, v2) -> (P omega e3, P v).
inline Vec6 embed(const Vec3& x) {
  Vec6 y;
  y << P() * Vec3(0, 0, x(0)), P() * Vec3(x(1), x(2), 0.0);
  return y;
}

// The diagonal SE(3) law with the planar section s in the plane's directions (EI2, GA1, EA;
// rho J2, rho A) and other values in the others (they do not enter a planar motion).
inline model::SectionLaw embedded_law(const model::PlanarSection& s = kPlanarSection) {
  Vec6 J, C;
  J << 1.1e-3, s.rhoI, 2.3e-3, s.rhoA, s.rhoA, s.rhoA;
  C << 0.9, s.EI, 0.4, s.GA, 9.0e2, s.EA;
  model::SectionLaw law = model::SectionLaw::matrices(C.asDiagonal(), J.asDiagonal());
  law.mass_per_length = s.rhoA;
  return law;
}

// The SE(3) beam of embedded_law(s) under the planar gravity g, curved by kPlanarCurvature, in
// the plane of embed().
inline model::BeamDensity embedded_beam(const lie::Vec2& g,
                                        const model::PlanarSection& s = kPlanarSection) {
  return model::BeamDensity(embedded_law(s), P() * Vec3(g(0), g(1), 0.0),
                            embed(Vec3(kPlanarCurvature, 1.0, 0.0)));
}

// The initial data of a planar march and the same data embedded in SE(3).
struct Planar {
  march::BasicTimeMarchInput<lie::Se2Cayley> input;
  march::TimeMarchInput embedded;
};

// A stress-free arc (curvature kPlanarCurvature) with velocities that bend, stretch and turn it;
// the left end clamped when `clamped`.
inline Planar planar_data(const mesh::SpacetimeMesh& mesh, bool clamped) {
  Planar d;
  const int A = mesh.A();
  for (int a = 0; a <= A; ++a) {
    const lie::SE2 g = lie::Se2Cayley::tau(a * mesh.ds() * Vec3(kPlanarCurvature, 1.0, 0.0));
    const double s = a * mesh.ds();
    const Vec3 xi = clamped && a == 0 ? Vec3::Zero() : Vec3(0.8 + s, -0.3 * s, 1.1 * s - 0.4);
    d.input.row0.push_back(g);
    d.input.velocities.push_back(xi);
    d.embedded.row0.push_back(embed(g));
    d.embedded.velocities.push_back(embed(xi));
  }
  if (clamped) {
    d.input.left = march::BasicSideSpec<lie::SE2>::clamped(d.input.row0[0]);
    d.embedded.left = march::SideSpec::clamped(d.embedded.row0[0]);
  }
  return d;
}

}  // namespace field::test
