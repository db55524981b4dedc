#pragma once
/// One interface for the two retractions tau: se(3) -> SE(3) of theory §2: Cayley (theory §2.1) and
/// the exponential (theory §2.2). Both satisfy tau(-x) = tau(x)^{-1} and
/// dtau^{-1}_x Ad_{tau(x)} = dtau^{-1}_{-x} (theory §0.2).
#include <string>

#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"

namespace field::lie {

enum class RetractionKind { cayley, exponential };

/// A retraction chosen at run time. Cheap to copy; each call dispatches on the kind.
class Retraction {
 public:
  explicit Retraction(RetractionKind kind = RetractionKind::cayley) : kind_(kind) {}
  /// Parses "cayley" or "exp" / "exponential"; throws field::Error naming the value otherwise.
  static Retraction from_name(const std::string& name);

  RetractionKind kind() const { return kind_; }
  /// "cayley" or "exponential".
  std::string name() const;

  /// tau(x).
  SE3 tau(const Vec6& x) const;
  /// tau^{-1}(g).
  Vec6 tau_inv(const SE3& g) const;
  /// Right-trivialised derivative dtau_x.
  Mat6 dtau(const Vec6& x) const;
  /// dtau^{-1}_x.
  Mat6 dtau_inv(const Vec6& x) const;
  /// (dtau^{-1}_x)^T p for a covector p.
  Vec6 dtau_inv_dual(const Vec6& x, const Vec6& p) const;
  /// Newton helper M(x, p) = d/dx [(dtau^{-1}_x)^T p] (theory §2.1, §5).
  Mat6 newton_M(const Vec6& x, const Vec6& p) const;

 private:
  RetractionKind kind_;
};

}  // namespace field::lie
