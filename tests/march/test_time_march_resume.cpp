// A time march continued from its state (march::MarchState, time_march's `end` and
// TimeMarchInput::resume): the rows after the state are bit for bit those of the march that
// never stopped, for a march that completed at J1 < J (continued on the longer mesh) and for one
// stopped between rows by MarchOptions::stop; on one and two threads, on the free flight, the
// clamped cantilever under gravity and with the exponential retraction. The state after the
// continued march equals the uninterrupted march's.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <map>

#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/problems.hpp"

namespace field::march {
namespace {

// Every row received, by index.
struct Rows final : SlabObserver {
  std::map<int, std::vector<lie::SE3>> rows;
  std::atomic<bool>* stop = nullptr;
  int stop_after = -1;
  void slab(int j, const std::vector<lie::SE3>& row, const SlabStats&) override {
    rows[j] = row;
    if (stop != nullptr && j == stop_after) stop->store(true);
  }
};

bool same_bits(const lie::SE3& g, const lie::SE3& h) {
  return std::memcmp(g.R.data(), h.R.data(), 9 * sizeof(double)) == 0 &&
         std::memcmp(g.r.data(), h.r.data(), 3 * sizeof(double)) == 0;
}

template <class G>
void expect_continuation(const model::BeamDensity& beam, const model::Loads& loads,
                         mesh::SpacetimeMesh grid, const TimeMarchInput& input, int J1, bool stop,
                         int threads) {
  SCOPED_TRACE(::testing::Message()
               << "J1 " << J1 << (stop ? " stopped" : " completed") << " threads " << threads);
  MarchOptions options;
  options.threads = threads;
  const dcel::DiscreteModel whole_model(beam, loads, G{}, grid);
  Rows whole;
  MarchState<lie::SE3, Vec6> whole_end;
  ASSERT_TRUE(time_march(whole_model, input, {&whole}, options, &whole_end).completed);
  EXPECT_EQ(whole_end.k, grid.J());

  // The first part: a shorter mesh, or the whole one stopped after row J1.
  const mesh::SpacetimeMesh part_mesh(stop ? grid.J() : J1, grid.A(), grid.dt(), grid.ds());
  const dcel::DiscreteModel part_model(beam, loads, G{}, part_mesh);
  Rows part;
  std::atomic<bool> flag{false};
  MarchOptions part_options = options;
  if (stop) {
    part.stop = &flag;
    part.stop_after = J1;
    part_options.stop = &flag;
  }
  MarchState<lie::SE3, Vec6> state;
  const MarchResult r = time_march(part_model, input, {&part}, part_options, &state);
  EXPECT_TRUE(stop ? r.interrupted : r.completed);
  ASSERT_EQ(state.k, J1);

  TimeMarchInput rest_input = input;
  rest_input.resume = state;
  Rows rest;
  MarchState<lie::SE3, Vec6> rest_end;
  ASSERT_TRUE(time_march(whole_model, rest_input, {&rest}, options, &rest_end).completed);
  ASSERT_EQ(rest.rows.begin()->first, J1 - 1);  // rows J1-1 and J1 again, then J1+1..J
  ASSERT_EQ(rest.rows.rbegin()->first, grid.J());
  for (const auto& [j, row] : rest.rows)
    for (int a = 0; a <= grid.A(); ++a)
      EXPECT_TRUE(same_bits(row[a], whole.rows[j][a])) << "row " << j << " node " << a;
  EXPECT_EQ(rest_end.k, whole_end.k);
  for (int a = 0; a <= grid.A(); ++a) {
    EXPECT_EQ(rest_end.y[a], whole_end.y[a]);
    EXPECT_EQ(rest_end.back1[a], whole_end.back1[a]);
    EXPECT_EQ(rest_end.back2[a], whole_end.back2[a]);
  }
  // The velocities the march solved are not tau^{-1} of the rows' difference to the bit: a state
  // needs them (field.csv, even if its rows were exact, would not do).
  bool differs = false;
  for (int a = 0; a < grid.A(); ++a)
    differs = differs || mesh::convected<G>(state.prev[a], state.cur[a], grid.dt()) != state.y[a];
  EXPECT_TRUE(differs);
}

TEST(TimeMarchResume, TheContinuedRowsAreTheUninterruptedMarchs) {
  test::FreeFlight ff;
  ff.J = 40;
  const model::Loads none;
  for (const int threads : {1, 2})
    for (const bool stop : {false, true})
      expect_continuation<lie::Se3Cayley>(test::soft_beam(), none, ff.mesh(), ff.input(), 17, stop,
                                          threads);
  expect_continuation<lie::Se3Exp>(test::soft_beam(), none, ff.mesh(), ff.input(), 2, false, 1);
  test::CantileverGravity cg;
  cg.J = 60;
  expect_continuation<lie::Se3Cayley>(cg.beam(), none, cg.mesh(), cg.input(), 31, false, 1);
}

TEST(TimeMarchResume, AStateOutsideTheMeshIsRefused) {
  test::FreeFlight ff;
  ff.J = 10;
  const model::Loads none;
  const model::BeamDensity beam = test::soft_beam();
  const dcel::DiscreteModel model(beam, none, lie::Se3Cayley{}, ff.mesh());
  MarchState<lie::SE3, Vec6> state;
  Rows rows;
  ASSERT_TRUE(time_march(model, ff.input(), {&rows}, {}, &state).completed);
  TimeMarchInput input = ff.input();
  input.resume = state;
  input.resume.k = 11;
  EXPECT_THROW(check_time_march(model, input), Error);
  input.resume = state;
  input.resume.back2.pop_back();
  EXPECT_THROW(check_time_march(model, input), Error);
}

}  // namespace
}  // namespace field::march
