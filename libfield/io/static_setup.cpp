#include "libfield/io/static_setup.hpp"

#include "libfield/dcel/stress_free.hpp"

namespace field::io {

template <class G>
statics::StaticInput static_input(const Problem& p) {
  const CaseSpec& c = p.spec;
  FIELD_CHECK(c.march == MarchKind::time,
              c.file.string() << ": march = \"space\": the static solver takes time-march cases");
  for (const auto& [end, side] : {std::pair{&c.left, "left"}, std::pair{&c.right, "right"}})
    FIELD_CHECK(end->kind != EndSpec::Kind::prescribed,
                c.file.string() << ": [boundary] " << side
                                << " is prescribed (it moves): the static solver holds "
                                   "\"clamped\" ends and leaves \"free\" ones free");
  FIELD_CHECK(c.left.kind == EndSpec::Kind::clamped || c.right.kind == EndSpec::Kind::clamped,
              c.file.string() << ": both ends are free, so the beam has no static equilibrium "
                                 "(every rigid motion of one is one too): clamp an end in "
                                 "[boundary] (left = \"clamped\")");
  statics::StaticInput in;
  if (c.initial.configuration == InitialSpec::Configuration::static_equilibrium)
    in.row = dcel::stress_free_row(p.model<G>(), p.stress_free_base());
  else
    in.row = time_march_input<G>(p).row0;
  in.left_held = c.left.kind == EndSpec::Kind::clamped;
  in.right_held = c.right.kind == EndSpec::Kind::clamped;
  check_positions(p, in.row, c.file.string() + ": the static solver's start row, node a =");
  return in;
}

statics::StaticOptions static_options(const CaseSpec& c) {
  statics::StaticOptions options;
  options.steps = c.statics.steps;
  options.max_iterations = c.statics.max_iterations;
  return options;
}

template <class G>
statics::StaticResult solve_case_statics(const Problem& p) {
  return statics::solve_static(p.model<G>(), static_input<G>(p), static_options(p.spec));
}

template <class G>
std::vector<lie::SE3> static_row(const Problem& p) {
  statics::StaticResult r = solve_case_statics<G>(p);
  FIELD_CHECK(r.converged, p.spec.file.string()
                               << ": [initial] configuration = \"static\": " << r.failure
                               << " (`field static` on this case writes the convergence report)");
  check_positions(p, r.row, p.spec.file.string() + ": the static equilibrium, node a =");
  return std::move(r.row);
}

#define FIELD_INSTANTIATE(G)                                            \
  template statics::StaticInput static_input<G>(const Problem&);        \
  template statics::StaticResult solve_case_statics<G>(const Problem&); \
  template std::vector<lie::SE3> static_row<G>(const Problem&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
