#include "libfield/io/registered_case.hpp"

#include <string>

#include "libfield/core/error.hpp"
#include "libfield/dcel/stress_free.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/frames.hpp"
#include "libfield/io/group_tip.hpp"
#include "libfield/io/magnitudes.hpp"
#include "libfield/io/plain_space_case.hpp"
#include "libfield/io/toml_parameters.hpp"
#include "libfield/io/toml_table.hpp"
#include "libfield/lie/coordinates.hpp"

namespace field::io {

std::string unsupported(const CaseSpec& c) {
  return " is not supported for theory = \"" + c.registered.name +
         "\" (a registered theory: docs/lie-groups.md, \"Adding a theory\")";
}

int registered_dimension(const CaseSpec& c) {
  return with_registered_group(c, [](auto group) { return decltype(group)::dim; });
}

void read_registered_initial(std::optional<TomlTable> t, CaseSpec& c) {
  if (!t) return;  // the stress-free shape from the origin, at rest
  InitialSpec& in = c.initial;
  in.origin = t->vec<3>("origin", Vec3::Zero(), "position of the node a = 0 [m]");
  const int n = registered_dimension(c);
  if (t->choice("velocity", "zero", {"zero", "uniform"}) == "uniform") {
    const std::string what =
        "uniform body velocity xi of every node (" + std::to_string(n) + " numbers, theory §3.1)";
    const toml::node* node = t->node("xi");
    if (!node) t->fail("xi", "required with velocity = \"uniform\": " + what);
    const Eigen::VectorXd xi = t->vector(*node, "xi", n, what);
    c.registered.xi.assign(xi.data(), xi.data() + n);
  } else if (t->has("xi")) {
    t->fail("xi",
            "is read with velocity = \"uniform\" only: remove it or set velocity = "
            "\"uniform\"");
  }
  const std::string start = t->choice("start", "second_order", {"second_order", "first_order"});
  in.start =
      start == "first_order" ? InitialSpec::Start::first_order : InitialSpec::Start::second_order;
  t->reject_unknown({"origin", "velocity", "xi", "start"});
}

void read_registered(TomlTable table, const toml::table& root, CaseSpec& c) {
  TomlParameters parameters(table, c.registered.parameters);
  // The factory reads and checks the parameters; the density itself is made again from the
  // values recorded (RegisteredProblem).
  const bool one_retraction = with_registered_group(c, [&](auto group) {
    using G = decltype(group);
    model::find_theory<typename G::Space>(c.registered.name)->make(parameters, c.gravity);
    return std::is_same_v<G, typename G::Space>;
  });
  table.reject_unknown();
  TomlTable top(root, "", c.file);
  if (one_retraction && root.contains("retraction"))
    top.fail("retraction", "the theory runs on " + with_registered_group(c, [](auto g) {
                             return decltype(g)::name();
                           }) + ", which has one retraction: remove the key");
  for (const char* key : {"beam", "shape", "cable", "damping", "static"})
    if (root.contains(key)) top.fail(key, "[" + std::string(key) + "]" + unsupported(c));
  TomlTable loads = table_or_top(root, "loads", c.file);
  for (const char* key : {"distributed", "point", "end"})
    if (loads.has(key)) loads.fail(key, "loads other than gravity" + unsupported(c));
  if (c.march == MarchKind::space) {  // `field reconstruct`: the space march of theory §6.2
    refuse_beam_space_keys(root, c, unsupported(c));
    return;
  }
  TomlTable boundary = table_or_top(root, "boundary", c.file);
  for (const auto& [key, end] : {std::pair{"left", &c.left}, std::pair{"right", &c.right}})
    if (end->kind == EndSpec::Kind::prescribed)
      boundary.fail(key, "a prescribed end" + unsupported(c) + ": use \"free\" or \"clamped\"");
}

template <class G>
RegisteredProblem<G>::RegisteredProblem(const CaseSpec& case_spec)
    : spec(case_spec),
      theory([&]() -> const model::TheoryEntry<typename G::Space>& {
        const auto* t = model::find_theory<typename G::Space>(case_spec.registered.name);
        FIELD_CHECK(t && case_spec.theory == Theory::registered,
                    case_spec.file.string() << ": not a case of a registered theory on this group");
        return *t;
      }()),
      density([&] {
        ParameterValues values = spec.registered.parameters;  // the values read, replayed
        return theory.make(values, spec.gravity);
      }()),
      mesh(spec.J, spec.A, spec.dt, spec.ds),
      model(*density, loads, mesh) {
  using Element = typename G::Element;
  using Algebra = typename G::Algebra;
  using Side = march::BasicSideSpec<Element>;
  if (spec.march == MarchKind::space) return;  // its input is space_input()'s
  // Row 0: the stress-free shape from node 0 at the origin (theory (1.6.3)).
  input.row0 = dcel::stress_free_row(model, lie::Coordinates<Element>::at(spec.initial.origin));
  Algebra xi = Algebra::Zero();
  if (!spec.registered.xi.empty()) xi = Eigen::Map<const Algebra>(spec.registered.xi.data());
  input.velocities.assign(spec.A + 1, xi);
  // Row 1, g_1 = g_0 tau(dt xi) (the first-order start; the second-order start's is near it),
  // and the magnitude rule of theory §12 on rows 0 and 1.
  std::vector<Element> row1 = input.row0;
  for (Element& g : row1) g = G::compose(g, G::tau(spec.dt * xi));
  const double limit = position_limit(spec.ds, spec.dt, density->wave_speeds().c_E);
  const std::string file = spec.file.string() + ": ";
  check_positions(limit, input.row0, file + "[initial] row 0, node a =");
  check_positions(limit, row1, file + "[initial] row 1 (row 0 moved by dt xi), node a =");
  if (spec.initial.start == InitialSpec::Start::first_order) {
    input.row1 = std::move(row1);
    input.velocities.clear();
  }
  const auto end = [](const EndSpec& e, const Element& g) {
    return e.kind == EndSpec::Kind::clamped ? Side::clamped(g) : Side::free();
  };
  input.left = end(spec.left, input.row0.front());
  input.right = end(spec.right, input.row0.back());
}

template <class G>
RunWriters<typename G::Element> RegisteredProblem<G>::writers(const RunWriterOptions& o) const {
  return group_run_writers<G>(spec, model, o, [this](const RunWriterOptions& options) {
    return std::make_unique<GroupTipCsvWriter<G>>(options.dir / "tip.csv", mesh);
  });
}

#define FIELD_INSTANTIATE(G) template struct RegisteredProblem<G>;
FIELD_FOR_EACH_REGISTRY_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
