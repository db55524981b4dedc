#pragma once
/// The start field of the estimator (theory §6.7, docs/reconstruction.md): the space march where
/// section §6.3's prediction calls it reliable (no stability warning, no refusal) and it
/// completes; otherwise the driven time march. `field reconstruct` with [reconstruct] method =
/// "estimate" and the Python module (docs/python.md) start from it.
#include <string>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/estimate/problem.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/mesh/field.hpp"

namespace field::io {

/// The start values by rows; a clamped far end (`conditions`) holds row 0's pose at a = A in
/// every row. `which` is set to "space" or "driven", the march used. Throws field::Error when the
/// driven march fails.
template <class G>
mesh::Field estimate_start_field(const Problem& problem, const dcel::DiscreteModel<G>& model,
                                 const SpaceSetup& setup, const estimate::Conditions& conditions,
                                 int threads, std::string& which);

}  // namespace field::io
