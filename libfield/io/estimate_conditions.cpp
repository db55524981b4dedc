#include "libfield/io/estimate_conditions.hpp"

namespace field::io {

bool is_estimate(const io::CaseSpec& spec) {
  return spec.march == io::MarchKind::space &&
         spec.reconstruct.method == io::ReconstructSpec::Method::estimate;
}

estimate::Conditions conditions_of(const io::ReconstructSpec& r) {
  estimate::Conditions c;
  c.first_at_rest = r.first_at_rest;
  c.first_straight = r.first_straight;
  c.last_at_rest = r.last_at_rest;
  c.far_end = r.far_end_none                            ? estimate::Conditions::FarEnd::none
              : r.far_end == io::EndSpec::Kind::clamped ? estimate::Conditions::FarEnd::clamped
                                                        : estimate::Conditions::FarEnd::free;
  return c;
}

estimate::Weights weights_of(const io::CaseSpec& spec) {
  const auto level = [](double v) { return v > 0.0 ? v : 1e-6; };
  return {spec.reconstruct.model_error, level(spec.tip_noise.position), level(spec.tip_noise.angle),
          level(spec.tip_noise.strain)};
}

std::string end_load_warning(const io::CaseSpec& spec) {
  const io::ReconstructSpec& r = spec.reconstruct;
  if (!is_estimate(spec) || !r.first_straight || r.far_end_none ||
      r.far_end != io::EndSpec::Kind::free)
    return "";
  for (const model::PointLoad& p : spec.loads.point)
    if (p.a == spec.A && !p.wrench.at(0.0).isZero(0.0))
      return "the load on the far end a = A is not zero at t_0: first_row = \"straight\" "
             "contradicts the end condition at the corner (0, A), which asks for the end bent "
             "under it (theory (4.9), (4.14)). For a beam at rest under the load declare "
             "first_row = \"rest\"; data of a beam that started straight under a sudden load "
             "fit neither: ramp the load from zero";
  return "";
}

const char* far_end_name(const io::ReconstructSpec& r) {
  return r.far_end_none ? "none" : r.far_end == io::EndSpec::Kind::clamped ? "clamped" : "free";
}

const char* first_row_name(const estimate::Conditions& c) {
  return c.first_straight ? "straight" : c.first_at_rest ? "rest" : "free";
}

const char* last_row_name(const estimate::Conditions& c) {
  return c.last_at_rest ? "rest" : "free";
}

}  // namespace field::io
