#pragma once
/// Column names of the series files (docs/output-format.md): a wrench or momentum written as six
/// columns, the angular part first (theory §7: the (ang, lin) order of se(3)*).
#include <string>
#include <vector>

#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::app {

/// Appends `<prefix>_ang1..3`, `<prefix>_lin1..3` (e.g. the reactions R0_*, RA_*, RJ_* of
/// theory (8.5), (8.9)).
inline void add_wrench_columns(std::vector<std::string>& columns, const std::string& prefix) {
  for (const char* part : {"_ang1", "_ang2", "_ang3", "_lin1", "_lin2", "_lin3"})
    columns.push_back(prefix + part);
}

/// The columns of time_series.csv (docs/output-format.md): E, P, the Noether residual, Newton's
/// iterations, W and the energy balance (theory §8.1); the reactions of the prescribed ends
/// (theory (8.5)); D_j of a damped run last (theory (4.20)).
inline std::vector<std::string> time_series_columns(const mesh::Boundary& boundary, bool damped) {
  std::vector<std::string> columns = {"j", "t", "E"};
  add_wrench_columns(columns, "P");
  for (const char* c :
       {"noether_residual", "newton_max_iterations", "newton_mean_iterations", "W", "E_balance"})
    columns.push_back(c);
  if (boundary.left == mesh::Side::prescribed) add_wrench_columns(columns, "R0");
  if (boundary.right == mesh::Side::prescribed) add_wrench_columns(columns, "RA");
  if (damped) columns.push_back("dissipated_energy");
  return columns;
}

/// The columns of space_series.csv (docs/output-format.md): E_M, Q, the Noether residual,
/// Newton's iterations; the reactions of the prescribed rows (theory (8.9)).
inline std::vector<std::string> space_series_columns(const mesh::Boundary& boundary) {
  std::vector<std::string> columns = {"a", "s", "E_M"};
  add_wrench_columns(columns, "Q");
  for (const char* c : {"noether_residual", "newton_max_iterations", "newton_mean_iterations"})
    columns.push_back(c);
  if (boundary.first == mesh::Side::prescribed) add_wrench_columns(columns, "R0");
  if (boundary.last == mesh::Side::prescribed) add_wrench_columns(columns, "RJ");
  return columns;
}

}  // namespace field::app
