#pragma once
/// SE(3) with the Cayley retraction and with the exponential as instances of the interface of
/// lie/lie_group.hpp: thin wrappers over lie/se3.hpp, lie/cayley.hpp, lie/exponential.hpp
/// (docs/theory.md §1-2, docs/lie-groups.md).
#include <string>

#include "libfield/lie/cayley.hpp"
#include "libfield/lie/exponential.hpp"
#include "libfield/lie/lie_group.hpp"
#include "libfield/lie/se3.hpp"

namespace field::lie {

/// The group part shared by both retractions.
struct Se3Group {
  /// The group without its retraction: what a density is a function on (model::Density<Space>).
  using Space = Se3Group;
  static constexpr int dim = 6;
  using Element = SE3;
  using Algebra = Vec6;
  using Matrix = Mat6;
  static Element identity() { return SE3::identity(); }
  static Element compose(const Element& g, const Element& h) { return g * h; }
  static Element inverse(const Element& g) { return g.inverse(); }
  static Mat4 matrix(const Element& g) { return g.matrix(); }
  static Matrix Ad(const Element& g) { return lie::Ad(g); }
  static Algebra Ad_dual(const Element& g, const Algebra& mu) { return lie::Ad_dual(g, mu); }
};

/// SE(3), tau = cay (docs/theory.md §2, theory §2.1).
struct Se3Cayley : Se3Group {
  static std::string name() { return "SE(3), cayley"; }
  static Element tau(const Algebra& x) { return cay(x); }
  static Algebra tau_inv(const Element& g) { return cay_inv(g); }
  static Matrix dtau_inv(const Algebra& x) { return dcay_inv(x); }
  static Algebra dtau_inv_dual(const Algebra& x, const Algebra& p) { return dcay_inv_dual(x, p); }
  static Matrix newton_M(const Algebra& x, const Algebra& p) { return cay_newton_M(x, p); }
};

/// SE(3), tau = exp (docs/theory.md §2, theory §2.2).
struct Se3Exp : Se3Group {
  static std::string name() { return "SE(3), exp"; }
  static Element tau(const Algebra& x) { return exp_map(x); }
  static Algebra tau_inv(const Element& g) { return log_map(g); }
  static Matrix dtau_inv(const Algebra& x) { return dexp_inv(x); }
  static Algebra dtau_inv_dual(const Algebra& x, const Algebra& p) { return dexp_inv_dual(x, p); }
  static Matrix newton_M(const Algebra& x, const Algebra& p) { return exp_newton_M(x, p); }
};

static_assert(is_lie_group<Se3Cayley>);
static_assert(is_lie_group<Se3Exp>);

}  // namespace field::lie
