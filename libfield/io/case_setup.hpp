#pragma once
/// From a validated case (io/case_file) to what the drivers need: the beam density, the loads,
/// the grid and the discrete model, and the march inputs of SPEC [S7] built from the case's
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

/// Everything a march of the case needs besides its input data. Not copyable: `model` refers to
/// `density` and `loads`.
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
  dcel::DiscreteModel model;

  /// The boundary of the evolution the case marches (SPEC [S5]).
  mesh::Boundary boundary() const;
  /// Stability numbers of SPEC [S7] for this beam and grid.
  march::StabilityNumbers stability() const;
};

/// Rotation taking e3 to the unit vector `axis` (the smallest one; about e1 for axis = -e3).
Mat3 rotation_to_axis(const Vec3& axis);

/// The initial rows, velocities and ends of a time march (reads the case's CSV files).
march::TimeMarchInput time_march_input(const Problem& problem);

/// The tip data and rows of a space march; `tip` overrides the case's tip file when not empty.
struct SpaceSetup {
  march::SpaceMarchInput input;
  std::string note;  ///< how the tip data met the grid (resampled or not), for the user
};
SpaceSetup space_march_input(const Problem& problem, const std::filesystem::path& tip = {});

}  // namespace field::io
