#include "libfield/model/loads.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"

namespace field::model {

TimeTable::TimeTable(std::vector<double> times, std::vector<Vec6> values)
    : t_(std::move(times)), v_(std::move(values)) {
  FIELD_CHECK(!t_.empty(), "load table: at least one row is needed");
  FIELD_CHECK(t_.size() == v_.size(),
              "load table: " << t_.size() << " times but " << v_.size() << " values");
  for (size_t k = 0; k < t_.size(); ++k) {
    FIELD_CHECK(std::isfinite(t_[k]) && v_[k].allFinite(),
                "load table: row " << k << " is not finite (t = " << t_[k] << ")");
    if (k > 0)
      FIELD_CHECK(t_[k] > t_[k - 1], "load table: times must increase strictly; row "
                                         << k << " has t = " << t_[k] << " after " << t_[k - 1]);
  }
}

Vec6 TimeTable::at(double t) const {
  // A NaN time fails both end tests below and upper_bound would return end(): reading past the
  // table. +-inf is fine (the end values are held).
  FIELD_CHECK(!std::isnan(t), "load table: evaluated at time t = " << t);
  if (t <= t_.front()) return v_.front();
  if (t >= t_.back()) return v_.back();
  const size_t k = static_cast<size_t>(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin());
  const double w = (t - t_[k - 1]) / (t_[k] - t_[k - 1]);
  return (1.0 - w) * v_[k - 1] + w * v_[k];
}

namespace {
// Body covector of a wrench given in `frame` at configuration g, theory §1.4.
Vec6 to_body(const lie::SE3& g, LoadFrame frame, const Vec6& w) {
  if (frame == LoadFrame::body) return w;
  Vec6 out;
  out << g.R.transpose() * w.head<3>(), g.R.transpose() * w.tail<3>();
  return out;
}
}  // namespace

Vec6 Loads::distributed_body(const lie::SE3& g, int a, int A, double t) const {
  Vec6 q = Vec6::Zero();
  for (const DistributedLoad& load : distributed) {
    const int last = load.a_last < 0 ? A - 1 : load.a_last;
    if (a >= load.a_first && a <= last) q += to_body(g, load.frame, load.wrench.at(t));
  }
  return q;
}

Vec6 Loads::point_body(const lie::SE3& g, int a, double t) const {
  Vec6 q = Vec6::Zero();
  for (const PointLoad& load : point) {
    if (!load.end) {
      if (load.a == a) q += to_body(g, load.frame, load.wrench.at(t));
    } else if (load.a == a || load.a - 1 == a) {  // theory (4.13): W/2 on A-1 and on A
      q += 0.5 * to_body(g, load.frame, load.wrench.at(t));
    }
  }
  return q;
}

Vec6 Loads::static_point_body(const lie::SE3& g, int a, double t) const {
  Vec6 q = Vec6::Zero();
  for (const PointLoad& load : point)
    if (load.a == a) q += to_body(g, load.frame, load.wrench.at(t));
  return q;
}

}  // namespace field::model
