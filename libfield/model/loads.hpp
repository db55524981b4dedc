#pragma once
/// External loads of theory §1.4 (discrete Lagrange-d'Alembert): distributed wrenches per unit
/// length and point wrenches at a node, in the world frame or body-fixed (follower), possibly
/// time-dependent. Covectors are (moment, force), moments about the centre-line point.
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/model/damping.hpp"

namespace field::model {

/// Piecewise-linear table of 6-vectors in time; holds the first/last value outside its range.
class TimeTable {
 public:
  /// Times strictly increasing, one value per time; throws field::Error otherwise.
  TimeTable(std::vector<double> times, std::vector<Vec6> values);
  /// A constant value for all times.
  static TimeTable constant(const Vec6& value) { return TimeTable({0.0}, {value}); }
  /// Linear interpolation at time t [s]; throws field::Error for a NaN time.
  Vec6 at(double t) const;
  const std::vector<double>& times() const { return t_; }
  const std::vector<Vec6>& values() const { return v_; }

 private:
  std::vector<double> t_;
  std::vector<Vec6> v_;
};

enum class LoadFrame {
  world,  ///< given in space; body covector (R^T M, R^T F)
  body,   ///< follower load, given in the body frame
};

/// Distributed wrench (moment, force) per unit length [N m/m, N/m] on nodes a_first..a_last.
struct DistributedLoad {
  LoadFrame frame = LoadFrame::world;
  TimeTable wrench = TimeTable::constant(Vec6::Zero());
  int a_first = 0;  ///< first loaded node
  int a_last = -1;  ///< last loaded node; -1: up to the last massive node A-1
};

/// Point wrench (moment, force) [N m, N] at node a, e.g. at a tip.
struct PointLoad {
  int a = 0;
  LoadFrame frame = LoadFrame::world;
  TimeTable wrench = TimeTable::constant(Vec6::Zero());
  /// An end wrench (case key [[loads.end]]) at the physical free end, a = A (theory §4.6): the
  /// time march shares it, W/2 on node A-1 and W/2 on node A, each in its node's frame (the
  /// virtual work of W on the end point between them); statics puts it whole on node A (§4.5).
  bool end = false;
};

/// All external loads of a problem.
struct Loads {
  std::vector<DistributedLoad> distributed;
  std::vector<PointLoad> point;
  /// Damping forces of the time march (theory §4.7): not loads, but they enter the discrete
  /// Lagrange-d'Alembert principle the same way; not part of empty().
  Damping damping;

  bool empty() const { return distributed.empty() && point.empty(); }
  /// Whether a point load acts on node a in the time march (an end wrench on a = A acts on A-1
  /// and A, theory §4.6).
  bool has_point_load(int a) const {
    for (const PointLoad& p : point)
      if (p.a == a || (p.end && p.a - 1 == a)) return true;
    return false;
  }
  /// Body covector per unit length of the distributed loads at node a (of A) and time t,
  /// theory §1.4; added to f(g) at vertex v1.
  Vec6 distributed_body(const lie::SE3& g, int a, int A, double t) const;
  /// Body covector of the point loads at node a and time t in the time march; added to G_n with
  /// weight dt. An end wrench contributes half of itself to nodes A-1 and A (theory §4.6).
  Vec6 point_body(const lie::SE3& g, int a, double t) const;
  /// The same for statics (theory §4.5): node A is the end and takes an end wrench whole.
  Vec6 static_point_body(const lie::SE3& g, int a, double t) const;
};

}  // namespace field::model
