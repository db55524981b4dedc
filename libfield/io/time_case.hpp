#pragma once
/// A time-march case of any theory as the run path takes it (apps/time_march_run.hpp): the case,
/// the discrete model and the march's input on the group G, the stability numbers of theory §6.1
/// from the theory's wave speeds, and the writers of its run folder (io/run_writers.hpp) on the
/// output group. with_time_case is the one place where a time-march case's theory and retraction
/// become the type G: the SE(3) beam (either retraction), the planar beam on SE(2) (theory §1.7)
/// the cable on R^3 (theory §1.8) or a registered theory (io/registered_case.hpp).
#include <functional>
#include <type_traits>

#include "libfield/io/cable_case.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/planar_case.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/io/run_writers.hpp"

namespace field::io {

template <class G>
struct TimeCase {
  /// The group of the outputs (io/planar_case.hpp): G, or SE(3) for the planar beam.
  using W = typename OutputGroup<G>::type;
  using Writers = RunWriters<lie::ElementOf<W>>;

  const CaseSpec& spec;
  const dcel::DiscreteModel<G>& model;
  const march::TimeMarchInputOf<G>& input;
  march::StabilityNumbers numbers;
  /// Creates the writers of the run folder.
  std::function<Writers(const RunWriterOptions&)> writers;

  /// The boundary of the march (theory §4).
  mesh::Boundary boundary() const { return march::time_boundary(input); }
};

/// The time case of a beam (SE(3), or the planar beam with `outputs` its SE(3) beam in the
/// plane): the stability numbers from the beam's wave speeds (the planar beam's own, theory §1.7).
/// The result refers to its arguments.
template <class G>
TimeCase<G> beam_time_case(const Problem& problem, const OutputModel<G>& outputs,
                           const dcel::DiscreteModel<G>& model,
                           const march::TimeMarchInputOf<G>& input) {
  march::StabilityNumbers numbers;
  if constexpr (std::is_same_v<G, typename OutputGroup<G>::type>)
    numbers = problem.stability();
  else
    numbers = problem.stability(model.density().wave_speeds());
  return {problem.spec, model, input, numbers, [&problem, &outputs](const RunWriterOptions& o) {
            return beam_run_writers(problem.spec, outputs.get(), o);
          }};
}

/// Calls f(time_case) with the io::TimeCase<G> of the checked case `spec`: a registered theory
/// (io::RegisteredProblem), the cable (io::CableProblem), the planar beam or the SE(3) beam with
/// the case's retraction (io::with_time_march). f is a generic lambda; every instance must return
/// the same type.
template <class F>
decltype(auto) with_time_case(const CaseSpec& spec, F&& f) {
  if (spec.theory == Theory::registered)
    return with_registered_problem(spec, [&](const auto& p) -> decltype(auto) {
      using G = typename std::decay_t<decltype(p.model)>::Group;
      return f(TimeCase<G>{p.spec, p.model, p.input, p.stability(),
                           [&p](const RunWriterOptions& o) { return p.writers(o); }});
    });
  if (spec.theory == Theory::cable) {
    const CableProblem cable(spec);
    return f(TimeCase<lie::Rn<3>>{
        cable.spec, cable.model, cable.input, cable.stability(),
        [&cable](const RunWriterOptions& o) { return cable_run_writers(cable, o); }});
  }
  const Problem problem(spec);
  return with_time_march(problem, [&](const auto& model, const auto& input) -> decltype(auto) {
    using G = typename std::decay_t<decltype(model)>::Group;
    const OutputModel<G> outputs(problem, model);
    return f(beam_time_case(problem, outputs, model, input));
  });
}

}  // namespace field::io
