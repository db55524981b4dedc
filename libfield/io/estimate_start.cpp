#include "libfield/io/estimate_start.hpp"

#include "libfield/core/error.hpp"
#include "libfield/io/space_prediction.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"

namespace field::io {

namespace {

/// The space march where it is predicted reliable and completes, else the driven time march.
template <class G>
mesh::Field start_field(const Problem& problem, const dcel::DiscreteModel<G>& model,
                        const SpaceSetup& setup, int threads, std::string& which) {
  march::MarchOptions options;
  options.newton = problem.spec.newton;
  options.threads = threads;
  const std::string warning = march::space_march_warning(problem.stability(), problem.spec.dt);
  const march::SpacePrediction prediction = predict_space_march(problem, setup.input);
  const std::string refusal = march::refusal_message(prediction, tip_noise(problem.spec));
  if (warning.empty() && refusal.empty()) {
    march::FieldRecorder columns(problem.mesh, false);
    if (march::space_march(model, setup.input, {&columns}, options).completed) {
      mesh::Field rows(problem.mesh, mesh::Layout::by_row);
      for (int j = 0; j <= problem.spec.J; ++j)
        for (int a = 0; a <= problem.spec.A; ++a) rows(j, a) = columns.field()(j, a);
      which = "space";
      return rows;
    }
  }
  march::FieldRecorder rows(problem.mesh, true);
  const march::MarchResult result =
      march::time_march(model, driven_march_input<G>(problem, setup), {&rows}, options);
  FIELD_CHECK(result.completed, problem.spec.file.string()
                                    << ": the driven time march that starts the estimator "
                                       "failed at row "
                                    << result.last_slab
                                    << " (theory §6.1): choose dt <= ds / c_E (field info)");
  which = "driven";
  return rows.field();
}

}  // namespace

template <class G>
mesh::Field estimate_start_field(const Problem& problem, const dcel::DiscreteModel<G>& model,
                                 const SpaceSetup& setup, const estimate::Conditions& conditions,
                                 int threads, std::string& which) {
  mesh::Field values = start_field(problem, model, setup, threads, which);
  if (conditions.far_end == estimate::Conditions::FarEnd::clamped)
    for (int j = 1; j <= problem.spec.J; ++j) values(j, problem.spec.A) = values(0, problem.spec.A);
  return values;
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template mesh::Field estimate_start_field<G>(const Problem&, const dcel::DiscreteModel<G>&,  \
                                               const SpaceSetup&, const estimate::Conditions&, \
                                               int, std::string&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
