#include "libfield/io/run_writers.hpp"

#include "libfield/core/error.hpp"
#include "libfield/io/cable_case.hpp"
#include "libfield/io/cable_tip.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/field_rates.hpp"
#include "libfield/io/frames.hpp"
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

RunWriters<Vec3> cable_run_writers(const CableProblem& cable, const RunWriterOptions& o) {
  const CaseSpec& spec = cable.spec;
  const OutputSpec& out = spec.output;
  FIELD_CHECK(o.first_row == 0, "a cable run is not continued from a checkpoint");
  RunWriters<Vec3> w;
  if (out.csv)
    w.texts.push_back(std::make_unique<BasicFieldCsvWriter<Vec3>>(
        o.dir / "field.csv", cable.mesh, true, spec.left_side(), out.stride));
  if (out.tip && o.tip)
    w.others.push_back(
        std::make_unique<CableTipCsvWriter>(o.dir / "tip.csv", cable.density, cable.mesh));
  if (out.vtk) {
    const int stride = out.vtk_rows_stride(spec.J);  // "auto": at most ~400 frames
    w.others.push_back(
        std::make_unique<FramesWriter<lie::Rn<3>>>(o.dir, cable.model, spec.left_side(), stride));
    if (o.spacetime)
      w.others.push_back(std::make_unique<SpacetimeWriter<lie::Rn<3>>>(
          o.dir / "spacetime.vtu", cable.model, o.boundary, stride));
  }
  return w;
}

#define FIELD_INSTANTIATE(W)                                  \
  template RunWriters<lie::ElementOf<W>> beam_run_writers<W>( \
      const CaseSpec&, const dcel::DiscreteModel<W>&, const RunWriterOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
