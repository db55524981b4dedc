#pragma once
/// A quantity the outputs show (docs/output-format.md): its name and its number of components.
/// Groups name the point data of their elements (lie/coordinates.hpp), densities the cell data of
/// their segments (model::Density::segment_quantities).

namespace field {

struct OutputQuantity {
  const char* name;
  int components;
};

}  // namespace field
