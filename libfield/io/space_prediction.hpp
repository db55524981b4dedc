#pragma once
// Know before you march (theory §6.3) for a case of `field info` / `field reconstruct`: the
// linearised space march's amplification combined with the tip data's spectrum and the declared
// noise ([tip] noise_position, noise_angle, noise_strain) into the predicted far-end error and
// the recoverable bandwidth, against [tip] max_predicted_error.
#include <string>
#include <vector>

#include "libfield/io/case_setup.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/march/space_amplification.hpp"

namespace field::io {

/// The prediction for `problem` with the tip data of `input` (rows 0..J-1 of column 0 and of
/// the tip strain; the strain spectrum is left out when the case gives column 1 instead).
march::SpacePrediction predict_space_march(const io::Problem& problem,
                                           const march::SpaceMarchInput& input);

/// Warnings (theory §6.3, §4.2) when a zero-momentum row contradicts the data: the tip still
/// moves at the first or last row (its speed there, position plus L times angle rate, above 5 %
/// of its largest and above three times what the declared noise alone gives), one line each;
/// empty when they agree.
std::vector<std::string> rest_warnings(const io::Problem& problem,
                                       const march::SpaceMarchInput& input);

/// Empty unless the tip file (resampled onto the grid) has a gap between samples longer than
/// 2 dt: the rows inside it are interpolated, the motion between the samples is lost; otherwise
/// the warning naming the file, the lines and the times. Reads the file's t column again.
std::string gap_warning(const io::CaseSpec& spec);
/// The same for tip data given as a table (the Python module's arrays, docs/python.md).
std::string gap_warning(const io::CaseSpec& spec, const io::CsvTable& tip);

/// Every warning of the prediction for the terminal: growth, band, rest; the gap warning when
/// `resampled` (of `tip` when given, else of the case's tip file).
std::vector<std::string> prediction_warnings(const io::Problem& problem,
                                             const io::SpaceSetup& setup,
                                             const march::SpacePrediction& prediction,
                                             const io::CsvTable* tip = nullptr);

/// The declared noise of the case.
march::TipNoise tip_noise(const io::CaseSpec& spec);

}  // namespace field::io
