#pragma once
/// The space march of a theory without the beam's reconstruction extras (`field reconstruct`,
/// theory §6.2): the cable (io/cable_case.hpp) and the registered theories
/// (io/registered_case.hpp) are rebuilt by the space march alone, from tip data of the first
/// segment's strain, with rows j = 0 and J at zero momentum.
#include <toml++/toml.h>

#include <string>

#include "libfield/io/case_file.hpp"
#include "libfield/io/csv_table.hpp"
#include "libfield/march/space_march.hpp"

namespace field::io {

/// Throws field::Error (file:line: key = value: `why` and what to do) for a key of a space-march
/// case that such a theory does not take: a [reconstruct] method other than "space", a
/// prescribed row, the declared noise and bound of the prediction of theory §6.3 (the beam's),
/// and [tip] strain_at = "tip_point" (theory §6.6, the beam's). `why` ends the message's first
/// part, e.g. " is not supported for theory = \"cable\" (docs/cable.md)".
void refuse_beam_space_keys(const toml::table& root, const CaseSpec& c, const std::string& why);

/// The input of such a space march on G: column 0 and the strains eta_j^0 from the tip file
/// ([tip] file, or `tip` when given; io::read_group_tip with [tip] time_offset: the columns t, the
/// element's coordinates, eta1..etan of a run's tip.csv), rows j = 0 and J free (zero momentum),
/// and how the samples met the grid (`note`); columns 0 and 1 obey the magnitude rule of theory
/// §12 for the density's fastest wave speed c_E (io/magnitudes.hpp). Throws field::Error naming
/// the file, the line and the value.
template <class G>
struct PlainSpaceSetup {
  march::SpaceMarchInputOf<G> input;
  std::string note;
};
template <class G>
PlainSpaceSetup<G> plain_space_input(const CaseSpec& c, double c_E,
                                     const std::filesystem::path& tip = {});
/// The same from tip data already read as a table with the columns t, the element's coordinates
/// and eta1..n (the Python module's arrays, docs/python.md; `tip.path` names it in messages).
template <class G>
PlainSpaceSetup<G> plain_space_input(const CaseSpec& c, double c_E, const CsvTable& tip);

}  // namespace field::io
