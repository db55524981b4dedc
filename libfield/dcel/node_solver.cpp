#include "libfield/dcel/node_solver.hpp"

#include <Eigen/LU>
#include <cmath>

#include "libfield/dcel/node_newton.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/lie/se2.hpp"

namespace field::dcel {

namespace {
template <class S>
typename S::Algebra law(const model::Density<S>& d, NodeEquation e, const typename S::Algebra& y) {
  return e == NodeEquation::time ? d.kinetic_momentum(y) : d.stress(y);
}
template <class S>
typename S::Matrix law_derivative(const model::Density<S>& d, NodeEquation e,
                                  const typename S::Algebra& y) {
  return e == NodeEquation::time ? d.kinetic_hessian(y) : d.stress_hessian(y);
}
}  // namespace

template <class G>
typename G::Algebra node_phi(const model::Density<typename G::Space>& density,
                             NodeEquation equation, double h, const typename G::Algebra& y) {
  return G::dtau_inv_dual(h * y, law(density, equation, y));
}

template <class G>
typename G::Matrix node_jacobian(const model::Density<typename G::Space>& density,
                                 NodeEquation equation, double h, const typename G::Algebra& y) {
  const typename G::Algebra x = h * y;
  return G::dtau_inv(x).transpose() * law_derivative(density, equation, y) +
         h * G::newton_M(x, law(density, equation, y));
}

// dcel::newton_solve (dcel/node_newton.hpp) on the assembled Jacobian and a pivoted 6x6 LU: no
// chord steps (freeze_step = 0) and no round-off floor, only the step criterion of theory §5.
template <class G>
struct ReferenceIteration {
  using V = typename G::Algebra;
  using Point = V;
  using Factor = Eigen::PartialPivLU<typename G::Matrix>;
  const model::Density<typename G::Space>& density;
  NodeEquation equation;
  double h;
  Point point(const V& y) const { return y; }
  V phi(const Point& y) const { return node_phi<G>(density, equation, h, y); }
  void factor(Factor& f, const Point& y) const {
    f.compute(node_jacobian<G>(density, equation, h, y));
  }
  V step(const Factor& f, const V& r) const { return f.solve(r); }
  bool at_floor(const V&, const Point&, const V&, const V&) const { return false; }
};

template <class G>
NodeSolveReport solve_node(const model::Density<typename G::Space>& density, NodeEquation equation,
                           double h, const typename G::Algebra& m, typename G::Algebra& y,
                           const NodeSolverOptions& options) {
  return newton_solve(ReferenceIteration<G>{density, equation, h}, m, y, options, 0.0);
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template Vec6 node_phi<G>(const model::Density<G::Space>&, NodeEquation, double, const Vec6&); \
  template Mat6 node_jacobian<G>(const model::Density<G::Space>&, NodeEquation, double,          \
                                 const Vec6&);                                                   \
  template NodeSolveReport solve_node<G>(const model::Density<G::Space>&, NodeEquation, double,  \
                                         const Vec6&, Vec6&, const NodeSolverOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
// The planar beam's group (docs/theory.md §1.7).
template Vec3 node_phi<lie::Se2Cayley>(const model::Density<lie::Se2Cayley>&, NodeEquation, double,
                                       const Vec3&);
template Mat3 node_jacobian<lie::Se2Cayley>(const model::Density<lie::Se2Cayley>&, NodeEquation,
                                            double, const Vec3&);
template NodeSolveReport solve_node<lie::Se2Cayley>(const model::Density<lie::Se2Cayley>&,
                                                    NodeEquation, double, const Vec3&, Vec3&,
                                                    const NodeSolverOptions&);
#undef FIELD_INSTANTIATE

// The cable's group R^3 (docs/theory.md §1.8).
template Vec3 node_phi<lie::Rn<3>>(const model::Density<lie::Rn<3>>&, NodeEquation, double,
                                   const Vec3&);
template Mat3 node_jacobian<lie::Rn<3>>(const model::Density<lie::Rn<3>>&, NodeEquation, double,
                                        const Vec3&);
template NodeSolveReport solve_node<lie::Rn<3>>(const model::Density<lie::Rn<3>>&, NodeEquation,
                                                double, const Vec3&, Vec3&,
                                                const NodeSolverOptions&);

}  // namespace field::dcel
