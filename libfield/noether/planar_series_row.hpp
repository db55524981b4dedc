#pragma once
/// A series row in the SE(3) columns of time_series.csv (io/series_columns.hpp): an SE(3) beam's
/// as it is, a planar beam's (theory §1.7) with its spatial covectors (1.7.3) embedded
/// (march::embed_planar_spatial). `field simulate` and the Python module (docs/python.md) write
/// the planar series so.
#include "libfield/march/planar_embedding.hpp"
#include "libfield/noether/time_diagnostics.hpp"

namespace field::noether {

inline const TimeRowDiagnostics& series_row(const TimeRowDiagnostics& d) {
  return d;
}
inline TimeRowDiagnostics series_row(const BasicTimeRowDiagnostics<Vec3>& d) {
  TimeRowDiagnostics e;
  e.j = d.j;
  e.t = d.t;
  e.energy = d.energy;
  e.momentum = march::embed_planar_spatial(d.momentum);
  e.balance = d.balance;
  e.newton = d.newton;
  e.reaction_left = march::embed_planar_spatial(d.reaction_left);
  e.reaction_right = march::embed_planar_spatial(d.reaction_right);
  e.work = d.work;
  e.dissipated = d.dissipated;
  e.energy_balance = d.energy_balance;
  return e;
}

}  // namespace field::noether
