#include "libfield/march/space_march.hpp"

#include <string>

#include "libfield/core/error.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/march/slab_march.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

namespace {

// Step 1 of theory §6.2 for column a: ghost row J (free) or prescribed rows.
template <class S>
void apply_rows(const BasicSpaceMarchInput<S>& in, int J, int a,
                std::vector<typename S::Element>& column) {
  if (in.last.is_free())
    column[J] = column[J - 1];
  else
    column[J] = in.last.motion(a);
  if (!in.first.is_free()) column[0] = in.first.motion(a);
}

// The target -lambda of node j of column a (theory §6.2 step 2): lambda~_j^{a-1} from
// eta_j^{a-1}, the time momenta mu_j^a and mu~_{j-1}^a (zero below row 0), the loads.
template <class G>
lie::AlgebraOf<G> space_target(const dcel::DiscreteModel<G>& model, const lie::ElementOf<G>& g,
                               int j, int a, const lie::AlgebraOf<G>& eta_prev,
                               const lie::AlgebraOf<G>& mu,
                               const lie::AlgebraOf<G>& mu_tilde_before) {
  const double dt = model.dt(), ds = model.ds();
  return -(dcel::space_momentum_tilde(model, a - 1, eta_prev) - (ds / dt) * (mu - mu_tilde_before) +
           ds * model.force(g, j, a) + model.point_load(g, j, a));
}

// The guard of theory §6.2 ("The branch of the node problem"): the strain eta_j^a of segment a,
// row j, following before = eta_j^{a-1}, on the branch of the density of segment a (the cable's
// taut one, theory §1.8). Throws field::Error naming the segment, the row and why.
template <class G>
void check_branch(const dcel::DiscreteModel<G>& model, int a, int j, const lie::AlgebraOf<G>& eta,
                  const lie::AlgebraOf<G>& before) {
  const std::string why = model.density(a).space_strain_problem(eta, before);
  FIELD_CHECK(why.empty(),
              "space march: the strain of segment a = "
                  << a << " (between columns " << a << " and " << a + 1 << "), row j = " << j
                  << " (t = " << j * model.dt() << " s): " << why
                  << ". The space march rebuilds a taut cable only (theory §6.2): every segment "
                     "of columns 0.."
                  << model.mesh().A() - 1
                  << " must stay stretched (|eta| > 1) on the rows it solves; give data of a "
                     "cable under tension, or reconstruct fewer columns (a smaller A) or a time "
                     "window in which it is taut");
}

// The space axis of the slab march (march/slab_march.hpp, theory §6): slabs are columns a, nodes
// j, the step ds, the unknown eta, the space equation -C(eta - eta0); fluxes mu, mu~ (theory §6.2).
template <class G>
struct SpaceAxis {
  using Group = G;
  using E = lie::ElementOf<G>;
  using V = lie::AlgebraOf<G>;
  static constexpr dcel::NodeEquation kEquation = dcel::NodeEquation::space;
  static constexpr AxisNames names{"space march", "column", "row j", "j", "ds", "strain"};

  const dcel::DiscreteModel<G>& model_;
  const SpaceMarchInputOf<G>& in;

  const dcel::DiscreteModel<G>& model() const { return model_; }
  int slabs() const { return model_.mesh().A(); }
  int nodes() const { return model_.mesh().J(); }
  int lo() const { return in.first.is_free() ? 0 : 1; }  // solved rows lo..J-1
  double h() const { return model_.ds(); }
  void flux(const std::vector<E>& column, const std::vector<E>&, int a, int j, V& mu,
            V& mu_tilde) const {
    dcel::time_momenta(model_, a, mesh::convected<G>(column[j], column[j + 1], model_.dt()), mu,
                       mu_tilde);
  }
  V target(const std::vector<E>& column, int a, int j, const V& eta_prev, const V& mu,
           const V& mu_tilde_before) const {
    return space_target(model_, column[j], j, a, eta_prev, mu, mu_tilde_before);
  }
  // On lanes: the target is -lambda, the loads enter with the opposite sign.
  V load(const std::vector<E>& column, int a, int j) const {
    return -(model_.ds() * model_.force(column[j], j, a) + model_.point_load(column[j], j, a));
  }
  const E* lanes_prev(const std::vector<E>&) const { return nullptr; }
  void boundary(int a, std::vector<E>& column, const std::vector<E>*) const {
    apply_rows(in, model_.mesh().J(), a, column);
  }
  int column(int a, int) const { return a - 1; }  // the failed slab a+1 is built on column a
  // The strains eta_j^a of the solved rows (columns a, a+1) on the density's branch, following
  // eta_j^{a-1} (columns a-1, a).
  void accept(int a, const std::vector<E>& prev, const std::vector<E>& cur,
              const std::vector<E>& next) const {
    if (!model_.density(a).restricts_space_strain()) return;
    const double ds = model_.ds();
    for (int j = lo(); j < nodes(); ++j)
      check_branch(model_, a, j, mesh::convected<G>(cur[j], next[j], ds),
                   mesh::convected<G>(prev[j], cur[j], ds));
  }
};

}  // namespace

template <class G>
void check_space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInputOf<G>& in,
                       const MarchOptions& options) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  const double ds = mesh.ds();
  FIELD_CHECK(static_cast<int>(in.column0.size()) == J + 1,
              "space march: the tip motion has " << in.column0.size()
                                                 << " rows, the mesh needs J+1 = " << J + 1);
  const bool from_strain = in.column1.empty();
  if (from_strain)
    FIELD_CHECK(static_cast<int>(in.strain0.size()) >= J, "space march: the tip strain has "
                                                              << in.strain0.size()
                                                              << " rows, the mesh needs J = " << J
                                                              << " (or give column 1)");
  else
    FIELD_CHECK(static_cast<int>(in.column1.size()) == J + 1,
                "space march: column 1 has " << in.column1.size()
                                             << " rows, the mesh needs J+1 = " << J + 1);
  FIELD_CHECK(in.first.is_free() || in.first.motion,
              "space march: the prescribed first row has no motion");
  FIELD_CHECK(in.last.is_free() || in.last.motion,
              "space march: the prescribed last row has no motion");
  FIELD_CHECK(A >= 2, "space march: needs A >= 2 (columns 0, 1 are data), got A = " << A);
  // An end wrench on a = A (theory §4.6) puts W/2 on node A-1, whose equation the march solves
  // (the estimator's start, theory §6.7); its other half is the far-end condition, which the
  // space march does not impose.
  for (const model::PointLoad& p : model.loads().point)
    FIELD_CHECK((p.a >= 1 && p.a <= A - 1) || (p.end && p.a == A),
                "space march: a point load at node a = " << p.a << " is not on a solved column (1.."
                                                         << A - 1 << ")");

  const SlabSolver law(model, dcel::NodeEquation::space, options);  // checks the node law

  // Columns 0 and 1 as given and as the march uses them (rows applied): finite, no half turn
  // between neighbours.
  const SpaceAxis<G> axis{model, in};
  const std::vector<lie::ElementOf<G>> column0 = check_initial_slab(axis, 0, in.column0, true);
  std::vector<lie::ElementOf<G>> column1 = in.column1;
  if (from_strain) {
    column1.resize(J + 1);
    for (int j = 0; j < J; ++j) {
      FIELD_CHECK(in.strain0[j].allFinite(),
                  "space march: the tip strain of row j = " << j << " is not finite: "
                                                            << in.strain0[j].transpose());
      column1[j] = G::compose(column0[j], G::tau(ds * in.strain0[j]));
    }
  }
  // From the strain, row J is set by the rows.
  column1 = check_initial_slab(axis, 1, column1, !from_strain);
  check_initial_pair(axis, column0, column1);
  // The data's strains eta_j^0 on the density's branch (theory §6.2): the cable's taut one.
  if (model.density(0).restricts_space_strain())
    for (int j = axis.lo(); j < J; ++j) {
      const lie::AlgebraOf<G> eta = mesh::convected<G>(column0[j], column1[j], ds);
      check_branch(model, 0, j, eta, eta);
    }
}

template <class G>
MarchResult space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInputOf<G>& in,
                        const SlabObserversOf<G>& observers, const MarchOptions& options) {
  check_space_march(model, in, options);
  const int J = model.mesh().J();
  const double ds = model.ds();
  const bool from_strain = in.column1.empty();
  const SpaceAxis<G> axis{model, in};
  SlabMarch<SpaceAxis<G>> march(axis, observers, options);

  // Columns 0 and 1.
  std::vector<lie::ElementOf<G>> prev = in.column0, cur(J + 1);
  const int threads = march.solver().threads_for(J);
  if (from_strain) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int j = 0; j < J; ++j) cur[j] = G::compose(prev[j], G::tau(ds * in.strain0[j]));
  } else {
    cur = in.column1;
  }
  apply_rows(in, J, 1, cur);
  march.emit(0, prev, SlabStats{});
  march.emit(1, cur, SlabStats{});

  // eta_j^{a-1} of the previous column: the Newton start and lambda~_j^{a-1}.
  std::vector<lie::AlgebraOf<G>> eta(J + 1, model.density().reference_strain());
  for (int j = 0; j <= J; ++j) eta[j] = mesh::convected<G>(prev[j], cur[j], ds);  // may throw

  // Step 2: columns a = 1..A-1 produce column a+1 (march/slab_march.hpp).
  return march.run(prev, cur, eta);
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template void check_space_march(const dcel::DiscreteModel<G>&, const SpaceMarchInputOf<G>&,  \
                                  const MarchOptions&);                                        \
  template MarchResult space_march(const dcel::DiscreteModel<G>&, const SpaceMarchInputOf<G>&, \
                                   const SlabObserversOf<G>&, const MarchOptions&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march
