#pragma once
/// The extensible cable (a geometrically exact string) on R^3, docs/theory.md §1.8:
///   l(r, xi, eta) = 1/2 rho A |xi|^2 - W(|eta|) + rho A gvec . r,
/// with xi = r_t and eta = r_s (on the additive group, theory (1.8.1)), the stretch nu = |eta|,
/// the tension N = W'(nu) and the linear-elastic law W(nu) = 1/2 EA (nu - 1)^2 (1.8.2); with
/// `slack`, W = 0 for nu < 1 (a cable that cannot carry compression, (1.8.3)). The stress is
/// n = N eta/nu (1.8.4), its Hessian EA t t^T + (N/nu)(I - t t^T) (1.8.5). A model::Density on
/// lie::Rn<3>; not a diagonal quadratic law (its nodes run the reference Newton of §5).
#include "libfield/core/types.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/model/density.hpp"

namespace field::model {

/// The cable's section: axial stiffness and mass per length.
struct CableSection {
  double EA = 0.0;    ///< axial stiffness [N]
  double rhoA = 0.0;  ///< mass per unstretched length [kg/m]
};

class CableDensity final : public Density<lie::Rn<3>> {
 public:
  struct Options {
    Vec3 gravity = Vec3::Zero();  ///< gvec [m/s^2]: Pi = -rho A gvec . r
    bool slack = false;           ///< W = 0 for nu < 1: no compression (1.8.3)
    /// Unit direction d0 of reference_strain() = d0: the free-end ghost segment (§1.8, (1.8.7)).
    Vec3 free_end_direction = Vec3::UnitZ();
    /// Tension N_ref [N] at which the transverse wave speed c_G is quoted (wave_speeds(), (1.8.6));
    /// 0: c_G = 0 (a slack cable carries no transverse wave).
    double reference_tension = 0.0;
  };

  /// Throws field::Error for a non-positive or non-finite EA or rho A, a non-finite gravity, a
  /// direction that is not a unit vector or a negative reference tension.
  explicit CableDensity(const CableSection& section, const Options& options);
  explicit CableDensity(const CableSection& section) : CableDensity(section, Options{}) {}

  const CableSection& section() const { return section_; }
  const Options& options() const { return options_; }

  /// N = W'(nu): EA (nu - 1), or EA max(nu - 1, 0) when slack (1.8.2), (1.8.3).
  double tension(double stretch) const;

  double kinetic_energy(const Vec3& xi) const override {
    return 0.5 * section_.rhoA * xi.squaredNorm();
  }
  Vec3 kinetic_momentum(const Vec3& xi) const override { return section_.rhoA * xi; }
  Mat3 kinetic_hessian(const Vec3&) const override { return section_.rhoA * Mat3::Identity(); }
  /// W(|eta|) (1.8.2).
  double strain_energy(const Vec3& eta) const override;
  /// n = N eta/|eta| (1.8.4); 0 at eta = 0, where the direction is undefined.
  Vec3 stress(const Vec3& eta) const override;
  /// EA t t^T + (N/nu)(I - t t^T) (1.8.5); 0 on the slack branch nu < 1; EA I at eta = 0.
  Mat3 stress_hessian(const Vec3& eta) const override;
  /// d0 (unit, |d0| = 1: zero tension). Any unit vector has zero stress: the free-end ghost
  /// condition fixes the length of the last segment, not its direction (1.8.7).
  Vec3 reference_strain() const override { return options_.free_end_direction; }
  double potential(const Vec3& r) const override {
    return -section_.rhoA * options_.gravity.dot(r);
  }
  /// f = rho A gvec, the weight per unstretched length (Ad* = I on R^3).
  Vec3 potential_force(const Vec3&) const override { return section_.rhoA * options_.gravity; }
  bool has_potential() const override { return !options_.gravity.isZero(0.0); }
  /// c_E = sqrt(EA / rho A) (longitudinal), c_G = sqrt(N_ref / (rho A nu_ref)) with
  /// nu_ref = 1 + N_ref/EA (transverse at the reference tension), omega_c = 0 (no cut-off):
  /// (1.8.6).
  WaveSpeeds wave_speeds() const override;
  /// The space march takes the taut branch (theory §1.8, §6.2): a strain is on it when its
  /// stretch |eta| > 1 and it turns by less than a right angle from `before` (eta . before > 0).
  bool restricts_space_strain() const override { return true; }
  std::string space_strain_problem(const Vec3& eta, const Vec3& before) const override;
  /// The frames show the stretch nu = |eta| and the tension N = W'(nu) of a segment (1.8.2).
  const char* output_name() const override { return "cable"; }
  std::vector<OutputQuantity> segment_quantities() const override {
    return {{"stretch", 1}, {"tension", 1}};
  }
  void segment_values(const Vec3& eta, double* out) const override {
    out[0] = eta.norm();
    out[1] = tension(out[0]);
  }

 private:
  CableSection section_;
  Options options_;
};

}  // namespace field::model
