#pragma once
/// The linear string on R^3 (theory §1.9): a field r(t, s) in R^3 with
///   l(r, r_t, r_s) = 1/2 rho |r_t|^2 - 1/2 k |r_s - e0|^2 + rho g.r,                 (1.9.1)
/// rho the mass per length [kg/m], k the stiffness [N], e0 the reference strain (the stress
/// k (r_s - e0) vanishes at r_s = e0) and g the gravity [m/s^2]. Its Euler-Lagrange equation is the
/// wave equation rho r_tt = k r_ss + rho g in every direction, with one wave speed c = sqrt(k/rho)
/// (1.9.2). It is the demonstration of a registered theory (model/theory_registry.hpp): the
/// density and its factory are all it has; reading, marching, writing and checking are generic.
#include "libfield/lie/rn.hpp"
#include "libfield/model/density.hpp"
#include "libfield/model/theory_registry.hpp"

namespace field::model {

class StringDensity final : public Density<lie::Rn<3>> {
 public:
  /// rho > 0, k > 0 (throws field::Error otherwise).
  StringDensity(double rho, double k, const Vec3& reference_strain, const Vec3& gravity);

  double kinetic_energy(const Vec3& xi) const override { return 0.5 * rho_ * xi.squaredNorm(); }
  Vec3 kinetic_momentum(const Vec3& xi) const override { return rho_ * xi; }
  Mat3 kinetic_hessian(const Vec3&) const override { return rho_ * Mat3::Identity(); }
  double strain_energy(const Vec3& eta) const override {
    return 0.5 * k_ * (eta - e0_).squaredNorm();
  }
  Vec3 stress(const Vec3& eta) const override { return k_ * (eta - e0_); }
  Mat3 stress_hessian(const Vec3&) const override { return k_ * Mat3::Identity(); }
  Vec3 reference_strain() const override { return e0_; }
  double potential(const Vec3& r) const override { return -rho_ * gravity_.dot(r); }
  Vec3 potential_force(const Vec3&) const override { return rho_ * gravity_; }
  bool has_potential() const override { return !gravity_.isZero(0.0); }
  /// (1.9.2): c = sqrt(k/rho) for every wave; no cut-off.
  WaveSpeeds wave_speeds() const override;
  const char* output_name() const override { return "string"; }

 private:
  double rho_, k_;
  Vec3 e0_, gravity_;
};

/// The registry's entry (theory = "string", table [string]: rho, k, reference_strain).
TheoryEntry<lie::Rn<3>> string_theory();

}  // namespace field::model
