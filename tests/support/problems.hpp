#pragma once
// Problems shared by the dcel, noether and march tests: the theory's soft beam, a set of loads that
// exercises every load kind, a beam with a law per segment, and random fields with large
// rotations and strains far from E6.
#include <vector>

#include "libfield/lie/se3_groups.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/model/beam_density.hpp"
#include "libfield/model/loads.hpp"
#include "tests/support/random.hpp"

namespace field::test {

/// Soft beam of theory §11: b = 0.1 m, E = 1e5 Pa, nu = 0.35, rho = 1000 kg/m^3, k = 1.
inline model::BeamDensity soft_beam(const Vec3& gravity = Vec3::Zero()) {
  return model::BeamDensity(model::BeamSection::square(0.1), model::BeamMaterial{1e5, 0.35, 1000.0},
                            gravity);
}

/// The soft beam's law made truly coupled: J and C = D^1/2 (I + K) D^1/2 with D the soft beam's
/// diagonal and K symmetric with off-diagonal entries of +-0.12 (diagonally dominant, so SPD):
/// every channel (bending, torsion, shear, extension) couples to every other.
inline model::SectionLaw coupled_law() {
  const model::SectionLaw soft = model::SectionLaw::geometric(
      model::BeamSection::square(0.1), model::BeamMaterial{1e5, 0.35, 1000.0});
  const auto couple = [](const Mat6& diagonal, double sign) {
    Mat6 K = Mat6::Identity();
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j)
        if (i != j) K(i, j) = sign * ((i + j) % 2 ? 0.12 : -0.12);
    const Vec6 root = diagonal.diagonal().cwiseSqrt();
    return Mat6(root.asDiagonal() * K * root.asDiagonal());
  };
  return model::SectionLaw::matrices(couple(soft.C, 1.0), couple(soft.J, -1.0));
}

inline model::BeamDensity coupled_beam(const Vec3& gravity = Vec3::Zero()) {
  return model::BeamDensity(coupled_law(), gravity);
}

/// A beam with a law and a stress-free strain per segment (theory §1.6), A segments: the soft
/// beam's law, the coupled law on segment 2, C scaled by 1 - 0.1 a on segment a; gravity
/// (0.3, -1, -9.81); eta0 = E6 plus up to 0.3 per component from rnd. `segments` points into
/// `beams` (DiscreteModel's per-segment densities), so the struct is not copied.
struct CoupledSegments {
  std::vector<model::BeamDensity> beams;
  std::vector<const model::Density<lie::Se3Group>*> segments;
  CoupledSegments(int A, Random& rnd) {
    beams.reserve(A);
    for (int a = 0; a < A; ++a) {
      model::SectionLaw law = a == 2 ? coupled_law() : soft_beam().law();
      law.C *= 1.0 - 0.1 * a;
      beams.emplace_back(law, Vec3(0.3, -1.0, -9.81), model::BeamDensity::E6() + rnd.vec6(0.3));
    }
    for (const model::BeamDensity& b : beams) segments.push_back(&b);
  }
  CoupledSegments(const CoupledSegments&) = delete;
  CoupledSegments& operator=(const CoupledSegments&) = delete;
};

/// Distributed loads (world, time-dependent; body, constant, on a node range) and point loads
/// (world at a = 0, body at a = A - 1, world at the ghost a = A), on a mesh with A >= 3.
inline model::Loads mixed_loads(int A) {
  model::Loads loads;
  Vec6 w0, w1, w2;
  w0 << 0.1, -0.2, 0.05, 0.3, -0.1, 0.2;
  w1 << -0.3, 0.1, 0.2, 0.1, 0.4, -0.2;
  w2 << 0.02, 0.01, -0.03, -0.2, 0.1, 0.05;
  loads.distributed.push_back(
      {model::LoadFrame::world, model::TimeTable({0.0, 0.01, 0.03}, {w0, w1, w2}), 0, -1});
  loads.distributed.push_back({model::LoadFrame::body, model::TimeTable::constant(w1), 1, A - 2});
  loads.point.push_back({0, model::LoadFrame::world, model::TimeTable({0.0, 0.02}, {w2, w0})});
  loads.point.push_back({A - 1, model::LoadFrame::body, model::TimeTable::constant(w0)});
  loads.point.push_back({A, model::LoadFrame::world, model::TimeTable::constant(w1)});
  return loads;
}

/// Random field: every node an independent element with rotation angle up to ~1 rad from a common
/// base, so neighbours differ by large rotations and the strains are far from E6.
template <class G>
mesh::Field random_field(const mesh::SpacetimeMesh& m, Random& rnd) {
  mesh::Field field(m);
  const lie::SE3 base = rnd.se3(2.0);
  for (int j = 0; j <= m.J(); ++j)
    for (int a = 0; a <= m.A(); ++a) {
      Vec6 x = rnd.vec6(0.5);
      x(5) += a * m.ds();  // roughly along d3, like a beam
      field(j, a) = base * G::tau(x);
    }
  return field;
}

}  // namespace field::test
