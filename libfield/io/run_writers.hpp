#pragma once
/// The writers of a time march's run folder (docs/output-format.md), chosen by the case's theory
/// in one place: the node texts (field.csv, field_rates.csv: the costliest outputs, which the run
/// path puts on a thread of their own) and the other files (tip.csv, the frames and their index,
/// spacetime.vtu). Each is a slab observer of the time rows on the elements E of the output
/// group (io/time_case.hpp): SE(3) poses for the beams (the planar beam embedded in the plane),
/// points of R^3 for the cable.
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::io {

struct CableProblem;

/// What the run path decides about its writers.
struct RunWriterOptions {
  std::filesystem::path dir;  ///< the run folder
  mesh::Boundary boundary;    ///< the march's boundary (equation nodes, where s is counted from)
  int first_row = 0;          ///< the first row received (a continued march's row k-1)
  bool tip = true;        ///< tip.csv when the case asks for it (not: the driven reconstruction)
  bool spacetime = true;  ///< spacetime.vtu when the case asks for VTK (not: a continued run)
};

/// The writers of one run, in the order they receive each row.
template <class E>
struct RunWriters {
  std::vector<std::unique_ptr<march::BasicSlabObserver<E>>> texts;   ///< field.csv, field_rates.csv
  std::vector<std::unique_ptr<march::BasicSlabObserver<E>>> others;  ///< tip.csv, frames, spacetime
};

/// The beam's writers (W an SE(3) group; the planar beam's are those of the SE(3) beam it is
/// embedded in): field.csv, field_rates.csv, tip.csv, beam.pvd with frames/, spacetime.vtu, as
/// the case's [output] asks.
template <class W>
RunWriters<lie::ElementOf<W>> beam_run_writers(const CaseSpec& spec,
                                               const dcel::DiscreteModel<W>& model,
                                               const RunWriterOptions& options);

/// The writers of a theory on a group G whose elements have lie::Coordinates (the cable, the
/// registered theories): field.csv, tip.csv (made by `tip`), NAME.pvd with frames/ (NAME the
/// density's output_name) and spacetime.vtu, as the case's [output] asks. A run continued from a
/// checkpoint is refused (these theories write none).
template <class G>
RunWriters<lie::ElementOf<G>> group_run_writers(
    const CaseSpec& spec, const dcel::DiscreteModel<G>& model, const RunWriterOptions& options,
    const std::function<std::unique_ptr<march::BasicSlabObserver<lie::ElementOf<G>>>(
        const RunWriterOptions&)>& tip);

/// The cable's writers (theory §1.8): field.csv (positions), tip.csv, cable.pvd with frames/,
/// spacetime.vtu, as the case's [output] asks.
RunWriters<Vec3> cable_run_writers(const CableProblem& cable, const RunWriterOptions& options);

}  // namespace field::io
