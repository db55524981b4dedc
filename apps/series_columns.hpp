#pragma once
/// Column names of the series files (docs/output-format.md): a wrench or momentum written as six
/// columns, the angular part first (theory §7: the (ang, lin) order of se(3)*).
#include <string>
#include <vector>

namespace field::app {

/// Appends `<prefix>_ang1..3`, `<prefix>_lin1..3` (e.g. the reactions R0_*, RA_*, RJ_* of
/// theory (8.5), (8.9)).
inline void add_wrench_columns(std::vector<std::string>& columns, const std::string& prefix) {
  for (const char* part : {"_ang1", "_ang2", "_ang3", "_lin1", "_lin2", "_lin3"})
    columns.push_back(prefix + part);
}

}  // namespace field::app
