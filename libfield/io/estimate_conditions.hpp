#pragma once
// What a case with [reconstruct] method = "estimate" declares (theory §6.7,
// docs/reconstruction.md): the conditions, the weights and their names, read once for
// `field reconstruct`, `field check` and `field info`.
#include <string>

#include "libfield/estimate/problem.hpp"
#include "libfield/io/case_file.hpp"

namespace field::io {

/// True for a `field reconstruct` case with method = "estimate".
bool is_estimate(const io::CaseSpec& spec);
/// The declared far end, rows at rest or free, row 0 straight.
estimate::Conditions conditions_of(const io::ReconstructSpec& r);
/// The declared noise levels weight the data; 0 (exact data) weighs them as 1e-6.
estimate::Weights weights_of(const io::CaseSpec& spec);
/// A warning, or "": row 0 straight (first_row = "straight") and a load on the far end a = A
/// ([[loads.end]] or a point load on node A) that is not zero at t_0. The corner (0, A) then asks
/// lambda~_0^{A-1} = -W/2 (theory (4.9), (4.14)), which a straight row 0 cannot meet.
std::string end_load_warning(const io::CaseSpec& spec);
/// "free", "clamped" or "none".
const char* far_end_name(const io::ReconstructSpec& r);
/// Row 0: "straight", "rest" or "free".
const char* first_row_name(const estimate::Conditions& c);
/// Row J: "rest" or "free".
const char* last_row_name(const estimate::Conditions& c);

}  // namespace field::io
