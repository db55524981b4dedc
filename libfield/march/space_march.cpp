#include "libfield/march/space_march.hpp"

#include <type_traits>

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/march/newton_diagnosis.hpp"
#include "libfield/march/slab_check.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

mesh::Boundary space_boundary(const SpaceMarchInput& input) {
  return mesh::Boundary::space_evolution(input.first.side, input.last.side);
}

namespace {

// Step 1 of theory §6.2 for column a: ghost row J (free) or prescribed rows.
void apply_rows(const SpaceMarchInput& in, int J, int a, std::vector<lie::SE3>& column) {
  if (in.last.is_free())
    column[J] = column[J - 1];
  else
    column[J] = in.last.motion(a);
  if (!in.first.is_free()) column[0] = in.first.motion(a);
}

// The target -lambda of node j of column a (theory §6.2 step 2): lambda~_j^{a-1} from
// eta_j^{a-1}, the time momenta mu_j^a and mu~_{j-1}^a (zero below row 0), the loads.
template <class G>
Vec6 space_target(const dcel::DiscreteModel<G>& model, const lie::SE3& g, int j, int a,
                  const Vec6& eta_prev, const Vec6& mu, const Vec6& mu_tilde_before) {
  const double dt = model.dt(), ds = model.ds();
  return -(dcel::space_momentum_tilde(model, a - 1, eta_prev) - (ds / dt) * (mu - mu_tilde_before) +
           ds * model.force(g, j, a) + model.point_load(g, j, a));
}

// The same from column a alone, for the diagnosis of a failed node (march/newton_diagnosis.hpp).
template <class G>
Vec6 space_target_at(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& column,
                     int j, int a, const Vec6& eta_prev) {
  const auto momenta = [&](int i, Vec6& mu, Vec6& mu_tilde) {
    dcel::time_momenta(model, a, mesh::convected<G>(column[i], column[i + 1], model.dt()), mu,
                       mu_tilde);
  };
  Vec6 mu, mu_tilde, unused, before = Vec6::Zero();
  momenta(j, mu, mu_tilde);
  if (j > 0) momenta(j - 1, unused, before);
  return space_target(model, column[j], j, a, eta_prev, mu, before);
}

}  // namespace

template <class G>
void check_space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInput& in,
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
  for (const model::PointLoad& p : model.loads().point)
    FIELD_CHECK(p.a >= 1 && p.a <= A - 1,
                "space march: a point load at node a = " << p.a << " is not on a solved column (1.."
                                                         << A - 1 << ")");

  const SlabSolver law(model, dcel::NodeEquation::space, options);  // checks the node law

  // Columns 0 and 1 as given and as the march uses them (rows applied): finite, no half turn
  // between neighbours.
  constexpr bool cayley = std::is_same_v<G, lie::Se3Cayley>;
  const auto check_column = [&](int a, std::vector<lie::SE3> column, bool as_given) {
    for (int pass = as_given ? 0 : 1; pass < 2; ++pass) {
      if (pass == 1) apply_rows(in, J, a, column);
      if (const auto p = check_slab(column, cayley))
        FIELD_CHECK(false, "space march: the initial " << describe(*p, "column", a, "j"));
    }
    return column;
  };
  const std::vector<lie::SE3> column0 = check_column(0, in.column0, true);
  std::vector<lie::SE3> column1 = in.column1;
  if (from_strain) {
    column1.resize(J + 1);
    for (int j = 0; j < J; ++j) {
      FIELD_CHECK(in.strain0[j].allFinite(),
                  "space march: the tip strain of row j = " << j << " is not finite: "
                                                            << in.strain0[j].transpose());
      column1[j] = column0[j] * G::tau(ds * in.strain0[j]);
    }
  }
  column1 = check_column(1, column1, !from_strain);  // from the strain, row J is set by the rows
  for (int j = 0; j <= J; ++j) {
    FIELD_CHECK(!check_slab({column0[j], column1[j]}, cayley),
                "space march: row j = " << j
                                        << " turns by a half turn between columns 0 and 1 (no "
                                           "Cayley coordinates, theory §2.1): a smaller ds");
    FIELD_CHECK(
        mesh::convected<G>(column0[j], column1[j], ds).allFinite(),
        "space march: the strain of row j = " << j << " between columns 0 and 1 is not finite");
  }
}

template <class G>
MarchResult space_march(const dcel::DiscreteModel<G>& model, const SpaceMarchInput& in,
                        const std::vector<SlabObserver*>& observers, const MarchOptions& options) {
  check_space_march(model, in, options);
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  const double dt = mesh.dt(), ds = mesh.ds();
  const bool from_strain = in.column1.empty();
  const int lo = in.first.is_free() ? 0 : 1;  // solved rows lo..J-1
  constexpr bool cayley = std::is_same_v<G, lie::Se3Cayley>;

  SlabSolver solver(model, dcel::NodeEquation::space, options);
  MarchResult result;
  const auto emit = [&](int a, const std::vector<lie::SE3>& column, const SlabStats& stats) {
    for (SlabObserver* o : observers) o->slab(a, column, stats);
    result.last_slab = a;
  };
  const auto finish = [&]() {
    for (SlabObserver* o : observers) o->finish();
    return result;
  };
  // A failed node: why Newton failed (march/newton_diagnosis.hpp), from its target and start.
  const auto fail_node = [&](int a, int node, const Vec6& m, const Vec6& start) {
    result.failure = MarchFailure{a, node, 0, 0.0};
    solver.fill_failure(*result.failure);
    const NewtonDiagnosis d = diagnose_newton(model, a - 1, dcel::NodeEquation::space, m, start,
                                              options.newton, result.failure->residual);
    result.failure->kind = d.kind;
    result.failure->iterations_needed = d.iterations_needed;
    return finish();
  };
  // A new column with a non-finite value or a half turn between neighbours is not emitted.
  const auto bad_column = [&](int a, const std::vector<lie::SE3>& column) {
    const auto p = check_slab(column, cayley);
    if (p) result.failure = MarchFailure{a, p->node, 0, 0.0, p->kind};
    return p.has_value();
  };

  // Columns 0 and 1.
  std::vector<lie::SE3> prev = in.column0, cur(J + 1), next(J + 1);
  const int threads = solver.threads_for(J);
  if (from_strain) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int j = 0; j < J; ++j) cur[j] = prev[j] * G::tau(ds * in.strain0[j]);
  } else {
    cur = in.column1;
  }
  apply_rows(in, J, 1, cur);
  emit(0, prev, SlabStats{});
  emit(1, cur, SlabStats{});

  // eta_j^{a-1} of the previous column: the Newton start and lambda~_j^{a-1}.
  std::vector<Vec6> eta(J + 1, model.density().reference_strain());
  for (int j = 0; j <= J; ++j) eta[j] = mesh::convected<G>(prev[j], cur[j], ds);  // may throw
  std::vector<Vec6> mu(J + 1), mu_tilde(J + 1);
  std::vector<Vec6> eta_back1(J + 1, Vec6::Zero()),
      eta_back2(J + 1, Vec6::Zero());  // eta^{a-2}, eta^{a-3}: Newton start

  // Step 2: columns a = 1..A-1 produce column a+1. One parallel region per column: the time
  // momenta of column a, a barrier, then per node target, Newton start, solve and g_j^{a+1};
  // each node writes only its own slots, statistics are reduced serially in node order.
  for (int a = 1; a < A; ++a) {
    if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      result.interrupted = true;
      return finish();
    }
    solver.begin(J + 1);
    if (solver.lanes()) {
      // theory §6.2 step 2 on lanes; the target is -lambda: the loads enter with the opposite sign.
      const auto extra_at = [&](int j) -> Vec6 {
        return -(ds * model.force(cur[j], j, a) + model.point_load(cur[j], j, a));
      };
      solver.lanes_slab(a, cur, J, lo, J, extra_at, mu, mu_tilde, eta, eta_back1, eta_back2, next);
    } else {
      // theory §6.2 step 2 node by node. Column a passed check_slab, so lie::cay_inv has values;
      // an exception is still guarded and thrown after the region.
      ParallelErrors errors;
#pragma omp parallel num_threads(threads)
      {
#pragma omp for schedule(static)
        for (int j = 0; j < J; ++j)
          errors.guard(j, [&] {
            dcel::time_momenta(model, a, mesh::convected<G>(cur[j], cur[j + 1], dt), mu[j],
                               mu_tilde[j]);
          });
#pragma omp for schedule(static)
        for (int j = lo; j < J; ++j) {
          const Vec6 before = j > 0 ? mu_tilde[j - 1] : Vec6::Zero();
          const Vec6 m = space_target(model, cur[j], j, a, eta[j], mu[j], before);
          eta[j] = extrapolate(a, eta[j], eta_back1[j], eta_back2[j]);
          solver.solve_node(j, m, eta[j], eta_back1[j]);
          next[j] = cur[j] * G::tau(ds * eta[j]);
        }
      }
      errors.rethrow();
    }
    SlabStats stats;
    if (const auto fail = solver.finish(lo, J, stats, result))  // eta_back1: eta^{a-1}, the start
      return fail_node(a + 1, *fail, space_target_at(model, cur, *fail, a, eta_back1[*fail]),
                       eta_back1[*fail]);
    apply_rows(in, J, a + 1, next);
    if (bad_column(a + 1, next)) return finish();
    emit(a + 1, next, stats);
    std::swap(prev, cur);
    std::swap(cur, next);
  }
  result.completed = true;
  return finish();
}

#define FIELD_INSTANTIATE(G)                                                              \
  template void check_space_march(const dcel::DiscreteModel<G>&, const SpaceMarchInput&,  \
                                  const MarchOptions&);                                   \
  template MarchResult space_march(const dcel::DiscreteModel<G>&, const SpaceMarchInput&, \
                                   const std::vector<SlabObserver*>&, const MarchOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march
