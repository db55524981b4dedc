#pragma once
/// A covariant Lagrangian density on fields with values in the group S (theory §1, §3.1) of the
/// separated form
///   l(g, xi, eta) = T(xi) - V(eta) - Pi(g),
/// left-trivialised. S is the group without its retraction (G::Space of lie/lie_group.hpp, e.g.
/// lie::Se3Group for both SE(3) retractions): a density does not depend on the retraction. The
/// algebra vectors and matrices are S's (dimension S::dim). A field theory is one implementation
/// (model::BeamDensity on SE(3)); dcel/, march/ and noether/ use only this interface, and ask
/// for a fast path through its capabilities (diagonal_law()), never by casting to a concrete
/// density (docs/lie-groups.md, "Adding a theory").
#include <string>
#include <vector>

#include "libfield/core/output_quantity.hpp"
#include "libfield/model/wave_speeds.hpp"

namespace field::model {

/// The capability "a diagonal quadratic law" of theory §1 (the beam with a diagonal section law):
///   T(xi) = 1/2 xi.diag(K_t) xi,   V(eta) = 1/2 (eta - eta0).diag(K_s) (eta - eta0),
/// so p = K_t xi and n = K_s (eta - eta0) element-wise. It enables the closed-form node solvers of
/// theory §5 (dcel::make_diagonal_node) and, on SE(3), the SIMD lane kernels
/// (march/slab_lanes, noether/slab_terms_lanes), which also take the potential to be a uniform
/// weight, Pi(g) = -w.r with (0, w) = potential_force(e) (the beam's gravity, theory (1.10)).
template <class S>
struct DiagonalQuadraticLaw {
  using Algebra = typename S::Algebra;
  Algebra inertia;           ///< diagonal K_t of d^2T/dxi^2 (the beam's J)
  Algebra stiffness;         ///< diagonal K_s of d^2V/deta^2 (the beam's C)
  Algebra reference_strain;  ///< eta0, where the stress vanishes (the beam's E6)
};

template <class S>
class Density {
 public:
  using Element = typename S::Element;
  using Algebra = typename S::Algebra;  ///< algebra vectors and covectors, S::dim entries
  using Matrix = typename S::Matrix;

  virtual ~Density() = default;

  /// Kinetic energy density T(xi) [J/m].
  virtual double kinetic_energy(const Algebra& xi) const = 0;
  /// dT/dxi, the body momentum density.
  virtual Algebra kinetic_momentum(const Algebra& xi) const = 0;
  /// d^2T/dxi^2.
  virtual Matrix kinetic_hessian(const Algebra& xi) const = 0;

  /// Strain energy density V(eta) [J/m].
  virtual double strain_energy(const Algebra& eta) const = 0;
  /// dV/deta, the body stress resultants = -dl/deta.
  virtual Algebra stress(const Algebra& eta) const = 0;
  /// d^2V/deta^2.
  virtual Matrix stress_hessian(const Algebra& eta) const = 0;

  /// The strain at which the stress vanishes (E6 for the beam): the free-end ghost condition
  /// eta_j^{A-1} = reference strain of theory §4.
  virtual Algebra reference_strain() const = 0;

  /// Potential energy density Pi(g) [J/m].
  virtual double potential(const Element& g) const = 0;
  /// Left-trivialised potential force f(g) = -T_e L_g^* dPi (body covector per length).
  virtual Algebra potential_force(const Element& g) const = 0;
  /// False when Pi vanishes identically (then f = 0 and the marches skip the force terms).
  virtual bool has_potential() const = 0;

  /// The wave speeds and cut-off of the linearised theory, for the step-size rules of theory §6.
  virtual WaveSpeeds wave_speeds() const = 0;

  /// The diagonal quadratic law when the density is one (with the bits of kinetic_momentum and
  /// stress), else null: the capability that enables the closed-form and lane kernels.
  virtual const DiagonalQuadraticLaw<S>* diagonal_law() const { return nullptr; }

  /// The branch of the space march (theory §6.2, "The branch of the node problem"): the march
  /// solves n(eta) = m for the strain of every node, and where that equation has more than one
  /// root the density restricts the strains the march may take (the cable: its taut branch,
  /// theory §1.8). restricts_space_strain() says whether it does (false by default: the beam's
  /// law is positive definite, one root near eta0); space_strain_problem(eta, before) is empty
  /// when the strain eta, following `before` (the strain of the same row one column before;
  /// eta itself for the data), is on the branch, else a sentence saying why not.
  virtual bool restricts_space_strain() const { return false; }
  virtual std::string space_strain_problem(const Algebra& /*eta*/,
                                           const Algebra& /*before*/) const {
    return {};
  }

  /// What the outputs show of this theory (io/frames.hpp, docs/output-format.md "Frames"): the
  /// name of its frame files (frames/NAME_NNNNNN.vtp, NAME.pvd) and the quantities of a segment
  /// (cell data) from its strain eta (with the stress n = dV/deta of the segment's density), by
  /// default "strain" and "stress" with S::dim components each; segment_values writes them in
  /// that order.
  virtual const char* output_name() const { return "field"; }
  virtual std::vector<OutputQuantity> segment_quantities() const {
    return {{"strain", S::dim}, {"stress", S::dim}};
  }
  virtual void segment_values(const Algebra& eta, double* out) const {
    const Algebra n = stress(eta);
    for (int i = 0; i < S::dim; ++i) out[i] = eta(i);
    for (int i = 0; i < S::dim; ++i) out[S::dim + i] = n(i);
  }

  /// l(g, xi, eta) = T - V - Pi.
  double lagrangian(const Element& g, const Algebra& xi, const Algebra& eta) const {
    return kinetic_energy(xi) - strain_energy(eta) - potential(g);
  }
};

}  // namespace field::model
