#pragma once
/// Case files (TOML, `format = 1`): everything the drivers of theory §6 can do, in one commented
/// file per case (meshes/<case>/case.toml; the format is described in meshes/README.md).
/// load_case validates the whole file and resolves it into a CaseSpec; it opens no data file
/// (the CSV files named by a case are read by io/case_setup when a march is prepared).
/// Every error names the file, the line, the key and the value, and says what is expected.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/core/parameter_values.hpp"
#include "libfield/core/types.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/io/slab_selection.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/model/beam_section.hpp"
#include "libfield/model/loads.hpp"
#include "libfield/model/section_law.hpp"

namespace field::io {

/// The field theory of a case (top-level key `theory`, docs/lie-groups.md): the SE(3) beam of
/// theory §1, the planar beam on SE(2) of theory §1.7 (its case rules: io/planar_case.hpp) or the
/// extensible cable on R^3 of theory §1.8 (io/cable_case.hpp), or a theory of the registry
/// (model/theory_registry.hpp), read, run and written with no code of its own
/// (io/registered_case.hpp).
enum class Theory { beam, planar_beam, cable, registered };

/// The extensible cable of theory §1.8 (`theory = "cable"`: the [cable] table and the cable's
/// [initial] keys, io/cable_case.hpp, meshes/README.md).
struct CableSpec {
  double EA = 0.0;                 ///< axial stiffness [N], W(nu) = 1/2 EA (nu - 1)^2 (1.8.2)
  double rhoA = 0.0;               ///< mass per unstretched length [kg/m]
  bool slack = false;              ///< W = 0 for nu < 1 (1.8.3)
  double reference_tension = 0.0;  ///< N_ref [N] of the transverse wave speed (1.8.6)
  /// d0 of the free-end ghost (1.8.7); absent: [initial] axis (straight) or e3.
  std::optional<Vec3> free_end_direction;
  /// Row 0: straight along [initial] axis, unstretched, or the elastic catenary (1.8.9) from
  /// [initial] origin to [initial] end.
  enum class Shape { straight, catenary };
  Shape shape = Shape::straight;
  Vec3 end = Vec3::Zero();  ///< catenary: the support of the node a = A [m]
  /// [initial] velocity r_t(0, s_a) of the nodes (theory (1.8.10)): zero; uniform (`xi`); a
  /// rigid rotation omega x (r - center) about the axis through `center`; or per node from
  /// [initial] velocity_file (columns a, v1, v2, v3).
  enum class Velocity { zero, uniform, rotation, file };
  Velocity velocity = Velocity::zero;
  Vec3 xi = Vec3::Zero();      ///< uniform: the velocity of every node [m/s]
  Vec3 omega = Vec3::Zero();   ///< rotation: angular velocity [rad/s]
  Vec3 center = Vec3::Zero();  ///< rotation: a point of the axis [m] (default [initial] origin)
};

/// A case of a registered theory (`theory = "NAME"`, io/registered_case.hpp): its name, the
/// parameters its factory read from [NAME] (every key explicit, defaults included) and the
/// uniform initial body velocity of [initial] (velocity = "uniform", xi; empty: at rest).
struct RegisteredSpec {
  std::string name;
  ParameterValues parameters;
  std::vector<double> xi;
};

/// Which driver a case is for: `field simulate` (time) or `field reconstruct` (space).
enum class MarchKind { time, space };

/// An end a = 0 / a = A of a time march.
struct EndSpec {
  enum class Kind { free, clamped, prescribed };
  Kind kind = Kind::free;
  std::filesystem::path file;  ///< prescribed: pose track, columns t,x,y,z,qw,qx,qy,qz (a
                               ///< cable: positions, columns t,x,y,z)
};

/// A row j = 0 / j = J of a space march.
struct RowSpec {
  enum class Kind { zero_momentum, prescribed };
  Kind kind = Kind::zero_momentum;
  std::filesystem::path file;  ///< prescribed: node poses, columns [j,]a,x,y,z,qw,qx,qy,qz
  std::optional<int> j;        ///< use only the lines of this j (e.g. a run's field.csv)
};

/// The stress-free shape of the beam, theory §1.6 ([shape]): the reference strain eta0 of every
/// segment, uniform, per segment from a file, or from a centreline polyline with frames (read by
/// io/case_setup).
struct ShapeSpec {
  enum class Kind { straight, uniform, file, polyline };
  Kind kind = Kind::straight;  ///< straight: eta0 = E6 (no [shape] table)
  Vec6 strain = (Vec6() << 0, 0, 0, 0, 0, 1).finished();  ///< uniform: eta0 = (Omega0, Gamma0)
  std::filesystem::path file;  ///< file: one row per segment, columns a,k1,k2,k3,g1,g2,g3;
                               ///< polyline: columns s,x,y,z,qw,qx,qy,qz (io/shape_polyline)
};

/// Initial data of a time march, theory §6.1.
struct InitialSpec {
  /// stress_free: the beam's stress-free shape, g^{a+1} = g^a tau(ds eta0_a) (theory §1.6).
  /// static_equilibrium ("static"): the equilibrium of the case's loads (theory §4.5, [static]),
  /// solved from the stress-free shape.
  enum class Configuration { straight, arc, file, stress_free, static_equilibrium };
  enum class Velocity { zero, uniform, file };
  enum class Start { second_order, first_order };
  Configuration configuration = Configuration::straight;
  Vec3 origin = Vec3::Zero();  ///< straight/arc: position of the end s = 0 [m]
  Vec3 axis = Vec3::UnitZ();   ///< straight/arc: direction of d3 at s = 0
  Vec6 strain = Vec6::Zero();  ///< arc: uniform strain eta (Omega, Gamma)
  std::filesystem::path file;  ///< file: node poses [j,]a,x,y,z,qw,qx,qy,qz
  std::optional<int> row;      ///< file: use only the lines with j = row (a run's field.csv)
  /// A run's checkpoint.txt (io/checkpoint.hpp): the march continues from its state; the other
  /// keys are not used.
  std::filesystem::path checkpoint;
  Velocity velocity = Velocity::zero;
  Vec6 velocity_value = Vec6::Zero();   ///< uniform: body velocity xi (omega, v)
  std::filesystem::path velocity_file;  ///< file: a,w1,w2,w3,v1,v2,v3
  /// second_order: theory §6.1 step 2; first_order: g_1 = g_0 tau(dt xi(0)) (exact for rigid
  /// motion).
  Start start = Start::second_order;
};

/// The static solver of a time-march case (theory §4.5; `field static`, [initial] configuration =
/// "static"): the [static] table.
struct StaticSpec {
  int steps = 1;            ///< load steps (each halved on failure)
  int max_iterations = 30;  ///< Newton iterations per load step
};

/// Declared noise of the tip data and the bound on the predicted far-end error of the space
/// march (theory §6.3; [tip] keys noise_position, noise_angle, noise_strain,
/// max_predicted_error).
struct TipNoiseSpec {
  double position = 0.0;             ///< [m] per sample (0: exact data)
  double angle = 0.0;                ///< [rad] per sample
  double strain = 0.0;               ///< [-] per sample
  double max_predicted_error = 0.0;  ///< [m]; resolved to 10 % of L when absent
};

/// How the tip file meets the grid and what its strain columns are (docs/reconstruction.md,
/// [tip] keys time_offset and strain_at).
struct TipDataSpec {
  enum class StrainAt { segment, tip_point };
  /// Sensor-clock time of the grid's t = 0 [s]; absent: the first sample's time.
  std::optional<double> time_offset;
  /// segment: the first segment's discrete strain eta_j^0 for this ds and retraction (theory
  /// §3.1, what `field simulate` writes); tip_point: the strain at the point s = 0, converted to
  /// the segment strain by theory §6.6.
  StrainAt strain_at = StrainAt::segment;
};

/// How `field reconstruct` rebuilds the beam ([reconstruct] keys method and far_end).
struct ReconstructSpec {
  enum class Method { space, driven, estimate };
  /// space: the space march of theory §6.2; driven: the time march of theory §6.1 with the tip
  /// prescribed as the end a = 0, started at rest (docs/reconstruction.md).
  Method method = Method::space;
  /// driven: the far end a = A, free or clamped (held at its initial pose).
  EndSpec::Kind far_end = EndSpec::Kind::free;
  /// estimate (theory §6.7, docs/reconstruction.md): far_end = "none" imposes nothing at a = A;
  /// rows j = 0 and j = J at rest (zero momentum, theory (4.5)-(4.6)) or free; the model-error
  /// level of the DCEL equations [N/m]; the iteration limit.
  bool far_end_none = false;
  bool first_at_rest = true;
  bool first_straight = false;  ///< first_row = "straight": at rest, straight and unstressed
  bool last_at_rest = true;
  double model_error = 1e-3;
  int max_iterations = 50;
  bool covariance = true;  ///< estimate: the standard deviations (field_std.csv, .vtu)
};

/// Output of a run (meshes/README.md, docs/output-format.md).
struct OutputSpec {
  /// "auto" VTK stride: about this many steps between the first and the last frame at most.
  static constexpr int kAutoVtkSteps = 400;
  int stride = 1;      ///< field.csv: every stride-th row (time) / column (space), and the last
  int vtk_stride = 0;  ///< VTK files: every vtk_stride-th row, and the last; 0 = "auto"
  bool csv = true;     ///< field.csv
  bool vtk = true;     ///< beam.pvd + frames/, spacetime.vtu
  bool tip = true;     ///< time march: tip.csv, input for `field reconstruct`
  /// time march: field_rates.csv, the velocity, strain and stress of field.csv's rows (opt-in:
  /// it more than doubles the CPU of the text outputs, docs/output-format.md)
  bool rates = false;
  /// time march: checkpoint.txt, the exact state after the last row (io/checkpoint.hpp)
  bool checkpoint = false;
  /// time_series.csv / space_series.csv: every series_stride-th line, and the last
  int series_stride = 1;
  /// The row stride of the VTK files of rows 0..J: vtk_stride, or for "auto" the smallest stride
  /// that writes at most kAutoVtkSteps + 2 frames (io::auto_stride).
  int vtk_rows_stride(int J) const {
    return vtk_stride > 0 ? vtk_stride : auto_stride(J, kAutoVtkSteps);
  }
};

/// A validated, resolved case. Paths are absolute.
struct CaseSpec {
  std::filesystem::path file;  ///< the case file itself
  std::string name;
  std::string description;
  MarchKind march = MarchKind::time;
  Theory theory = Theory::beam;
  lie::RetractionKind retraction = lie::RetractionKind::cayley;

  model::BeamSection section;    ///< geometric sections ("square", "circle", "explicit")
  model::BeamMaterial material;  ///< geometric sections
  /// [beam] section = "stiffness" or "matrix": the law given directly (section and material
  /// then unused); empty for the geometric sections.
  std::optional<model::SectionLaw> law;
  /// [beam] section = "table": the stiffnesses and inertias per segment or along s (theory §1.6;
  /// read by io/case_setup); `law`, `section` and `material` are then unused.
  std::filesystem::path section_table;
  /// The stress-free shape ([shape], theory §1.6).
  ShapeSpec shape;
  /// theory = "cable": the cable's law and row 0 (the beam's keys above are then unused).
  CableSpec cable;
  /// Theory::registered: the theory and its parameters (the beam's keys are then unused).
  RegisteredSpec registered;

  /// The section law of the density: `law`, or the geometric section's (theory §1).
  model::SectionLaw section_law() const {
    return law ? *law : model::SectionLaw::geometric(section, material);
  }
  /// The wave speeds of theory §1.3 for the step-size rules (§6).
  model::WaveSpeeds wave_speeds() const {
    return law ? model::wave_speeds(*law) : model::wave_speeds(section, material);
  }
  Vec3 gravity = Vec3::Zero();  ///< [m/s^2], world frame

  int A = 0;        ///< nodes a = 0..A
  int J = 0;        ///< rows j = 0..J
  double ds = 0.0;  ///< [m]
  double dt = 0.0;  ///< [s]

  EndSpec left, right;          ///< time march
  InitialSpec initial;          ///< time march
  StaticSpec statics;           ///< time march: the static solver ([static])
  std::filesystem::path tip;    ///< space march: tip CSV (t, pose, strain)
  TipNoiseSpec tip_noise;       ///< space march: noise levels and the error bound
  TipDataSpec tip_data;         ///< space march: time offset, where the tip strain is measured
  ReconstructSpec reconstruct;  ///< space march: the method of `field reconstruct`
  RowSpec first, last;          ///< space march

  model::Loads loads;
  dcel::NodeSolverOptions newton;
  OutputSpec output;

  /// Beam length L = (A + 1/2 [left free] - 1/2 [right free]) ds (theory §3.4); a space march
  /// has its tip prescribed and nothing at a = A: L = A ds; a driven reconstruction has its tip
  /// prescribed and its far end free ((A - 1/2) ds) or clamped (A ds).
  double length() const;
  double duration() const { return J * dt; }  ///< T = J dt [s]
  /// True when the case is run by a time march: march = "time", or a reconstruction with
  /// [reconstruct] method = "driven" (rows are the slabs of field.csv and of `field check`).
  bool marches_in_time() const {
    return march == MarchKind::time || reconstruct.method == ReconstructSpec::Method::driven;
  }
  /// The side kinds of the evolution the case marches (for residual checks and node positions).
  mesh::Side left_side() const;
  /// Every file the case reads: the case file and its data files (absolute paths).
  std::vector<std::filesystem::path> input_files() const;

  /// Where the case names each data file: (file, "case.toml:30: [initial] velocity_file").
  std::vector<std::pair<std::filesystem::path, std::string>> file_keys;
  /// The entry of file_keys for `file`, or "" (e.g. a case built in code).
  std::string named_by(const std::filesystem::path& file) const;
};

/// The case file's name of the case's theory: "beam", "planar_beam", "cable" or the registered
/// theory's name.
std::string theory_name(const CaseSpec& spec);

/// Runs `read` (a reader of the data file `file`); an error it throws gets the case line and key
/// that named the file added, before FIELD_CHECK's " [check ...]" suffix, keeping its type.
template <class Read>
auto named(const CaseSpec& c, const std::filesystem::path& file, Read read) -> decltype(read()) {
  const std::string key = c.named_by(file);
  const auto with_key = [&key](const std::string& message) {
    if (key.empty()) return message;
    const std::size_t at = std::min(message.rfind(" [check '"), message.size());
    return message.substr(0, at) + " (the file of " + key + ")" + message.substr(at);
  };
  try {
    return read();
  } catch (const IoError& e) {
    throw IoError(with_key(e.what()));
  } catch (const Error& e) {
    throw Error(with_key(e.what()));
  }
}

/// Reads and validates a case file; throws field::Error (content) or field::IoError (file). The
/// file must be a regular file of at most kCaseFileLimit bytes (io/input_file.hpp); its text is
/// checked by check_toml_text (io/toml_guard.hpp) before the TOML library parses it.
CaseSpec load_case(const std::filesystem::path& file);

/// The same from the text of a case file (`file` names it in messages and is the folder that
/// relative data paths start from); opens no file.
CaseSpec parse_case(const std::string& text, const std::filesystem::path& file);

/// Writes the resolved case in the case format (every key explicit, paths absolute); loading
/// the result gives the same CaseSpec. Used for run.toml.
void write_case(std::ostream& out, const CaseSpec& spec);

}  // namespace field::io
