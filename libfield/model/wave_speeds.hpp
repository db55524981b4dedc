#pragma once
/// The wave speeds and cut-off of a density, for the step-size rules of theory §6 (theory §1,
/// (1.11)-(1.13a) for the beam). A density supplies them (model::Density::wave_speeds()); march
/// only turns them into stability numbers (march/stability.hpp).

namespace field::model {

struct WaveSpeeds {
  double c_E = 0.0;      ///< fastest phase speed [m/s] (beam: sqrt(E/rho), extension, bending)
  double c_G = 0.0;      ///< slowest phase speed [m/s] (beam: sqrt(k G/rho), shear, torsion)
  double omega_c = 0.0;  ///< cut-off frequency [rad/s] (beam: Timoshenko, theory (1.13))
};

}  // namespace field::model
