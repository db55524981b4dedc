// The series diagnostics share the per-node work among threads and sum in node order: the same
// bits on 1 and 2 threads; a series stride reports rows (columns) 0, s, 2s, ... and the last,
// with the energy and momentum of stride 1, bit for bit, and the balance still at round-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "libfield/dcel/dissipation_series.hpp"
#include "libfield/lie/cayley.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

/// A clamped-free beam with gravity and loads of every kind on solved nodes, A nodes wide (the
/// diagnostics run on several threads from A >= kParallelMinNodes), marched and recorded.
template <class G = lie::Se3Cayley>
struct LoadedBeam {
  test::FreeFlight ff;
  model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  model::Loads loads;
  std::optional<dcel::DiscreteModel<G>> model;
  march::TimeMarchInput in;
  std::optional<march::FieldRecorder> recorder;
  // segmented: a law and a stress-free strain per segment (theory §1.6): the soft beam's J and C
  // scaled entrywise by factors in [0.7, 1.4], eta0 = E6 + curvatures up to 0.2/m.
  std::vector<model::BeamDensity> beams;
  std::vector<const model::Density<lie::Se3Group>*> segments;

  LoadedBeam(int A, int J, bool segmented = false, model::Damping damping = {}) {
    ff.A = A;
    ff.J = J;
    loads = test::mixed_loads(A);
    loads.damping = damping;
    loads.point.erase(loads.point.begin());  // loads on solved nodes only
    loads.point.pop_back();
    if (segmented) {
      test::Random rnd(17);
      beams.reserve(A);
      for (int a = 0; a < A; ++a) {
        model::SectionLaw law = beam.law();
        for (int i = 0; i < 6; ++i) {
          law.C(i, i) *= std::exp2(rnd.uniform(-0.5, 0.5));
          law.J(i, i) *= std::exp2(rnd.uniform(-0.5, 0.5));
        }
        Vec6 eta0 = model::BeamDensity::E6();
        eta0.head<3>() += rnd.vec3(0.2);
        beams.emplace_back(law, Vec3(0.0, 0.0, -9.81), eta0);
        segments.push_back(&beams.back());
      }
      model.emplace(beam, segments, loads, ff.mesh());
    } else {
      model.emplace(beam, loads, ff.mesh());
    }
    in = ff.input();
    in.left = march::SideSpec::clamped(in.row0[0]);
    recorder.emplace(model->mesh(), true);
    const march::MarchResult r = march::time_march(*model, in, {&*recorder});
    EXPECT_TRUE(r.completed);
  }

  std::vector<SlabRecord> series(const SeriesOptions& options) const {
    std::vector<SlabRecord> rows;
    SlabDiagnostics d(
        *model, SlabAxis::row, march::time_boundary(in),
        [&rows](const SlabRecord& r) { rows.push_back(r); }, options);
    const mesh::Field& f = recorder->field();
    for (int j = 0; j <= ff.J; ++j) {
      std::vector<lie::SE3> row(ff.A + 1);
      for (int a = 0; a <= ff.A; ++a) row[a] = f(j, a);
      d.slab(j, row, recorder->stats()[j]);
    }
    return rows;
  }
};

void expect_same_bits(const SlabRecord& x, const SlabRecord& y) {
  EXPECT_EQ(x.index, y.index);
  EXPECT_EQ(x.coordinate, y.coordinate);
  EXPECT_EQ(x.energy, y.energy) << "row " << x.index;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(x.momentum(i), y.momentum(i)) << "row " << x.index;
  EXPECT_EQ(x.newton.max_iterations, y.newton.max_iterations);
  EXPECT_EQ(x.newton.mean_iterations, y.newton.mean_iterations);
}

/// b's time diagnostics on one and two threads: the same bits on every row, the balance
/// included; the two series are left in one and two for the caller's own checks.
void expect_same_bits_on_one_and_two_threads(const LoadedBeam<>& b, std::vector<SlabRecord>& one,
                                             std::vector<SlabRecord>& two) {
  one = b.series({1, 1});
  two = b.series({1, 2});
  ASSERT_EQ(two.size(), one.size());
  for (size_t i = 0; i < one.size(); ++i) {
    expect_same_bits(one[i], two[i]);
    EXPECT_EQ(one[i].balance, two[i].balance) << "row " << one[i].index;
  }
}

TEST(SlabSeries, TimeDiagnosticsHaveTheSameBitsOnOneAndTwoThreads) {
  const LoadedBeam b(march::kParallelMinNodes + 13, 12);  // parallel, odd size
  std::vector<SlabRecord> one, two;
  ASSERT_NO_FATAL_FAILURE(expect_same_bits_on_one_and_two_threads(b, one, two));
  ASSERT_EQ(one.size(), 12u);
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i].index >= 1) {
      EXPECT_LT(one[i].balance, 1e-12) << "row " << one[i].index;
    }
  }
}

// Damped (theory §4.7): D_j, the balance with the damping wrench and E_balance on 1 and 2 threads
// (the damping terms on lanes, SlabTermsLanes::damping), uniform and with a law per segment.
TEST(SlabSeries, DampedTimeDiagnosticsHaveTheSameBitsOnOneAndTwoThreads) {
  for (const bool segmented : {false, true}) {
    const LoadedBeam b(march::kParallelMinNodes + 13, 12, segmented, {0.4, 2e-4});
    std::vector<SlabRecord> one, two;
    ASSERT_NO_FATAL_FAILURE(expect_same_bits_on_one_and_two_threads(b, one, two));
    ASSERT_EQ(one.size(), 12u);
    for (size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(one[i].dissipated, two[i].dissipated) << "row " << one[i].index;
      EXPECT_EQ(one[i].energy_balance, two[i].energy_balance) << "row " << one[i].index;
      if (one[i].index >= 2) {
        EXPECT_GT(one[i].dissipated, 0.0) << "row " << one[i].index;
      }
      if (one[i].index >= 1) {
        EXPECT_LT(one[i].balance, 1e-12) << "row " << one[i].index;
      }
    }
  }
}

TEST(SlabSeries, TimeStrideThinsTheRowsAndKeepsTheirValues) {
  const LoadedBeam b(march::kParallelMinNodes + 13, 30);
  const std::vector<SlabRecord> all = b.series({1, 2}), thin = b.series({7, 2});
  ASSERT_EQ(all.size(), 30u);
  const std::vector<int> expected{0, 7, 14, 21, 28, 29};  // every 7th row and the last
  ASSERT_EQ(thin.size(), expected.size());
  for (size_t i = 0; i < thin.size(); ++i) {
    EXPECT_EQ(thin[i].index, expected[i]);
    expect_same_bits(thin[i], all[expected[i]]);
    if (thin[i].index >= 1) {
      EXPECT_GT(thin[i].balance, 0.0) << "row " << thin[i].index;  // computed, not left at 0
      EXPECT_LT(thin[i].balance, 1e-12) << "row " << thin[i].index;
    }
  }
  // A stride beyond the last row: rows 0 and J-1.
  const std::vector<SlabRecord> ends = b.series({1000, 1});
  ASSERT_EQ(ends.size(), 2u);
  expect_same_bits(ends[0], all[0]);
  expect_same_bits(ends[1], all[29]);
}

TEST(SlabSeries, RejectsAStrideBelowOne) {
  const LoadedBeam b(4, 2);
  EXPECT_THROW(b.series({0, 1}), Error);
}

/// |x - y| <= tolerance max(|x|, |y|): the lanes and the per-node path (SlabTermsLanes).
void expect_near_relative(double x, double y, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(x - y), tolerance * std::max(std::abs(x), std::abs(y))) << what;
}

// The series on lanes (the default for the beam, SlabTermsLanes) equal the per-node path
// (SeriesOptions::lanes = false, the reference) to round-off, for both retractions: energies to
// 1e-14 relative, momenta to 1e-13 of their largest component, balances at round-off in both.
// With a law per segment (theory §1.6; SlabTermsLanes gathers four laws per batch) as well, and
// damped (theory §4.7; the damping terms on lanes, SlabTermsLanes::damping, against
// dcel::DissipationSeries::triangle) by mass, stiffness and both: D_j to 1e-12 relative,
// E_balance = E - E_0 - W + D to 1e-12 of |E|, the balance with the damping wrench at round-off.
TEST(SlabSeries, LanesAgreeWithThePerNodePath) {
  const std::vector<std::pair<bool, model::Damping>> runs{
      {false, {}}, {true, {}}, {true, {0.4, 0.0}}, {true, {0.0, 2e-4}}, {true, {0.4, 2e-4}}};
  for (const auto& [segmented, damping] : runs) {
    const auto for_group = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
      using G = decltype(group);
      const LoadedBeam<G> b(march::kParallelMinNodes + 13, 12, segmented, damping);
      ASSERT_TRUE(SlabTermsLanes::make(*b.model, SlabAxis::row).has_value());
      const std::vector<SlabRecord> lanes = b.series({1, 2, true}), nodes = b.series({1, 2, false});
      ASSERT_EQ(lanes.size(), nodes.size());
      // largest relative differences
      double energy = 0.0, momentum = 0.0, dissipated = 0.0, energy_balance = 0.0;
      for (size_t i = 0; i < lanes.size(); ++i) {
        const std::string row = "row " + std::to_string(i);
        expect_near_relative(lanes[i].energy, nodes[i].energy, 1e-14, row);
        energy = std::max(energy,
                          std::abs(lanes[i].energy - nodes[i].energy) / std::abs(nodes[i].energy));
        const double scale = nodes[i].momentum.cwiseAbs().maxCoeff();
        EXPECT_LE((lanes[i].momentum - nodes[i].momentum).cwiseAbs().maxCoeff(), 1e-13 * scale)
            << row;
        momentum = std::max(momentum,
                            (lanes[i].momentum - nodes[i].momentum).cwiseAbs().maxCoeff() / scale);
        if (i >= 1) {
          EXPECT_LT(lanes[i].balance, 1e-12) << row;
          EXPECT_LT(nodes[i].balance, 1e-12) << row;
        }
        if (i >= 2) {
          EXPECT_EQ(nodes[i].dissipated > 0.0, damping.any()) << row;
        }
        expect_near_relative(lanes[i].dissipated, nodes[i].dissipated, 1e-12, row);
        if (nodes[i].dissipated != 0.0)
          dissipated = std::max(dissipated, std::abs(lanes[i].dissipated - nodes[i].dissipated) /
                                                nodes[i].dissipated);
        const double e = std::abs(lanes[i].energy_balance - nodes[i].energy_balance);
        EXPECT_LE(e, 1e-12 * std::abs(nodes[i].energy)) << row;
        energy_balance = std::max(energy_balance, e / std::abs(nodes[i].energy));
      }
      std::printf(
          "retraction %s%s, damping mass %g stiffness %g: energy %.2e, momentum %.2e relative, "
          "D_j %.2e relative, E_balance %.2e of |E|\n",
          lie::retraction_name<G>().c_str(), segmented ? " segments" : "", damping.mass,
          damping.stiffness, energy, momentum, dissipated, energy_balance);
    };
    for_group(lie::Se3Cayley{});
    for_group(lie::Se3Exp{});
  }
}

TEST(SlabSeries, SegmentedBeamHasTheSameBitsOnOneAndTwoThreads) {
  // A law per segment on lanes (theory §1.6): batches at fixed starts, sums in node order.
  const LoadedBeam b(march::kParallelMinNodes + 13, 12, true);
  ASSERT_FALSE(b.model->uniform());
  std::vector<SlabRecord> one, two;
  expect_same_bits_on_one_and_two_threads(b, one, two);
}

/// The space march of theory §11.4 with J = 100 nodes per column (parallel), A = 10 columns.
std::vector<SlabRecord> space_series(const SeriesOptions& options) {
  test::SpaceEvolution se;
  se.J = 100;
  se.T = se.J * (2.0 / 300.0);  // the dt of theory §11.4
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  const march::SpaceMarchInput in = se.input();
  std::vector<SlabRecord> cols;
  SlabDiagnostics d(
      model, SlabAxis::column, march::space_boundary(in),
      [&cols](const SlabRecord& c) { cols.push_back(c); }, options);
  EXPECT_TRUE(march::space_march(model, in, {&d}).completed);
  return cols;
}

TEST(SlabSeries, SpaceDiagnosticsSameBitsOnThreadsAndStride) {
  const std::vector<SlabRecord> one = space_series({1, 1}), two = space_series({1, 2}),
                                thin = space_series({4, 2});
  ASSERT_EQ(one.size(), 10u);
  ASSERT_EQ(two.size(), one.size());
  const auto same = [](const SlabRecord& x, const SlabRecord& y) {
    EXPECT_EQ(x.index, y.index);
    EXPECT_EQ(x.coordinate, y.coordinate);
    EXPECT_EQ(x.energy, y.energy) << "column " << x.index;
    for (int i = 0; i < 6; ++i) EXPECT_EQ(x.momentum(i), y.momentum(i)) << "column " << x.index;
  };
  for (size_t i = 0; i < one.size(); ++i) {
    same(one[i], two[i]);
    EXPECT_EQ(one[i].balance, two[i].balance) << "column " << one[i].index;
  }
  const std::vector<int> expected{0, 4, 8, 9};
  ASSERT_EQ(thin.size(), expected.size());
  for (size_t i = 0; i < thin.size(); ++i) {
    EXPECT_EQ(thin[i].index, expected[i]);
    same(thin[i], one[expected[i]]);
    if (thin[i].index >= 1) {
      EXPECT_LT(thin[i].balance, 1e-12) << "column " << thin[i].index;
    }
  }
}

// The space series on lanes equal the per-node path to round-off as well (columns). Here the
// stress C (eta - E6) is taken from eta ~ E6 (a strain of ~1e-4), so both paths carry an error
// of eps |C| |eta|, not eps |C (eta - E6)|: they agree to ~3e-12 relative (measured), tested at
// 1e-11.
TEST(SlabSeries, SpaceLanesAgreeWithThePerNodePath) {
  const std::vector<SlabRecord> lanes = space_series({1, 2, true}),
                                nodes = space_series({1, 2, false});
  ASSERT_EQ(lanes.size(), nodes.size());
  double energy = 0.0, momentum = 0.0;  // largest relative differences
  for (size_t i = 0; i < lanes.size(); ++i) {
    const std::string column = "column " + std::to_string(i);
    expect_near_relative(lanes[i].energy, nodes[i].energy, 1e-11, column);
    energy =
        std::max(energy, std::abs(lanes[i].energy - nodes[i].energy) / std::abs(nodes[i].energy));
    const double scale = nodes[i].momentum.cwiseAbs().maxCoeff();
    EXPECT_LE((lanes[i].momentum - nodes[i].momentum).cwiseAbs().maxCoeff(), 1e-11 * scale)
        << column;
    momentum =
        std::max(momentum, (lanes[i].momentum - nodes[i].momentum).cwiseAbs().maxCoeff() / scale);
    if (i >= 1) {
      EXPECT_LT(lanes[i].balance, 1e-12) << column;
    }
  }
  std::printf("space: energy %.2e, momentum %.2e relative\n", energy, momentum);
}

// A half turn between neighbours has no Cayley coordinates: the lanes give NaN there and the
// node is redone node by node, so the series throw the per-node path's error (lie::cay_inv).
TEST(SlabSeries, HalfTurnBetweenNeighboursThrowsAsThePerNodePath) {
  const LoadedBeam b(9, 2);
  const mesh::Field& f = b.recorder->field();
  std::vector<lie::SE3> row0(10), row1(10);
  for (int a = 0; a <= 9; ++a) {
    row0[a] = f(0, a);
    row1[a] = f(1, a);
  }
  lie::SE3 turn;  // a half turn about d1
  turn.R = Vec3(1.0, -1.0, -1.0).asDiagonal();
  row1[6] = row1[5] * turn;
  std::string messages[2];
  for (const bool lanes : {true, false}) {
    SlabDiagnostics d(*b.model, SlabAxis::row, march::time_boundary(b.in), nullptr, {1, 1, lanes});
    d.slab(0, row0, {});
    try {
      d.slab(1, row1, {});
      ADD_FAILURE() << "no error, lanes = " << lanes;
    } catch (const Error& e) {
      messages[lanes ? 0 : 1] = e.what();
    }
  }
  EXPECT_NE(messages[0].find("no Cayley coordinates"), std::string::npos) << messages[0];
  EXPECT_EQ(messages[0], messages[1]);
}

/// Two slabs of K+1 generic poses (turned, stretched and sheared), the second a small step on.
std::pair<std::vector<lie::SE3>, std::vector<lie::SE3>> generic_slabs(int K) {
  std::vector<lie::SE3> slab(K + 1), next(K + 1);
  for (int k = 0; k <= K; ++k) {
    const double s = 0.37 * k;
    Vec6 pose, step;
    pose << 0.3 * std::sin(s), 0.5 * std::cos(1.3 * s), 0.2 + 0.1 * s, 0.5 + s, 0.1 * s * s, -s;
    step << 0.01 * std::cos(s), -0.02, 0.015 * std::sin(2 * s), 0.03, 0.01 * s, -0.02 * s;
    slab[k] = lie::cay(pose);
    next[k] = slab[k] * lie::cay(step);
  }
  return {slab, next};
}

// The kernels of SlabTermsLanes give the same bits in their baseline and AVX2 builds (no FMA),
// and the per-node values of along_at, node_energy_at and triangle_at to round-off, for rows and
// columns, on slabs of generic poses (turned, stretched and sheared: no cancellation in
// eta - E6): 1e-13 relative, as g^{-1} g' subtracts positions of size ~4 that differ by ~0.03
// (eps 4 / 0.03 ~ 3e-14).
TEST(SlabSeries, LaneKernelsBaselineAndAvx2SameBitsAndNearThePerNodeValues) {
  const int K = 10;
  const LoadedBeam b(K, K);  // gravity: the node energies have a potential part
  const auto [slab, next] = generic_slabs(K);
  struct Out {
    std::vector<Vec6> next_along;
    std::vector<double> node, triangle;
    SlabTerms t;
  };
  for (const SlabAxis axis : {SlabAxis::row, SlabAxis::column}) {
    const std::string name = axis == SlabAxis::row ? "row: " : "column: ";
    std::optional<SlabTermsLanes> lanes = SlabTermsLanes::make(*b.model, axis);
    ASSERT_TRUE(lanes.has_value());
    std::vector<Vec6> along(K);  // the slab's along values, node by node
    for (int k = 0; k < K; ++k) along[k] = along_at(*b.model, axis, slab, k);
    const auto run = [&](march::SlabLanes::Isa isa) {
      lanes->isa() = isa;
      Out o{std::vector<Vec6>(K), std::vector<double>(K), std::vector<double>(K), {}};
      slab_terms_begin(*b.model, axis, 1, slab, o.t);
      SlabTermsLanes::Batch work{next.data(), o.next_along.data(), o.node.data(),    &o.t,
                                 slab.data(), along.data(),        o.triangle.data()};
      for (int k0 = 0; k0 < K; k0 += lanes::kWidth)
        lanes->nodes(work, k0, std::min(lanes::kWidth, K - k0));
      return o;
    };
    const Out o = run(march::SlabLanes::Isa::baseline);
    SlabTerms ref = slab_terms_begin(*b.model, axis, 1, slab);
    std::vector<Vec6> ref_next_along(K);
    for (int k = 0; k < K; ++k) ref_next_along[k] = along_at(*b.model, axis, next, k);
    for (int k = 0; k < K; ++k) {
      const std::string at = name + "node " + std::to_string(k);
      const double energy = triangle_at(*b.model, axis, 1, slab, along, next, k, ref);
      const auto near = [&at](const Vec6& x, const Vec6& y, const char* what) {
        EXPECT_LE((x - y).cwiseAbs().maxCoeff(), 1e-13 * y.cwiseAbs().maxCoeff()) << what << at;
      };
      near(o.next_along[k], ref_next_along[k], "along ");
      near(o.t.cross[k], ref.cross[k], "cross ");
      near(o.t.along[k], ref.along[k], "along term ");
      expect_near_relative(o.node[k], node_energy_at(*b.model, axis, 2, next, ref_next_along, k),
                           1e-13, "node energy " + at);
      expect_near_relative(o.triangle[k], energy, 1e-13, "triangle energy " + at);
    }
    if (!march::SlabLanes::avx2_available())
      GTEST_SKIP() << "no AVX2 lanes (this CPU, or a sanitizer build: core/lanes.hpp)";
    const Out o2 = run(march::SlabLanes::Isa::avx2);
    for (int k = 0; k < K; ++k) {
      EXPECT_EQ(o.node[k], o2.node[k]);
      EXPECT_EQ(o.triangle[k], o2.triangle[k]);
      for (int c = 0; c < 6; ++c) {
        EXPECT_EQ(o.next_along[k](c), o2.next_along[k](c));
        EXPECT_EQ(o.t.cross[k](c), o2.t.cross[k](c));
        EXPECT_EQ(o.t.along[k](c), o2.t.along[k](c));
      }
    }
  }
}

// The damping kernel (SlabTermsLanes::damping) against dcel::DissipationSeries::triangle, column
// by column (xi, eta, D1_d, D2_d, D3_d), on a beam with a law per segment, mass and stiffness
// damping (eta_prev given) and mass alone (none): 1e-13 of each vector's largest entry; the
// baseline and AVX2 builds give the same bits.
TEST(SlabSeries, DampingKernelBaselineAndAvx2SameBitsAndNearTheTriangleTerms) {
  const int K = 10;
  const LoadedBeam b(K, K, true, {0.4, 2e-4});
  const auto [row, next] = generic_slabs(K);
  std::vector<Vec6> eta_prev(K);
  // A strain a step before: 0.7 times the row's, so that the damping stress b (n(eta) -
  // n(eta_prev)) is not a small difference of the stresses (whose round-off both paths carry).
  for (int k = 0; k < K; ++k)
    eta_prev[k] = 0.7 * mesh::convected<lie::Se3Cayley>(row[k], row[k + 1], b.model->ds()) +
                  Vec6(0.01, -0.02, 0.03, 0.001 * k, -0.002, 0.003);
  using Series = dcel::DissipationSeries<lie::Se3Cayley>;
  const Series series(*b.model);
  std::optional<SlabTermsLanes> lanes = SlabTermsLanes::make(*b.model, SlabAxis::row);
  ASSERT_TRUE(lanes.has_value());
  for (const Vec6* prev :
       {static_cast<const Vec6*>(eta_prev.data()), static_cast<const Vec6*>(nullptr)}) {
    const std::string name = prev != nullptr ? "stiffness, " : "mass only, ";
    const auto run = [&](march::SlabLanes::Isa isa) {
      lanes->isa() = isa;
      Series::Row o;
      o.resize(K);
      const SlabTermsLanes::DampingBatch work{row.data(),   next.data(), prev,        o.xi.data(),
                                              o.eta.data(), o.D1.data(), o.D2.data(), o.D3.data()};
      for (int k0 = 0; k0 < K; k0 += lanes::kWidth)
        lanes->damping(work, k0, std::min(lanes::kWidth, K - k0));
      return o;
    };
    const Series::Row o = run(march::SlabLanes::Isa::baseline);
    Series::Row ref;
    ref.resize(K);
    for (int k = 0; k < K; ++k) {
      series.triangle(1, static_cast<size_t>(k), row, next, prev, ref);
      const std::string at = name + "triangle " + std::to_string(k);
      const auto near = [&at](const Vec6& x, const Vec6& y, const char* what) {
        EXPECT_LE((x - y).cwiseAbs().maxCoeff(), 1e-13 * y.cwiseAbs().maxCoeff()) << what << at;
      };
      near(o.xi[k], ref.xi[k], "xi ");
      near(o.eta[k], ref.eta[k], "eta ");
      near(o.D1[k], ref.D1[k], "D1 ");
      near(o.D2[k], ref.D2[k], "D2 ");
      if (prev != nullptr) {
        EXPECT_GT(ref.D3[k].cwiseAbs().maxCoeff(), 0.0) << at;
        near(o.D3[k], ref.D3[k], "D3 ");
      } else {
        EXPECT_EQ(o.D3[k], Vec6::Zero()) << at;
        EXPECT_EQ(ref.D3[k], Vec6::Zero()) << at;
      }
    }
    if (!march::SlabLanes::avx2_available())
      GTEST_SKIP() << "no AVX2 lanes (this CPU, or a sanitizer build: core/lanes.hpp)";
    const Series::Row o2 = run(march::SlabLanes::Isa::avx2);
    for (int k = 0; k < K; ++k)
      for (const auto& [x, y] :
           {std::pair{&o.xi, &o2.xi}, std::pair{&o.eta, &o2.eta}, std::pair{&o.D1, &o2.D1},
            std::pair{&o.D2, &o2.D2}, std::pair{&o.D3, &o2.D3}})
        for (int c = 0; c < 6; ++c) EXPECT_EQ((*x)[k](c), (*y)[k](c)) << name << "triangle " << k;
  }
}

}  // namespace
}  // namespace field::noether
