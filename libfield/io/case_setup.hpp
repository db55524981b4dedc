#pragma once
/// From a validated case (io/case_file) to what the drivers need: the beam density, the loads,
/// the grid and the discrete model, and the march inputs of theory §6 built from the case's
/// initial data, boundary choices and CSV files. All input files are read here, before any
/// output is written, so that bad data never leaves a partial run folder behind.
#include <filesystem>
#include <memory>
#include <string>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/beam_density.hpp"

namespace field::io {

/// Everything a march of the case needs besides its input data. Not copyable: the model of
/// with_model refers to `density` and `loads`. The constructor checks the numbers derived from the
/// case (T, L, the laws' diagonals, the stability numbers) for finiteness and range; throws
/// field::Error.
struct Problem {
  explicit Problem(CaseSpec case_spec);
  /// The same problem on a smaller grid (rows 0..J, nodes 0..A), e.g. a run that stopped early.
  Problem(const Problem& other, int J, int A);
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;

  CaseSpec spec;
  model::BeamDensity density;
  model::Loads loads;
  mesh::SpacetimeMesh mesh;

  /// Calls f(model) with the discrete model of the case, a dcel::DiscreteModel<G> for the group
  /// and retraction G of its `retraction` key (lie::with_group, theory §2): where the case's
  /// choice becomes a type, once per command. f is a generic lambda; both instances must return
  /// the same type.
  template <class F>
  decltype(auto) with_model(F&& f) const {
    return lie::with_group(spec.retraction, [&](auto group) -> decltype(auto) {
      return f(dcel::DiscreteModel<decltype(group)>(density, loads, mesh));
    });
  }

  /// The boundary of the evolution the case marches (theory §4).
  mesh::Boundary boundary() const;
  /// Stability numbers of theory §6 for this grid, from the density's wave speeds.
  march::StabilityNumbers stability() const;
};

/// The magnitude rule (docs/cli.md, "Magnitudes"): strains and rates are differences of
/// neighbouring poses divided by ds or dt, and the round-off of a difference of positions is
/// about 2.2e-16 |r|. Positions must stay within kPositionsPerStep min(ds, c_E dt) of the origin,
/// so that this round-off is at most 2.2e-5 of a step: strains keep four significant digits and
/// rates are resolved to 2.2e-5 c_E.
constexpr double kPositionsPerStep = 1e11;
/// kPositionsPerStep min(ds, c_E dt) [m] for the case.
double position_limit(const Problem& problem);
/// Throws field::Error naming `what` and the index of the first pose beyond position_limit().
void check_positions(const Problem& problem, const std::vector<lie::SE3>& poses,
                     const std::string& what);

/// Rotation taking e3 to the unit vector `axis` (the smallest one; about e1 for axis = -e3).
Mat3 rotation_to_axis(const Vec3& axis);

/// The initial rows, velocities and ends of a time march (reads the case's CSV files); the
/// positions of rows 0, 1 and prescribed ends obey the magnitude rule (check_positions).
template <class G>
march::TimeMarchInput time_march_input(const Problem& problem);

/// The tip data and rows of a space march; `tip` overrides the case's tip file when not empty.
/// The positions of the tip and of prescribed rows obey the magnitude rule (check_positions).
struct SpaceSetup {
  march::SpaceMarchInput input;
  std::string note;  ///< how the tip data met the grid (resampled or not), for the user
};
/// The time offset ([tip] time_offset) and the conversion of point strains ([tip] strain_at =
/// "tip_point", theory §6.6) are applied here.
SpaceSetup space_march_input(const Problem& problem, const std::filesystem::path& tip = {});

/// The driven reconstruction ([reconstruct] method = "driven", docs/reconstruction.md): the time
/// march of theory §6.1 with the tip poses of `setup` prescribed as the end a = 0, the far end
/// free or clamped ([reconstruct] far_end), started at rest from the straight unstressed beam
/// along the tip's d3 at t = 0.
template <class G>
march::TimeMarchInput driven_march_input(const Problem& problem, const SpaceSetup& setup);

}  // namespace field::io
