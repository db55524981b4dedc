#include "libfield/io/run_writers.hpp"

#include "libfield/core/error.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/field_rates.hpp"
#include "libfield/io/frames.hpp"
#include "libfield/io/group_tip.hpp"
#include "libfield/io/spacetime_vtk.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/lie/se3_groups.hpp"

namespace field::io {

template <class W>
RunWriters<lie::ElementOf<W>> beam_run_writers(const CaseSpec& spec,
                                               const dcel::DiscreteModel<W>& model,
                                               const RunWriterOptions& o) {
  RunWriters<lie::ElementOf<W>> w;
  const OutputSpec& out = spec.output;
  if (out.csv)
    w.texts.push_back(std::make_unique<FieldCsvWriter>(o.dir / "field.csv", model.mesh(), true,
                                                       spec.left_side(), out.stride));
  if (out.rates)
    w.texts.push_back(std::make_unique<FieldRatesWriter<W>>(
        o.dir / "field_rates.csv", model, spec.left_side(), out.stride, o.first_row));
  if (out.tip && o.tip)
    w.others.push_back(std::make_unique<TipCsvWriter<W>>(o.dir / "tip.csv", model, o.first_row));
  if (out.vtk) {
    const int stride = out.vtk_rows_stride(spec.J);  // "auto": at most ~400 frames
    w.others.push_back(
        std::make_unique<FramesWriter<W>>(o.dir, model, spec.left_side(), stride, o.first_row));
    if (o.spacetime)
      w.others.push_back(
          std::make_unique<SpacetimeWriter<W>>(o.dir / "spacetime.vtu", model, o.boundary, stride));
  }
  return w;
}

template <class G>
RunWriters<lie::ElementOf<G>> group_run_writers(
    const CaseSpec& spec, const dcel::DiscreteModel<G>& model, const RunWriterOptions& o,
    const std::function<std::unique_ptr<march::BasicSlabObserver<lie::ElementOf<G>>>(
        const RunWriterOptions&)>& tip) {
  using E = lie::ElementOf<G>;
  const OutputSpec& out = spec.output;
  FIELD_CHECK(o.first_row == 0, "a run of theory = \"" << theory_name(spec)
                                                       << "\" is not continued from a checkpoint");
  RunWriters<E> w;
  if (out.csv)
    w.texts.push_back(std::make_unique<BasicFieldCsvWriter<E>>(o.dir / "field.csv", model.mesh(),
                                                               true, spec.left_side(), out.stride));
  if (out.tip && o.tip) w.others.push_back(tip(o));
  if (out.vtk) {
    const int stride = out.vtk_rows_stride(spec.J);  // "auto": at most ~400 frames
    w.others.push_back(std::make_unique<FramesWriter<G>>(o.dir, model, spec.left_side(), stride));
    if (o.spacetime)
      w.others.push_back(
          std::make_unique<SpacetimeWriter<G>>(o.dir / "spacetime.vtu", model, o.boundary, stride));
  }
  return w;
}

RunWriters<Vec3> cable_run_writers(const CableProblem& cable, const RunWriterOptions& o) {
  // The cable's tip.csv: v1..v3 and its tension N = W'(|eta|) (theory (1.8.2)) last.
  return group_run_writers<lie::Rn<3>>(
      cable.spec, cable.model, o, [&cable](const RunWriterOptions& options) {
        TipColumns<lie::Rn<3>> names{"v", "tension", [&cable](const Vec3& eta) {
                                       return cable.density.tension(eta.norm());
                                     }};
        return std::make_unique<GroupTipCsvWriter<lie::Rn<3>>>(options.dir / "tip.csv", cable.mesh,
                                                               std::move(names));
      });
}

#define FIELD_INSTANTIATE(W)                                  \
  template RunWriters<lie::ElementOf<W>> beam_run_writers<W>( \
      const CaseSpec&, const dcel::DiscreteModel<W>&, const RunWriterOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE
#define FIELD_INSTANTIATE(G)                                                            \
  template RunWriters<lie::ElementOf<G>> group_run_writers<G>(                          \
      const CaseSpec&, const dcel::DiscreteModel<G>&, const RunWriterOptions&,          \
      const std::function<std::unique_ptr<march::BasicSlabObserver<lie::ElementOf<G>>>( \
          const RunWriterOptions&)>&);
FIELD_INSTANTIATE(lie::Rn<3>)
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
