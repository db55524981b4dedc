#pragma once
/// The planar beam of theory §1.7 as a case (`theory = "planar_beam"`, meshes/README.md): the
/// SE(3) case keys with the in-plane subset. The plane is the world's x-y plane with rotations
/// about z, as march::PlanarEmbedding writes it: the planar axis d1 is the SE(3) beam's d3, the
/// planar d2 its d1, the normal its d2. So the planar law is (EI, EA, GA) = (C22, C66, C44) and
/// (rho I, rho A) = (J22, J44 = J66) of the case's section law (the bending about d2, the axial
/// and the in-plane shear), gravity has no z component, and row 0 is straight in the plane.
/// check_planar_case refuses what the planar beam does not support yet, naming file, line, key.
#include <toml++/toml.h>

#include <optional>
#include <type_traits>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/model/planar_beam_density.hpp"

namespace field::io {

/// Throws field::Error (file:line: key = value: why) for a planar-beam case key the planar beam
/// does not support: an exponential retraction, a [reconstruct] method other than "space",
/// prescribed rows of a space march, a section table or a non-diagonal law, two different rho A, a
/// [shape], prescribed ends, a row 0 or velocity other than straight and at rest in the plane,
/// gravity along z, loads other than gravity, [damping], [static].
void check_planar_case(const toml::table& root, const CaseSpec& c);

/// The planar beam's space march (`field reconstruct`, theory §6.2) from the tip data of the SE(3)
/// beam in the plane (io::space_march_input): every tip pose and strain must lie in the plane to
/// kPlanarTolerance (the entries of d1, d2 - e3, d3 out of the plane, z/L, Omega1 L, Omega3 L,
/// Gamma2: round-off of the tip file's quaternions and numbers is ~1e-16), then is projected to
/// SE(2) (march::project_planar, project_planar_body). Rows j = 0 and J are free (zero momentum;
/// check_planar_case refuses prescribed rows). Throws field::Error naming the tip file, the row
/// j of the grid, the value and what to do.
inline constexpr double kPlanarTolerance = 1e-9;
march::SpaceMarchInputOf<lie::Se2Cayley> planar_space_input(const Problem& problem,
                                                            const SpaceSetup& setup);

/// The in-plane subset of an SE(3) section law (see above).
model::PlanarSection planar_section(const model::SectionLaw& law);

/// The planar beam of a (checked) planar case: its density, model and march input on SE(2). The
/// SE(3) `problem` is the same beam embedded in the plane, whose model the writers use. Not
/// copyable: `model` refers to `density` and `loads`.
struct PlanarProblem {
  explicit PlanarProblem(const Problem& problem);
  PlanarProblem(const PlanarProblem&) = delete;
  PlanarProblem& operator=(const PlanarProblem&) = delete;

  model::PlanarBeamDensity density;
  model::Loads loads;  ///< none: gravity is the density's potential
  dcel::DiscreteModel<lie::Se2Cayley> model;
  /// Row 0 straight from [initial] origin along axis (node a at s_a, theory §3.4), at rest; or
  /// with [initial] checkpoint the state it holds (input.resume), projected to the plane. Empty
  /// for a space march (march = "space": planar_space_input).
  march::TimeMarchInputOf<lie::Se2Cayley> input;
};

/// The SE(3) group of a march's outputs on G (strains, stresses, tip data, frames): G, or for the
/// planar beam (SE(2)) the Cayley group of the SE(3) beam it is embedded in.
template <class G>
struct OutputGroup {
  using type = G;
};
template <>
struct OutputGroup<lie::Se2Cayley> {
  using type = lie::Se3Cayley;
};

/// The model the outputs of a march with `model` take: the march's own, or for the planar beam
/// the SE(3) beam of the case in the plane (`problem`'s density, loads and mesh). Not copyable.
template <class G>
class OutputModel {
 public:
  using W = typename OutputGroup<G>::type;
  OutputModel(const Problem& problem, const dcel::DiscreteModel<G>& model) {
    if constexpr (std::is_same_v<G, W>) {
      model_ = &model;
    } else {
      embedded_.emplace(problem.density, problem.loads, problem.mesh);
      model_ = &*embedded_;
    }
  }
  OutputModel(const OutputModel&) = delete;
  OutputModel& operator=(const OutputModel&) = delete;
  const dcel::DiscreteModel<W>& get() const { return *model_; }

 private:
  std::optional<dcel::DiscreteModel<W>> embedded_;
  const dcel::DiscreteModel<W>* model_ = nullptr;
};

/// Calls f(model, input) with the discrete model and the time-march input of the case's theory
/// and group: the one place where a time-march case's theory and retraction become the type G
/// (dcel::DiscreteModel<G>, march::TimeMarchInputOf<G>). f is a generic lambda.
template <class F>
decltype(auto) with_time_march(const Problem& problem, F&& f) {
  if (problem.spec.theory == Theory::planar_beam) {
    const PlanarProblem planar(problem);
    return f(planar.model, planar.input);
  }
  return lie::with_group(problem.spec.retraction, [&](auto group) -> decltype(auto) {
    using G = decltype(group);
    const dcel::DiscreteModel<G> model = problem.model<G>();
    return f(model, time_march_input<G>(problem));
  });
}

}  // namespace field::io
