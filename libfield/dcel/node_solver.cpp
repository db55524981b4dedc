#include "libfield/dcel/node_solver.hpp"

#include <Eigen/LU>
#include <cmath>

#include "libfield/dcel/node_newton.hpp"
#include "libfield/lie/retraction.hpp"

namespace field::dcel {

namespace {
template <class S>
Vec6 law(const model::Density<S>& d, NodeEquation e, const Vec6& y) {
  return e == NodeEquation::time ? d.kinetic_momentum(y) : d.stress(y);
}
template <class S>
Mat6 law_derivative(const model::Density<S>& d, NodeEquation e, const Vec6& y) {
  return e == NodeEquation::time ? d.kinetic_hessian(y) : d.stress_hessian(y);
}
}  // namespace

template <class G>
Vec6 node_phi(const model::Density<typename G::Space>& density, NodeEquation equation, double h,
              const Vec6& y) {
  return G::dtau_inv_dual(h * y, law(density, equation, y));
}

template <class G>
Mat6 node_jacobian(const model::Density<typename G::Space>& density, NodeEquation equation,
                   double h, const Vec6& y) {
  const Vec6 x = h * y;
  return G::dtau_inv(x).transpose() * law_derivative(density, equation, y) +
         h * G::newton_M(x, law(density, equation, y));
}

// dcel::newton_solve (dcel/node_newton.hpp) on the assembled Jacobian and a pivoted 6x6 LU: no
// chord steps (freeze_step = 0) and no round-off floor, only the step criterion of theory §5.
template <class G>
struct ReferenceIteration {
  using Point = Vec6;
  using Factor = Eigen::PartialPivLU<Mat6>;
  const model::Density<typename G::Space>& density;
  NodeEquation equation;
  double h;
  Point point(const Vec6& y) const { return y; }
  Vec6 phi(const Point& y) const { return node_phi<G>(density, equation, h, y); }
  void factor(Factor& f, const Point& y) const {
    f.compute(node_jacobian<G>(density, equation, h, y));
  }
  Vec6 step(const Factor& f, const Vec6& r) const { return f.solve(r); }
  bool at_floor(const Vec6&, const Point&, const Vec6&, const Vec6&) const { return false; }
};

template <class G>
NodeSolveReport solve_node(const model::Density<typename G::Space>& density, NodeEquation equation,
                           double h, const Vec6& m, Vec6& y, const NodeSolverOptions& options) {
  return newton_solve(ReferenceIteration<G>{density, equation, h}, m, y, options, 0.0);
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template Vec6 node_phi<G>(const model::Density<G::Space>&, NodeEquation, double, const Vec6&); \
  template Mat6 node_jacobian<G>(const model::Density<G::Space>&, NodeEquation, double,          \
                                 const Vec6&);                                                   \
  template NodeSolveReport solve_node<G>(const model::Density<G::Space>&, NodeEquation, double,  \
                                         const Vec6&, Vec6&, const NodeSolverOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel
