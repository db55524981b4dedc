// The batched four-node march kernel (march/slab_lanes.hpp) against the per-node reference loop
// (NodeKernel::per_node, dcel::CayleyNode): the same fields to round-off on time and space
// marches with free and prescribed ends, gravity and every load kind, node counts that leave
// partial batches; the same Newton work. theory §6.1, §6.2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "libfield/march/slab_solve.hpp"
#include "tests/support/cases.hpp"

namespace field::march {
namespace {

using test::expect_same_run;
using test::field_difference;

// The time march of model from in with `kernel` against the per-node loop (NodeKernel::per_node),
// both on `threads` threads: the same run to `tolerance` (test::expect_same_run); returns the
// largest difference of their fields, to print.
template <class G>
double lanes_against_per_node(const dcel::DiscreteModel<G>& model, const TimeMarchInput& in,
                              int threads, NodeKernel kernel, double tolerance) {
  const test::RecordedRun lanes = test::record_time_march(model, in, threads, kernel);
  const test::RecordedRun ref = test::record_time_march(model, in, threads, NodeKernel::per_node);
  expect_same_run(lanes, ref, model.mesh(), tolerance);
  return field_difference(lanes.field, ref.field, model.mesh());
}

TEST(SlabLanes, AppliesToTheBeamWithEitherRetraction) {
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const mesh::SpacetimeMesh m(10, 5, 0.005, 0.1);
  const dcel::DiscreteModel cay(beam, loads, lie::Se3Cayley{}, m);
  const dcel::DiscreteModel exp(beam, loads, lie::Se3Exp{}, m);
  EXPECT_TRUE(SlabLanes::make(cay, dcel::NodeEquation::time, {}));
  EXPECT_TRUE(SlabLanes::make(cay, dcel::NodeEquation::space, {}));
  EXPECT_FALSE(SlabLanes::make(cay, dcel::NodeEquation::time, {})->exponential);
  EXPECT_TRUE(SlabLanes::make(exp, dcel::NodeEquation::time, {})->exponential);
  EXPECT_TRUE(SlabLanes::make(exp, dcel::NodeEquation::space, {})->exponential);
  MarchOptions off;
  off.kernel = NodeKernel::per_node;
  EXPECT_TRUE(SlabSolver(cay, dcel::NodeEquation::time, {}).lanes());
  EXPECT_FALSE(SlabSolver(cay, dcel::NodeEquation::time, off).lanes());
  EXPECT_TRUE(SlabSolver(exp, dcel::NodeEquation::time, {}).lanes());
  EXPECT_FALSE(SlabSolver(exp, dcel::NodeEquation::time, off).lanes());
  EXPECT_FALSE(SlabLanes::make(cay, dcel::NodeEquation::time, {})->external);
}

TEST(SlabLanes, FreeFlightEqualsTheReferenceLoop) {
  // theory §11.1: 10 solved nodes = batches of 4, 4, 2; 400 steps. Round-off grows over the
  // steps: measured 2.7e-13 (positions of order 1 m), the same 16 000 Newton iterations.
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  expect_same_run(test::record_time_march(model, ff.input(), 1, NodeKernel::automatic),
                  test::record_time_march(model, ff.input(), 1, NodeKernel::per_node), ff.mesh(),
                  1e-12);
}

TEST(SlabLanes, ClampedBeamWithGravityAndLoadsEqualsTheReferenceLoop) {
  // Prescribed left end (solved nodes 1..A-1: the batches start at node 1), gravity, world and
  // body distributed loads, point loads; A = 7 and 9 leave partial batches; 2 threads; the
  // baseline (SSE2) build of the lane kernels.
  // Measured: 4.7e-14 and 4.2e-14.
  for (int A : {7, 9}) {
    test::CantileverGravity cg;
    cg.A = A;
    cg.J = 300;
    const model::BeamDensity beam = test::CantileverGravity::beam();
    model::Loads loads = test::mixed_loads(A);
    loads.point.erase(loads.point.begin());  // a = 0 is prescribed
    loads.point.pop_back();                  // a = A is the ghost
    const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, cg.mesh());
    ASSERT_TRUE(SlabLanes::make(model, dcel::NodeEquation::time, {})->external);
    expect_same_run(test::record_time_march(model, cg.input(), 2, NodeKernel::lanes_baseline),
                    test::record_time_march(model, cg.input(), 2, NodeKernel::per_node), cg.mesh(),
                    1e-12);
  }
}

TEST(SlabLanes, SpaceEvolutionEqualsTheReferenceLoop) {
  // theory §11.4 with free rows (solved rows 0..J-1), 10 columns: measured 1.3e-14.
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  expect_same_run(test::record_space_march(model, se.input(), 1, NodeKernel::automatic),
                  test::record_space_march(model, se.input(), 1, NodeKernel::per_node), se.mesh(),
                  1e-12);
}

// Rows 0 and J of a space march prescribed: the tip's pose at t_0 and t_J, moved by 0.1 a along
// e3 at node a.
void prescribe_rows(SpaceMarchInput& in) {
  const lie::SE3 first = in.column0.front(), last = in.column0.back();
  in.first = SideSpec::prescribed([first](int a) {
    lie::SE3 g = first;
    g.r.z() += 0.1 * a;
    return g;
  });
  in.last = SideSpec::prescribed([last](int a) {
    lie::SE3 g = last;
    g.r.z() += 0.1 * a;
    return g;
  });
}

TEST(SlabLanes, SpaceMarchWithPrescribedRowsGravityAndLoadsEqualsTheReferenceLoop) {
  // Rows 0 and J prescribed (solved rows 1..J-1), gravity, distributed and point loads on
  // solved columns, J = 30 (29 solved rows: a partial batch); 2 threads. Measured: 6.7e-16.
  test::SpaceEvolution se;
  se.J = 30;
  const model::BeamDensity beam(model::BeamSection::square(0.2),
                                model::BeamMaterial{1e6, 0.35, 1000.0}, Vec3(0.0, -9.81, 0.0));
  model::Loads loads = test::mixed_loads(se.A);
  loads.point.erase(loads.point.begin());  // a = 0 is data
  loads.point.pop_back();                  // a = A is not solved
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  SpaceMarchInput in = se.input();
  prescribe_rows(in);
  expect_same_run(test::record_space_march(model, in, 2, NodeKernel::automatic),
                  test::record_space_march(model, in, 2, NodeKernel::per_node), se.mesh(), 1e-12);
}

// A beam with a random law per segment (J_a and C_a entrywise scaled by factors in [0.5, 2]) and a
// random stress-free strain eta0_a (curvatures up to 0.3/m about every axis, shear, stretch
// 1 +- 0.05): theory §1.6.
struct RandomSegments {
  std::vector<model::BeamDensity> beams;
  std::vector<const model::Density<lie::Se3Group>*> segments;
  RandomSegments(int A, unsigned seed, const Vec3& gravity = Vec3::Zero()) {
    test::Random rnd(seed);
    const model::SectionLaw soft = test::soft_beam().law();
    beams.reserve(A);
    for (int a = 0; a < A; ++a) {
      model::SectionLaw law = soft;
      for (int i = 0; i < 6; ++i) {
        law.C(i, i) *= std::exp2(rnd.uniform(-1.0, 1.0));
        law.J(i, i) *= std::exp2(rnd.uniform(-1.0, 1.0));
      }
      Vec6 eta0 = model::BeamDensity::E6();
      eta0.head<3>() += rnd.vec3(0.3);
      eta0.tail<3>() += rnd.vec3(0.05);
      beams.emplace_back(law, gravity, eta0);
    }
    for (const model::BeamDensity& b : beams) segments.push_back(&b);
  }
};

TEST(SlabLanes, AppliesToNonUniformBeams) {
  // theory §1.6: a law per node on the lanes in the time march, a law per slab (column) in the
  // space march (theory §6.2).
  const test::FreeFlight ff;
  const RandomSegments rs(ff.A, 3);
  const model::Loads loads;
  const dcel::DiscreteModel<lie::Se3Cayley> model(rs.beams[0], rs.segments, loads, ff.mesh());
  const auto lanes = SlabLanes::make(model, dcel::NodeEquation::time, {});
  ASSERT_TRUE(lanes);
  ASSERT_TRUE(lanes->per_node_laws());
  EXPECT_FALSE(lanes->per_slab_laws());
  EXPECT_EQ(lanes->node_K.size(), static_cast<size_t>(ff.A));
  EXPECT_EQ(lanes->across_y0[4], rs.beams[4].reference_strain());
  EXPECT_TRUE(SlabSolver(model, dcel::NodeEquation::time, {}).lanes());
  const auto space = SlabLanes::make(model, dcel::NodeEquation::space, {});
  ASSERT_TRUE(space);
  EXPECT_FALSE(space->per_node_laws());
  ASSERT_TRUE(space->per_slab_laws());
  EXPECT_EQ(space->slab_node.size(), static_cast<size_t>(ff.A));
  EXPECT_EQ(space->exp_slab_across.size(), static_cast<size_t>(ff.A));
  EXPECT_TRUE(SlabSolver(model, dcel::NodeEquation::space, {}).lanes());
}

// A space march of random segments (theory §6.2, a law per slab), lanes against the per-node
// loop: theory §11.4's tip data with free rows (solved rows 0..J-1, 1 thread) and with the rows
// prescribed, gravity and loads (rows 1..J-1: batches from row 1, 2 threads, SSE2). A = 6: the
// random laws' slowest shear waves put some columns outside the space march's stable range, and
// the march of 10 columns fails.
template <class G>
void expect_space_segments_on_lanes(unsigned seed) {
  test::SpaceEvolution se;
  se.J = 30;
  se.A = 6;
  const model::Loads none;
  const RandomSegments free_rs(se.A, seed);
  const dcel::DiscreteModel<G> free_model(free_rs.beams[0], free_rs.segments, none, se.mesh());
  expect_same_run(test::record_space_march(free_model, se.input(), 1, NodeKernel::automatic),
                  test::record_space_march(free_model, se.input(), 1, NodeKernel::per_node),
                  se.mesh(), 1e-12);
  model::Loads loads = test::mixed_loads(se.A);
  loads.point.erase(loads.point.begin());  // a = 0 is data
  loads.point.pop_back();                  // a = A is not solved
  const RandomSegments rs(se.A, seed + 1, Vec3(0.0, -9.81, 0.0));
  const dcel::DiscreteModel<G> model(rs.beams[0], rs.segments, loads, se.mesh());
  SpaceMarchInput in = se.input();
  prescribe_rows(in);
  const test::RecordedRun lanes =
      test::record_space_march(model, in, 2, NodeKernel::lanes_baseline);
  const test::RecordedRun ref = test::record_space_march(model, in, 2, NodeKernel::per_node);
  expect_same_run(lanes, ref, se.mesh(), 1e-12);
  std::printf("[space segments %s] lanes - per node: %.3e\n", lie::retraction_name<G>().c_str(),
              field_difference(lanes.field, ref.field, se.mesh()));
}

TEST(SlabLanes, SpaceMarchOfRandomSegmentsEqualsTheReferenceLoop) {
  expect_space_segments_on_lanes<lie::Se3Cayley>(31);
  expect_space_segments_on_lanes<lie::Se3Exp>(33);
}

// The free flight of theory §11.1 and the clamped cantilever with gravity on random segments,
// both retractions, lanes against the per-node loop (dcel::DiagonalNode per column). The lanes
// evaluate the same formulas in another order (the fluxes through NodeArithmetic::dual instead
// of G::dtau_inv_dual, as for a uniform beam): round-off agreement.
template <class G>
void expect_segments_on_lanes(unsigned seed) {
  // Free flight, 10 solved nodes (batches 4, 4, 2), 1 thread: two slabs on lanes (J = 3; measured
  // 6.4e-16 Cayley, 4.0e-16 exp, positions of order 1 m) and 400 steps (round-off grown over the
  // lively run: 1.4e-12, 1.0e-12; the uniform free flight above: 2.7e-13).
  for (const auto& [J, tolerance] : {std::pair{3, 1e-14}, std::pair{400, 1e-11}}) {
    test::FreeFlight ff;
    ff.J = J;
    const RandomSegments rs(ff.A, seed);
    const model::Loads loads;
    const dcel::DiscreteModel<G> model(rs.beams[0], rs.segments, loads, ff.mesh());
    const double d = lanes_against_per_node(model, ff.input(), 1, NodeKernel::automatic, tolerance);
    std::printf("[segments %s J = %d] lanes - per node: %.3e\n", lie::retraction_name<G>().c_str(),
                J, d);
  }
  // Clamped left, gravity, partial batches from node 1, 2 threads, SSE2, 300 steps: measured
  // 2.0e-15 to 9.6e-15.
  for (int A : {7, 9}) {
    test::CantileverGravity cg;
    cg.A = A;
    cg.J = 300;
    const RandomSegments rs(A, seed + A, Vec3(0.0, 0.0, -9.81));
    const model::Loads loads;
    const dcel::DiscreteModel<G> model(rs.beams[0], rs.segments, loads, cg.mesh());
    const double d =
        lanes_against_per_node(model, cg.input(), 2, NodeKernel::lanes_baseline, 1e-12);
    std::printf("[segments %s cantilever A = %d] lanes - per node: %.3e\n",
                lie::retraction_name<G>().c_str(), A, d);
  }
}

TEST(SlabLanes, RandomSegmentsEqualTheReferenceLoopCayley) {
  expect_segments_on_lanes<lie::Se3Cayley>(7);
}

TEST(SlabLanes, RandomSegmentsEqualTheReferenceLoopExp) {
  expect_segments_on_lanes<lie::Se3Exp>(8);
}

TEST(SlabLanes, RandomSegmentsDoNotDependOnTheThreadCount) {
  // 200 solved nodes (above march::kParallelMinNodes): 1, 2 and 3 threads, the same bits.
  test::FreeFlight ff;  // the beam of length 1 m in 200 segments, dt / ds as free_flight
  ff.A = 200;
  ff.ds = 0.005;
  ff.dt = 0.00025;
  ff.J = 40;
  const RandomSegments rs(ff.A, 11);
  const model::Loads loads;
  const dcel::DiscreteModel<lie::Se3Cayley> model(rs.beams[0], rs.segments, loads, ff.mesh());
  const test::RecordedRun one = test::record_time_march(model, ff.input(), 1);
  ASSERT_TRUE(one.result.completed);
  for (int threads : {2, 3}) {
    const test::RecordedRun more = test::record_time_march(model, ff.input(), threads);
    EXPECT_TRUE(test::same_bits(one, more, ff.J, ff.A)) << threads << " threads";
    EXPECT_EQ(one.result.newton_iterations, more.result.newton_iterations);
  }
}

// Damping (theory §4.7) on the lanes against the per-node loop (march::time_target, row_fluxes
// with dcel::damping_fluxes): mass damping alpha = 0.5/s, stiffness damping beta = 3e-4 s (as
// meshes/damped_cantilever) and both, on the clamped cantilever with gravity (A = 7: batches from
// node 1, partial) with one law and with random segments, both retractions, 2 threads. The lanes
// take one dual of the total stress n + sigma_d where the per-node loop adds two duals: round-off
// agreement (measured 1.2e-15 to 6.6e-15 over 300 steps).
template <class G>
void expect_damping_on_lanes(unsigned seed) {
  for (const model::Damping damping :
       {model::Damping{0.5, 0.0}, model::Damping{0.0, 3e-4}, model::Damping{0.5, 3e-4}}) {
    for (const bool segmented : {false, true}) {
      test::CantileverGravity cg;
      cg.A = 7;
      cg.J = 300;
      const model::BeamDensity beam = test::CantileverGravity::beam();
      const RandomSegments rs(cg.A, seed, Vec3(0.0, 0.0, -9.81));
      model::Loads loads;
      loads.damping = damping;
      const dcel::DiscreteModel<G> uniform(beam, loads, cg.mesh());
      const dcel::DiscreteModel<G> segments(rs.beams[0], rs.segments, loads, cg.mesh());
      const dcel::DiscreteModel<G>& model = segmented ? segments : uniform;
      const auto lanes_of = SlabLanes::make(model, dcel::NodeEquation::time, {});
      ASSERT_TRUE(lanes_of);
      EXPECT_EQ(lanes_of->mass_c, 0.5 * damping.mass * cg.dt);
      EXPECT_EQ(lanes_of->stiffness_b, damping.stiffness / cg.dt);
      const double d = lanes_against_per_node(model, cg.input(), 2, NodeKernel::automatic, 1e-12);
      std::printf("[damping %s alpha %g beta %g%s] lanes - per node: %.3e\n",
                  lie::retraction_name<G>().c_str(), damping.mass, damping.stiffness,
                  segmented ? " segments" : "", d);
    }
  }
}

TEST(SlabLanes, DampingEqualsTheReferenceLoopCayley) {
  expect_damping_on_lanes<lie::Se3Cayley>(21);
}

TEST(SlabLanes, DampingEqualsTheReferenceLoopExp) {
  expect_damping_on_lanes<lie::Se3Exp>(22);
}

TEST(SlabLanes, DampedSegmentsDoNotDependOnTheThreadCount) {
  // 200 solved nodes, both dampings, a law per segment: 1, 2 and 3 threads, the same bits.
  test::FreeFlight ff;
  ff.A = 200;
  ff.ds = 0.005;
  ff.dt = 0.00025;
  ff.J = 40;
  const RandomSegments rs(ff.A, 13);
  model::Loads loads;
  loads.damping = {0.5, 1e-6};
  const dcel::DiscreteModel<lie::Se3Cayley> model(rs.beams[0], rs.segments, loads, ff.mesh());
  const test::RecordedRun one = test::record_time_march(model, ff.input(), 1);
  ASSERT_TRUE(one.result.completed);
  for (int threads : {2, 3}) {
    const test::RecordedRun more = test::record_time_march(model, ff.input(), threads);
    EXPECT_TRUE(test::same_bits(one, more, ff.J, ff.A)) << threads << " threads";
  }
}

TEST(SlabLanes, HalfTurnBetweenNeighboursIsRefusedBeforeTheFirstRow) {
  // Node 5 of rows 0 and 1 turned by pi about d1 against node 4: cay^{-1} of their relative pose
  // has no value (theory §2.1, 1 + tr = 0). Both kernels refuse the input before any row
  // (march::check_time_march), naming the nodes, instead of a Newton failure (lanes) or an
  // exception from inside the parallel loop (one node at a time).
  test::FreeFlight ff;
  ff.J = 5;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  TimeMarchInput in = ff.input();
  in.row0[5].R = Vec3(1.0, -1.0, -1.0).asDiagonal();  // at rest in time, turned in space
  in.row1 = in.row0;
  in.velocities.clear();
  for (const NodeKernel kernel : {NodeKernel::automatic, NodeKernel::per_node}) {
    MarchOptions options;
    options.kernel = kernel;
    options.threads = 2;
    FieldRecorder recorder(model.mesh(), true);
    try {
      time_march(model, in, {&recorder}, options);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("row 0: nodes a = 4 and 5"), std::string::npos)
          << e.what();
    }
    EXPECT_THROW(check_time_march(model, in, options), Error);
  }
}

// One slab through SlabLanes directly: fluxes of nodes 0..n-1, updates of nodes lo..n-1, with
// random poses, a random history and random loads.
struct SlabOutput {
  std::vector<Vec6> flux, flux_tilde, y, back1, back2;
  std::vector<lie::SE3> next;
  std::vector<dcel::NodeSolveReport> reports;
};

SlabOutput run_slab(const SlabLanes& k, int slab, int n, int lo, unsigned seed) {
  test::Random rnd(seed);
  std::vector<lie::SE3> g(n + 1);
  using G = lie::Se3Cayley;
  for (int i = 0; i <= n; ++i) {
    Vec6 x = 1e-3 * rnd.vec6(1.0);
    x(5) += i * 0.1;
    g[i] = G::tau(x);
  }
  SlabOutput o;
  o.flux.resize(n);
  o.flux_tilde.resize(n);
  o.next.resize(n);
  o.reports.resize(n);
  std::vector<Vec6> extra(n);
  for (Vec6& e : extra) e = 1e-3 * rnd.vec6(1.0);
  for (int i = 0; i < n; ++i) {
    const Vec6 y = rnd.vec6(0.2);
    o.y.push_back(y);
    o.back1.push_back(y + 0.01 * rnd.vec6(1.0));
    o.back2.push_back(y + 0.02 * rnd.vec6(1.0));
  }
  constexpr int W = lanes::kWidth;
  for (int b = 0; b < SlabLanes::batches(n); ++b)
    k.fluxes(slab, g.data(), nullptr, b * W, std::min(W, n - b * W), o.flux.data(),
             o.flux_tilde.data());
  for (int b = 0; b < SlabLanes::batches(n - lo); ++b) {
    const int i0 = lo + b * W;
    k.updates(slab, i0, std::min(W, n - i0), g.data(), o.flux.data(), o.flux_tilde.data(),
              extra.data(), o.y.data(), o.back1.data(), o.back2.data(), o.next.data(),
              o.reports.data());
  }
  return o;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(SlabLanes, BaselineAndAvx2KernelsGiveTheSameBits) {
  // Lane-wise IEEE arithmetic without FMA in both builds of the kernels: the same bytes, for
  // both retractions (the exponential's lane-by-lane exp, log and closed-form coefficients call
  // the same scalar code from both builds).
  if (!SlabLanes::avx2_available())
    GTEST_SKIP() << "no AVX2 lanes (this CPU, or a sanitizer build: core/lanes.hpp)";
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const auto for_group = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    for (const auto equation : {dcel::NodeEquation::time, dcel::NodeEquation::space}) {
      const dcel::DiscreteModel model(beam, loads, decltype(group){},
                                      mesh::SpacetimeMesh(10, 13, 0.005, 0.1));
      SlabLanes base = *SlabLanes::make(model, equation, {}), avx = base;
      base.isa = SlabLanes::Isa::baseline;
      avx.isa = SlabLanes::Isa::avx2;
      EXPECT_EQ(SlabLanes::make(model, equation, {})->isa_used(), SlabLanes::Isa::avx2);
      for (int slab : {1, 2, 5}) {  // the three Newton starts of march::extrapolate
        const SlabOutput a = run_slab(base, slab, 13, 1, 41), b = run_slab(avx, slab, 13, 1, 41);
        EXPECT_TRUE(same_bytes(a.flux, b.flux) && same_bytes(a.flux_tilde, b.flux_tilde));
        EXPECT_TRUE(same_bytes(a.y, b.y) && same_bytes(a.back1, b.back1) &&
                    same_bytes(a.back2, b.back2));
        EXPECT_TRUE(same_bytes(a.next, b.next));
        for (int i = 1; i < 13; ++i) {
          EXPECT_TRUE(a.reports[i].converged);
          EXPECT_EQ(a.reports[i].iterations, b.reports[i].iterations);
          EXPECT_EQ(a.reports[i].residual, b.reports[i].residual);
        }
      }
    }
  };
  for_group(lie::Se3Cayley{});
  for_group(lie::Se3Exp{});
}

TEST(SlabLanes, BaselineAndAvx2KernelsGiveTheSameBitsWithALawPerNodeOrSlabAndMassDamping) {
  // The law per lane (random segments, time march), the law per slab (space march) and the
  // mass-damped target: the same bytes in both builds, for both retractions.
  if (!SlabLanes::avx2_available())
    GTEST_SKIP() << "no AVX2 lanes (this CPU, or a sanitizer build: core/lanes.hpp)";
  const RandomSegments rs(13, 5);
  const model::Loads loads;
  const auto for_group = [&](auto group) {
    using G = decltype(group);
    const dcel::DiscreteModel<G> model(rs.beams[0], rs.segments, loads,
                                       mesh::SpacetimeMesh(10, 13, 0.005, 0.1));
    SlabLanes base = *SlabLanes::make(model, dcel::NodeEquation::time, {});
    ASSERT_TRUE(base.per_node_laws());
    SlabLanes space = *SlabLanes::make(model, dcel::NodeEquation::space, {}), space_avx = space;
    ASSERT_TRUE(space.per_slab_laws());
    space.isa = SlabLanes::Isa::baseline;
    space_avx.isa = SlabLanes::Isa::avx2;
    for (int slab : {1, 2, 5}) {
      const SlabOutput a = run_slab(space, slab, 13, 0, 44),
                       b = run_slab(space_avx, slab, 13, 0, 44);
      EXPECT_TRUE(same_bytes(a.flux, b.flux) && same_bytes(a.flux_tilde, b.flux_tilde));
      EXPECT_TRUE(same_bytes(a.y, b.y) && same_bytes(a.next, b.next));
      for (int i = 0; i < 13; ++i) EXPECT_EQ(a.reports[i].iterations, b.reports[i].iterations);
    }
    for (const double c : {0.0, 0.1}) {
      base.mass_c = c;
      SlabLanes avx = base;
      base.isa = SlabLanes::Isa::baseline;
      avx.isa = SlabLanes::Isa::avx2;
      for (int slab : {1, 2, 5}) {
        const SlabOutput a = run_slab(base, slab, 13, 1, 43), b = run_slab(avx, slab, 13, 1, 43);
        EXPECT_TRUE(same_bytes(a.flux, b.flux) && same_bytes(a.flux_tilde, b.flux_tilde));
        EXPECT_TRUE(same_bytes(a.y, b.y) && same_bytes(a.next, b.next));
        for (int i = 1; i < 13; ++i) {
          EXPECT_TRUE(a.reports[i].converged);
          EXPECT_EQ(a.reports[i].iterations, b.reports[i].iterations);
        }
      }
    }
  };
  for_group(lie::Se3Cayley{});
  for_group(lie::Se3Exp{});
}

}  // namespace
}  // namespace field::march
