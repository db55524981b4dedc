#include "libfield/noether/time_diagnostics.hpp"

#include <algorithm>

#include "libfield/dcel/momenta.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::noether {

namespace {
double norm_inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}
}  // namespace

TimeDiagnostics::TimeDiagnostics(const dcel::DiscreteModel& model, const mesh::Boundary& boundary,
                                 Sink sink)
    : model_(model),
      a_first_(boundary.left == mesh::Side::prescribed ? 1 : 0),
      a_last_(boundary.right == mesh::Side::prescribed ? model.mesh().A() - 1 : model.mesh().A()),
      sink_(std::move(sink)) {}

void TimeDiagnostics::compute_terms(int j, const std::vector<lie::SE3>& row,
                                    const std::vector<lie::SE3>& next, RowTerms& terms,
                                    double& kinetic) const {
  const int A = model_.mesh().A();
  const model::Density& d = model_.density();
  terms.M.assign(A, Vec6::Zero());
  terms.N.assign(A, Vec6::Zero());
  terms.F.assign(A, Vec6::Zero());
  terms.W.assign(A + 1, Vec6::Zero());
  terms.V.assign(A, 0.0);
  kinetic = 0.0;
  for (int a = 0; a < A; ++a) {  // serial, fixed order
    const dcel::TriangleMomenta m =
        dcel::triangle_momenta(model_, j, a, row[a], next[a], row[a + 1]);
    terms.M[a] = lie::spatial_covector(row[a], m.mu);
    terms.N[a] = lie::spatial_covector(row[a], m.lambda);
    terms.F[a] = lie::spatial_covector(row[a], m.f);
    terms.V[a] = d.strain_energy(m.eta) + d.potential(row[a]);
    kinetic += d.kinetic_energy(m.xi);
  }
  for (int a = 0; a <= A; ++a)
    terms.W[a] = lie::spatial_covector(row[a], model_.point_load(row[a], j, a));
}

void TimeDiagnostics::slab(int j1, const std::vector<lie::SE3>& next,
                           const march::SlabStats& stats) {
  if (j1 == 0) {
    row_ = next;
    have_previous_ = false;
    return;
  }
  const int j = j1 - 1, A = model_.mesh().A();
  const double dt = model_.dt(), ds = model_.ds();
  RowTerms terms;
  double kinetic = 0.0;
  compute_terms(j, row_, next, terms, kinetic);
  // V_{j+1}^a needs eta of row j+1.
  double V_next = 0.0, V_row = 0.0;
  for (int a = 0; a < A; ++a) {
    const Vec6 eta = mesh::convected(model_.tau(), next[a], next[a + 1], ds);
    V_next += model_.density().strain_energy(eta) + model_.density().potential(next[a]);
    V_row += terms.V[a];
  }
  TimeRowDiagnostics out;
  out.j = j;
  out.t = model_.mesh().t(j);
  out.energy = ds * (kinetic + 0.5 * (V_row + V_next));
  out.momentum = Vec6::Zero();
  for (int a = 0; a < A; ++a) out.momentum += terms.M[a];
  out.momentum *= ds;
  out.newton = stats;
  if (have_previous_) {  // Res([j, j] x [a_first, a_last]), SPEC [S8.2]
    Vec6 res = Vec6::Zero();
    double scale = 0.0, glob = 0.0;
    const auto add = [&](const Vec6& v) {
      res += v;
      scale += norm_inf(v);
    };
    for (int a = a_first_; a <= std::min(a_last_, A - 1); ++a) {
      add(ds * previous_.M[a]);
      add(-ds * terms.M[a]);
      add(dt * ds * terms.F[a]);
      glob += ds * norm_inf(terms.M[a]);
    }
    for (int a = a_first_; a <= a_last_; ++a) add(dt * terms.W[a]);
    if (a_first_ > 0) add(dt * terms.N[a_first_ - 1]);
    if (a_last_ < A) add(-dt * terms.N[a_last_]);
    out.balance = norm_inf(res) / std::max({scale, glob, 1e-300});
  }
  if (sink_) sink_(out);
  previous_ = std::move(terms);
  have_previous_ = true;
  row_ = next;
}

}  // namespace field::noether
