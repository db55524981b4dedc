#pragma once
/// A series record in the SE(3) columns of time_series.csv (io/series_columns.hpp): an SE(3)
/// beam's as it is, a planar beam's (theory §1.7) with its spatial covectors (1.7.3) embedded
/// (march::embed_planar_spatial). `field simulate` and the Python module (docs/python.md) write
/// the planar series so.
#include "libfield/march/planar_embedding.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace field::noether {

inline const SlabRecord& series_row(const SlabRecord& d) {
  return d;
}
inline SlabRecord series_row(const BasicSlabRecord<Vec3>& d) {
  SlabRecord e;
  e.index = d.index;
  e.coordinate = d.coordinate;
  e.energy = d.energy;
  e.momentum = march::embed_planar_spatial(d.momentum);
  e.balance = d.balance;
  e.newton = d.newton;
  e.reaction_first = march::embed_planar_spatial(d.reaction_first);
  e.reaction_last = march::embed_planar_spatial(d.reaction_last);
  e.work = d.work;
  e.dissipated = d.dissipated;
  e.energy_balance = d.energy_balance;
  return e;
}

}  // namespace field::noether
