#pragma once
/// Section properties that vary along the beam (theory §1.6; [beam] section = "table",
/// meshes/README.md): a CSV file with the engineering constants of section = "stiffness" as
/// columns EA, GA1, GA2, GJ, EI1, EI2, rhoA, rhoJ1, rhoJ2, rhoJ3 and either
///   a: one row per segment a = 0..A-1, or
///   s: rows at material coordinates s [m], strictly increasing, interpolated linearly at the
///      segment midpoints (s_a + s_{a+1})/2 (s_a of theory §3.4), which the rows must cover.
/// Every value must be positive; errors name the file, the line, the column and the value.
/// Coupled laws (theory §1.5) take, in place of the ten constants, the upper triangles of the
/// 6x6 stiffness and inertia matrices in the libfield order as columns K11, K12, ..., K16, K22,
/// ..., K66 and M11, ..., M66 (21 each); every row's matrices must be symmetric positive
/// definite (the error names the line and the smallest eigenvalue), and between rows in s the
/// matrices are interpolated entry by entry (a convex combination: positive definite again).
#include <filesystem>
#include <string>
#include <vector>

#include "libfield/model/section_law.hpp"

namespace field::io {

/// EA, GA1, GA2, GJ, EI1, EI2, rhoA, rhoJ1, rhoJ2, rhoJ3.
const std::vector<std::string>& section_table_columns();

/// K11, K12, ..., K66, M11, ..., M66: the coupled form's columns.
const std::vector<std::string>& section_matrix_columns();

/// The law (diagonal, or coupled with the K/M columns) of every segment a = 0..midpoints.size()-1
/// from `path`; `midpoints` are the segments' material coordinates (used with an s column).
std::vector<model::SectionLaw> read_section_table(const std::filesystem::path& path,
                                                  const std::vector<double>& midpoints);

}  // namespace field::io
