#pragma once
/// The extensible cable of theory §1.8 as a case (`theory = "cable"`, meshes/README.md): the
/// [cable] table in place of [beam] (EA, rhoA, slack, reference_tension, free_end_direction), the
/// cable's [initial] (straight along `axis`, or the elastic catenary (1.8.9) from `origin` to
/// `end`; at rest, or with a uniform velocity, a rigid rotation or per-node velocities, theory
/// (1.8.10)), gravity from [loads]. A cable has positions only: its ends are "clamped" (a pin),
/// "free", or { prescribed = "path.csv" } (a driven end, columns t,x,y,z), and R^3 has one
/// retraction (tau(x) = x). check_cable_case refuses the keys the cable does not take, naming
/// file, line, key and value.
#include <toml++/toml.h>

#include <filesystem>
#include <optional>
#include <string>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/model/cable_density.hpp"
#include "libfield/model/elastic_catenary.hpp"

namespace field::io {

class TomlTable;

/// Reads the [cable] table into c.cable (parse_case, for theory = "cable").
void read_cable(TomlTable t, CaseSpec& c);

/// Reads the cable's [initial] table into c.cable and c.initial (parse_case, after [grid] and
/// [boundary]).
void read_cable_initial(std::optional<TomlTable> t, CaseSpec& c);

/// Throws field::Error (file:line: key = value: why) for a key of a cable case the cable does not
/// take: a retraction, [beam], [shape], loads other than gravity, [damping], [static]; in a space
/// march (`field reconstruct`) a [reconstruct] method other than "space", prescribed rows, the
/// [tip] keys of the beam's prediction (theory §6.3: noise_position, noise_angle, noise_strain,
/// max_predicted_error) and strain_at = "tip_point" (theory §6.6); and for a [cable] table in a
/// case of another theory.
void check_cable_case(const toml::table& root, const CaseSpec& c);

/// The elastic catenary (1.8.9) of a checked cable case with [initial] configuration =
/// "catenary": in the vertical plane (up = -gravity) through its supports [initial] origin and end.
model::ElasticCatenary case_catenary(const CaseSpec& c);

/// The cable of a (checked) cable case: its density, grid, model and time-march input on R^3
/// (empty for a space march: io::plain_space_input). Not copyable: `model` refers to `density` and
/// `loads`.
struct CableProblem {
  explicit CableProblem(const CaseSpec& spec);
  CableProblem(const CableProblem&) = delete;
  CableProblem& operator=(const CableProblem&) = delete;

  CaseSpec spec;
  model::CableDensity density;
  model::Loads loads;  ///< none: gravity is the density's potential
  mesh::SpacetimeMesh mesh;
  dcel::DiscreteModel<lie::Rn<3>> model;
  /// Row 0 (straight or the catenary, node a at s_a, theory §3.4), the initial velocities
  /// (theory (1.8.10); row 1 instead with start = "first_order") and the ends: pins, free ends
  /// and driven ends (their paths sampled at t_j, j = 0..J).
  march::TimeMarchInputOf<lie::Rn<3>> input;

  /// True when a prescribed end moves (a driven end): the run reports the energy balance of
  /// theory (8.8) instead of the energy range.
  bool driven() const;

  /// The boundary of the march (theory §4).
  mesh::Boundary boundary() const { return march::time_boundary(input); }
  /// The stability numbers of theory §6.1 from the cable's wave speeds (1.8.6).
  march::StabilityNumbers stability() const {
    return march::stability_numbers(density.wave_speeds(), spec.dt, spec.ds);
  }
};

}  // namespace field::io
