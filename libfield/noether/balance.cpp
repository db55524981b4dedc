#include "libfield/noether/balance.hpp"

#include <algorithm>

namespace field::noether {

namespace {
double norm_inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}
}  // namespace

BalanceResult BalanceSum::result(double scale_glob) const {
  BalanceResult out;
  out.residual = residual;
  out.scale_R = scale_R;
  out.relative = norm_inf(residual) / std::max({scale_R, scale_glob, 1e-300});
  return out;
}

BalanceResult noether_balance(const MomentumMaps& maps, const Rectangle& R) {
  const double dt = maps.model().dt(), ds = maps.model().ds();
  BalanceSum sum;
  for (int a = R.a1; a <= R.a2; ++a) {
    sum.add(ds * maps.M(R.j1 - 1, a));
    sum.add(-ds * maps.M(R.j2, a));
  }
  for (int j = R.j1; j <= R.j2; ++j) {
    sum.add(dt * maps.N(j, R.a1 - 1));
    sum.add(-dt * maps.N(j, R.a2));
  }
  for (int j = R.j1; j <= R.j2; ++j)
    for (int a = R.a1; a <= R.a2; ++a) {
      sum.add(dt * ds * maps.F(j, a));
      sum.add(dt * maps.W(j, a));
    }
  return sum.result(global_scale(maps));
}

double global_scale(const MomentumMaps& maps) {
  const mesh::SpacetimeMesh& mesh = maps.model().mesh();
  double time_part = 0.0, space_part = 0.0;
  for (int j = 0; j < mesh.J(); ++j) {
    double sum = 0.0;
    for (int a = 0; a < mesh.A(); ++a) sum += norm_inf(maps.M(j, a));
    time_part = std::max(time_part, mesh.ds() * sum);
  }
  for (int a = 0; a < mesh.A(); ++a) {
    double sum = 0.0;
    for (int j = 0; j < mesh.J(); ++j) sum += norm_inf(maps.N(j, a));
    space_part = std::max(space_part, mesh.dt() * sum);
  }
  return std::max(time_part, space_part);
}

Vec6 total_time_momentum(const MomentumMaps& maps, int j) {
  Vec6 P = Vec6::Zero();
  for (int a = 0; a < maps.model().mesh().A(); ++a) P += maps.M(j, a);
  return maps.model().ds() * P;
}

Vec6 total_space_momentum(const MomentumMaps& maps, int a) {
  Vec6 Q = Vec6::Zero();
  for (int j = 0; j < maps.model().mesh().J(); ++j) Q += maps.N(j, a);
  return maps.model().dt() * Q;
}

}  // namespace field::noether
