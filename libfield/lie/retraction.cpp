#include "libfield/lie/retraction.hpp"

#include "libfield/core/error.hpp"
#include "libfield/lie/cayley.hpp"
#include "libfield/lie/exponential.hpp"

namespace field::lie {

Retraction Retraction::from_name(const std::string& name) {
  if (name == "cayley") return Retraction(RetractionKind::cayley);
  if (name == "exp" || name == "exponential") return Retraction(RetractionKind::exponential);
  FIELD_CHECK(false, "unknown retraction '" << name << "': use \"cayley\" or \"exponential\"");
}

std::string Retraction::name() const {
  return kind_ == RetractionKind::cayley ? "cayley" : "exponential";
}

SE3 Retraction::tau(const Vec6& x) const {
  return kind_ == RetractionKind::cayley ? cay(x) : exp_map(x);
}

Vec6 Retraction::tau_inv(const SE3& g) const {
  return kind_ == RetractionKind::cayley ? cay_inv(g) : log_map(g);
}

Mat6 Retraction::dtau(const Vec6& x) const {
  return kind_ == RetractionKind::cayley ? dcay(x) : dexp(x);
}

Mat6 Retraction::dtau_inv(const Vec6& x) const {
  return kind_ == RetractionKind::cayley ? dcay_inv(x) : dexp_inv(x);
}

Vec6 Retraction::dtau_inv_dual(const Vec6& x, const Vec6& p) const {
  return kind_ == RetractionKind::cayley ? dcay_inv_dual(x, p) : dexp_inv_dual(x, p);
}

Mat6 Retraction::newton_M(const Vec6& x, const Vec6& p) const {
  return kind_ == RetractionKind::cayley ? cay_newton_M(x, p) : exp_newton_M(x, p);
}

}  // namespace field::lie
