#pragma once
/// From a validated case (io/case_file) to what the drivers need: the beam density, the loads,
/// the grid and the discrete model, and the march inputs of theory §6 built from the case's
/// initial data, boundary choices and CSV files. All input files are read here, before any
/// output is written, so that bad data never leaves a partial run folder behind.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/io/magnitudes.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/beam_density.hpp"

namespace field::io {

/// Everything a march of the case needs besides its input data. Not copyable: the model of
/// with_model refers to `density` and `loads`. The constructor checks the numbers derived from the
/// case (T, L, the laws' diagonals, the stability numbers) for finiteness and range; throws
/// field::Error.
/// The section laws and reference strains of the segments a = 0..A-1 of a case (theory §1.6):
/// one entry each when the beam is uniform in that respect ([beam] section = "table" and
/// [shape] file or polyline give A), and the wave speeds of the step-size rules over all laws.
struct SegmentLaws {
  std::vector<model::SectionLaw> laws;
  std::vector<Vec6> reference_strains;
  model::WaveSpeeds speeds;
  /// [shape] polyline: the pose of node 0 in it (theory (1.6.4)), where the stress-free start
  /// puts the beam.
  std::optional<lie::SE3> shape_base;
  /// One law and one reference strain: a uniform model (the lane kernels' fast path).
  bool uniform() const { return laws.size() == 1 && reference_strains.size() == 1; }
};
/// Reads the case's [beam] table and [shape] file for A segments; per-segment data that is the
/// same for every segment collapses to one entry (the bits of the uniform path).
SegmentLaws segment_laws(const CaseSpec& spec);

struct Problem {
  explicit Problem(CaseSpec case_spec);
  /// The same problem on a smaller grid (rows 0..J, nodes 0..A), e.g. a run that stopped early.
  Problem(const Problem& other, int J, int A);
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;

 private:
  void make_segments();

 public:
  CaseSpec spec;
  SegmentLaws segment_data;
  /// The beam's density: every segment's when segment_data.uniform(), else segment 0's law and
  /// reference strain with the wave speeds of all segments.
  model::BeamDensity density;
  model::Loads loads;
  mesh::SpacetimeMesh mesh;
  /// One density per segment a = 0..A-1 when the beam is not uniform (theory §1.6), else empty;
  /// `segments` points into `segment_densities`.
  std::vector<model::BeamDensity> segment_densities;
  std::vector<const model::Density<lie::Se3Group>*> segments;

  /// The discrete model of the case for the group G: uniform, or with the segment densities.
  template <class G>
  dcel::DiscreteModel<G> model() const {
    if (segments.empty()) return dcel::DiscreteModel<G>(density, loads, mesh);
    return dcel::DiscreteModel<G>(density, segments, loads, mesh);
  }

  /// Calls f(model) with the discrete model of the case, a dcel::DiscreteModel<G> for the group
  /// and retraction G of its `retraction` key (lie::with_group, theory §2): where the case's
  /// choice becomes a type, once per command. f is a generic lambda; both instances must return
  /// the same type.
  template <class F>
  decltype(auto) with_model(F&& f) const {
    return lie::with_group(
        spec.retraction, [&](auto group) -> decltype(auto) { return f(model<decltype(group)>()); });
  }

  /// The boundary of the evolution the case marches (theory §4).
  mesh::Boundary boundary() const;
  /// Node 0 of the stress-free shape (theory (1.6.3)): the polyline's pose at s_0 for a [shape]
  /// polyline, else [initial] origin with d3 along axis.
  lie::SE3 stress_free_base() const;
  /// Stability numbers of theory §6 for this grid, from the density's wave speeds (or the given
  /// ones: the planar beam's, theory §1.7); a time march with A = 1 and a free end is a rigid
  /// body (march::StabilityNumbers::rigid_body).
  march::StabilityNumbers stability() const;
  march::StabilityNumbers stability(const model::WaveSpeeds& speeds) const;
};

/// kPositionsPerStep min(ds, c_E dt) [m] for the case (io/magnitudes.hpp, theory §12).
double position_limit(const Problem& problem);
/// io::check_positions (io/magnitudes.hpp) at position_limit(problem).
void check_positions(const Problem& problem, const std::vector<lie::SE3>& poses,
                     const std::string& what);
/// check_positions on both rows of a checkpoint's state (rows j-1 and j, io/checkpoint.hpp) of
/// the case's [initial] checkpoint.
void check_checkpoint_positions(const Problem& problem,
                                const march::MarchState<lie::SE3, Vec6>& state);

/// Rotation taking e3 to the unit vector `axis` (the smallest one; about e1 for axis = -e3).
Mat3 rotation_to_axis(const Vec3& axis);

/// The body velocities xi(0) = (omega, v) of nodes a = 0..A of [initial] velocity: zero, uniform
/// (`xi`) or from `velocity_file` (read here; errors name the file and the line).
std::vector<Vec6> initial_velocities(const CaseSpec& c);

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
/// The same from tip data already read as a table with the columns of the tip file
/// (io/tip_data.hpp; the Python module's arrays, docs/python.md): `tip.path` names it in messages.
SpaceSetup space_march_input(const Problem& problem, const CsvTable& tip);

/// The driven reconstruction ([reconstruct] method = "driven", docs/reconstruction.md): the time
/// march of theory §6.1 with the tip poses of `setup` prescribed as the end a = 0, the far end
/// free or clamped ([reconstruct] far_end), started at rest from the straight unstressed beam
/// along the tip's d3 at t = 0.
template <class G>
march::TimeMarchInput driven_march_input(const Problem& problem, const SpaceSetup& setup);

}  // namespace field::io
