#include "libfield/io/plain_space_case.hpp"

#include "libfield/core/error.hpp"
#include "libfield/io/group_tip.hpp"
#include "libfield/io/magnitudes.hpp"
#include "libfield/io/toml_table.hpp"
#include "libfield/lie/retraction.hpp"

namespace field::io {

void refuse_beam_space_keys(const toml::table& root, const CaseSpec& c, const std::string& why) {
  TomlTable reconstruct = table_or_top(root, "reconstruct", c.file);
  if (c.reconstruct.method != ReconstructSpec::Method::space)
    reconstruct.fail("method", "a method other than \"space\"" + why +
                                   ": the field is rebuilt by the space march of theory §6.2: "
                                   "leave method out or use \"space\"");
  TomlTable boundary = table_or_top(root, "boundary", c.file);
  for (const auto& [key, row] : {std::pair{"first", &c.first}, std::pair{"last", &c.last}})
    if (row->kind == RowSpec::Kind::prescribed)
      boundary.fail(key, "a prescribed row" + why + ": use \"zero_momentum\"");
  TomlTable tip = table_or_top(root, "tip", c.file);
  for (const char* key : {"noise_position", "noise_angle", "noise_strain", "max_predicted_error"})
    if (tip.has(key))
      tip.fail(key, "the prediction of the error growth (theory §6.3) is the beam's: it" + why +
                        ": remove the key");
  if (c.tip_data.strain_at == TipDataSpec::StrainAt::tip_point)
    tip.fail("strain_at", "strain_at = \"tip_point\" (theory §6.6)" + why +
                              ": give the strain of the first segment, eta_j^0 = "
                              "tau^{-1}((g_j^0)^{-1} g_j^1)/ds, as tip.csv holds it");
}

namespace {

// The setup from the tip data on the grid, read from `source` (a file, or the Python module's
// arrays): the magnitude rule of theory §12 on columns 0 and 1 (g_j^1 = g_j^0 tau(ds eta_j^0)).
template <class G>
PlainSpaceSetup<G> setup_of(const CaseSpec& c, double c_E, GroupTipOnGrid<G> data,
                            const std::string& source) {
  const double limit = position_limit(c.ds, c.dt, c_E);
  check_positions(limit, data.g0, source + ": the tip at row j =");
  std::vector<typename G::Element> column1;
  for (std::size_t j = 0; j < data.eta0.size(); ++j)
    column1.push_back(G::compose(data.g0[j], G::tau(c.ds * data.eta0[j])));
  check_positions(limit, column1,
                  source + ": column 1 (the tip moved by ds eta, its strain) at row j =");
  PlainSpaceSetup<G> setup;
  setup.input.column0 = std::move(data.g0);
  setup.input.strain0 = std::move(data.eta0);  // column 1: g_j^1 = g_j^0 tau(ds eta_j^0)
  setup.note = data.note;
  return setup;  // rows j = 0 and J free (zero momentum)
}

}  // namespace

template <class G>
PlainSpaceSetup<G> plain_space_input(const CaseSpec& c, double c_E,
                                     const std::filesystem::path& tip) {
  FIELD_CHECK(c.march == MarchKind::space,
              c.file.string() << ": march = \"time\": run it with `field simulate`");
  const std::filesystem::path& file = tip.empty() ? c.tip : tip;
  FIELD_CHECK(!file.empty(), c.file.string()
                                 << ": [tip] file is not given: a space march rebuilds the field "
                                    "from the data of its end a = 0: name its CSV file in the "
                                    "case ([tip] file = \"tip.csv\", the columns of a run's "
                                    "tip.csv, docs/output-format.md) or give `field reconstruct "
                                    "--tip FILE`");
  return setup_of<G>(
      c, c_E,
      named(c, file, [&] { return read_group_tip<G>(file, c.dt, c.J, c.tip_data.time_offset); }),
      file.string());
}

template <class G>
PlainSpaceSetup<G> plain_space_input(const CaseSpec& c, double c_E, const CsvTable& tip) {
  FIELD_CHECK(c.march == MarchKind::space,
              c.file.string() << ": march = \"time\": run it with `field simulate`");
  return setup_of<G>(c, c_E, read_group_tip<G>(tip, c.dt, c.J, c.tip_data.time_offset),
                     tip.path.string());
}

#define FIELD_INSTANTIATE(G)                                                      \
  template PlainSpaceSetup<G> plain_space_input<G>(const CaseSpec&, double,       \
                                                   const std::filesystem::path&); \
  template PlainSpaceSetup<G> plain_space_input<G>(const CaseSpec&, double, const CsvTable&);
FIELD_FOR_EACH_REGISTRY_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
