#pragma once
/// Column names of the series files (docs/output-format.md): a wrench or momentum written as six
/// columns, the angular part first (theory §7: the (ang, lin) order of se(3)*).
#include <string>
#include <vector>

#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/noether/slab_axis.hpp"

namespace field::io {

/// Appends `<prefix>_ang1..3`, `<prefix>_lin1..3` (e.g. the reactions R0_*, RA_*, RJ_* of
/// theory (8.5), (8.9)).
inline void add_wrench_columns(std::vector<std::string>& columns, const std::string& prefix) {
  for (const char* part : {"_ang1", "_ang2", "_ang3", "_lin1", "_lin2", "_lin3"})
    columns.push_back(prefix + part);
}

/// Appends `<prefix>_lin1..3`: a force or a translation momentum on R^3 (the cable, theory §1.8).
inline void add_force_columns(std::vector<std::string>& columns, const std::string& prefix) {
  for (const char* part : {"_lin1", "_lin2", "_lin3"}) columns.push_back(prefix + part);
}

/// The columns of time_series.csv (docs/output-format.md): E, P, the Noether residual, Newton's
/// iterations, W and the energy balance (theory §8.1); the reactions of the prescribed ends
/// (theory (8.5)); D_j of a damped run last (theory (4.20)). `translations`: P and the reactions
/// have their linear parts only (the cable on R^3, theory (1.8.8)).
inline std::vector<std::string> time_series_columns(const mesh::Boundary& boundary, bool damped,
                                                    bool translations = false) {
  const auto add = translations ? add_force_columns : add_wrench_columns;
  std::vector<std::string> columns = {"j", "t", "E"};
  add(columns, "P");
  for (const char* c :
       {"noether_residual", "newton_max_iterations", "newton_mean_iterations", "W", "E_balance"})
    columns.push_back(c);
  if (boundary.left == mesh::Side::prescribed) add(columns, "R0");
  if (boundary.right == mesh::Side::prescribed) add(columns, "RA");
  if (damped) columns.push_back("dissipated_energy");
  return columns;
}

/// The columns of space_series.csv (docs/output-format.md): E_M, Q, the Noether residual,
/// Newton's iterations, the work W~ and the balance of E_M (theory (8.11), (8.12)); the reactions
/// of the prescribed rows (theory (8.9)). `translations`: Q and the reactions have their linear
/// parts only (the theories on R^3: the cable, theory (1.8.8), the string, theory §1.9).
inline std::vector<std::string> space_series_columns(const mesh::Boundary& boundary,
                                                     bool translations = false) {
  const auto add = translations ? add_force_columns : add_wrench_columns;
  std::vector<std::string> columns = {"a", "s", "E_M"};
  add(columns, "Q");
  for (const char* c : {"noether_residual", "newton_max_iterations", "newton_mean_iterations",
                        "W_M", "E_M_balance"})
    columns.push_back(c);
  if (boundary.first == mesh::Side::prescribed) add(columns, "R0");
  if (boundary.last == mesh::Side::prescribed) add(columns, "RJ");
  return columns;
}

/// One line of time_series.csv or space_series.csv in the columns of time_series_columns or
/// space_series_columns: `d` a noether::BasicSlabRecord (P or Q and the reactions as six or, on
/// R^3, three columns); the reactions of the prescribed `sides`; D_j last when `damped`.
template <class D>
std::vector<double> series_line(const D& d, noether::SlabSides sides, bool damped) {
  std::vector<double> line = {double(d.index), d.coordinate, d.energy};
  line.insert(line.end(), d.momentum.begin(), d.momentum.end());
  for (const double v : {d.balance, double(d.newton.max_iterations), d.newton.mean_iterations,
                         d.work, d.energy_balance})
    line.push_back(v);
  if (sides.first) line.insert(line.end(), d.reaction_first.begin(), d.reaction_first.end());
  if (sides.last) line.insert(line.end(), d.reaction_last.begin(), d.reaction_last.end());
  if (damped) line.push_back(d.dissipated);
  return line;
}

}  // namespace field::io
