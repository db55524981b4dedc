#pragma once
/// The static problem of a time-march case (theory §4.5): `field static` and
/// [initial] configuration = "static" (meshes/README.md, [static]). The row to start from is the
/// case's initial row, or for configuration = "static" the stress-free shape (theory (1.6.3))
/// from [initial] origin and axis; clamped ends are held there, free ends are natural.
#include <vector>

#include "libfield/io/case_setup.hpp"
#include "libfield/statics/static_solve.hpp"

namespace field::io {

/// The start row and the held ends; throws field::Error for a prescribed end (it moves) or two
/// free ends (nothing holds the beam).
template <class G>
statics::StaticInput static_input(const Problem& problem);

/// The solver options of the case's [static] table.
statics::StaticOptions static_options(const CaseSpec& spec);

/// Solves the static problem of the case (the report says whether it converged).
template <class G>
statics::StaticResult solve_case_statics(const Problem& problem);

/// The equilibrium row, for [initial] configuration = "static"; throws field::Error with the
/// solver's failure (what failed and what to change) when it does not converge.
template <class G>
std::vector<lie::SE3> static_row(const Problem& problem);

}  // namespace field::io
