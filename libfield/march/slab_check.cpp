#include "libfield/march/slab_check.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace field::march {

namespace {

// Nonzero when a value of g is not finite: its exponent bits are all ones. Integer operations
// without a dependency chain through floating-point adds, so that the loop is cheap.
inline std::uint64_t non_finite_bits(const lie::SE3& g) {
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ull;
  std::uint64_t bad = 0;
  const auto check = [&](double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bad |= static_cast<std::uint64_t>((bits & kExponent) == kExponent);
  };
  for (int k = 0; k < 9; ++k) check(g.R.data()[k]);
  for (int k = 0; k < 3; ++k) check(g.r[k]);
  return bad;
}
inline std::uint64_t non_finite_bits(const lie::SE2& g) {
  std::uint64_t bad = 0;
  for (int k = 0; k < 4; ++k) bad |= static_cast<std::uint64_t>(!std::isfinite(g.R.data()[k]));
  for (int k = 0; k < 2; ++k) bad |= static_cast<std::uint64_t>(!std::isfinite(g.r[k]));
  return bad;
}
inline std::uint64_t non_finite_bits(const Vec3& r) {
  return static_cast<std::uint64_t>(!r.allFinite());
}

// 1 + tr(R_a^T R_b) = 1 + sum of the products of the entries (three independent partial sums).
inline double one_plus_trace(const lie::SE3& a, const lie::SE3& b) {
  const double *A = a.R.data(), *B = b.R.data();
  const double c0 = A[0] * B[0] + A[1] * B[1] + A[2] * B[2];
  const double c1 = A[3] * B[3] + A[4] * B[4] + A[5] * B[5];
  const double c2 = A[6] * B[6] + A[7] * B[7] + A[8] * B[8];
  return 1.0 + (c0 + c1 + c2);
}
// In the plane the same condition (a relative turn below pi) reads 2 + tr(R_a^T R_b) > 0, theory
// §1.7 (the denominator of cay^{-1} on SE(2)); scaled by 1/2 it is 1 + cos of the turn.
inline double one_plus_trace(const lie::SE2& a, const lie::SE2& b) {
  return 1.0 + 0.5 * a.R.cwiseProduct(b.R).sum();
}
inline double one_plus_trace(const Vec3&, const Vec3&) {  // R^3: no rotation
  return 1.0;
}

// Whether every value of the slab's poses is finite: x * 0 is 0 for a finite x and NaN for an
// infinite or NaN one, so the sum of those products over the slab is NaN iff a value is not
// finite. Two values at a time, three sums: 1.5 multiplications and additions a value against
// 5 integer operations (non_finite_bits), with the same answer.
bool all_finite(const std::vector<lie::SE3>& values) {
  static_assert(sizeof(lie::SE3) == 12 * sizeof(double), "a pose is 12 doubles, R then r");
  using Pair = double __attribute__((vector_size(16)));
  Pair sum[3] = {};
  for (const lie::SE3& g : values)
    for (int k = 0; k < 6; ++k) {
      Pair v;
      std::memcpy(&v, g.R.data() + 2 * k, sizeof v);
      sum[k % 3] += v * 0.0;
    }
  const Pair total = sum[0] + sum[1] + sum[2];
  return total[0] == 0.0 && total[1] == 0.0;
}
template <class E>
bool all_finite(const std::vector<E>& values) {
  std::uint64_t bad = 0;
  for (const E& g : values) bad |= non_finite_bits(g);
  return bad == 0;
}

template <class E>
std::optional<SlabProblem> first_problem(const std::vector<E>& values, bool cayley) {
  const int n = static_cast<int>(values.size());
  // One pass over the slab for each test; the node is searched only when something is wrong.
  bool half_turn = false;
  if (cayley)
    for (int i = 0; i + 1 < n; ++i) half_turn |= !(one_plus_trace(values[i], values[i + 1]) > 0.0);
  const std::uint64_t bad = all_finite(values) ? 0 : 1;
  if (bad != 0)
    for (int i = 0; i < n; ++i)
      if (non_finite_bits(values[i]) != 0) return SlabProblem{i, FailureKind::non_finite};
  if (half_turn)
    for (int i = 0; i + 1 < n; ++i)  // as lie::cay_inv tests it
      if (!(one_plus_trace(values[i], values[i + 1]) > 0.0))
        return SlabProblem{i, FailureKind::half_turn};
  return std::nullopt;
}

}  // namespace

std::optional<SlabProblem> check_slab(const std::vector<lie::SE3>& values, bool cayley) {
  return first_problem(values, cayley);
}
std::optional<SlabProblem> check_slab(const std::vector<lie::SE2>& values, bool cayley) {
  return first_problem(values, cayley);
}
std::optional<SlabProblem> check_slab(const std::vector<Vec3>& values, bool) {
  return first_problem(values, false);
}

std::string describe(const SlabProblem& problem, const std::string& what, int slab,
                     const char* node_name) {
  std::ostringstream out;
  if (problem.kind == FailureKind::non_finite)
    out << what << " " << slab << ": node " << node_name << " = " << problem.node
        << " has a non-finite pose (inf or NaN)";
  else
    out << what << " " << slab << ": nodes " << node_name << " = " << problem.node << " and "
        << problem.node + 1
        << " are turned by a half turn against each other (1 + tr(R^T R') <= 0: no Cayley "
           "coordinates, theory §2.1)";
  return out.str();
}

}  // namespace field::march
