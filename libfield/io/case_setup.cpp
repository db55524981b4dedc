#include "libfield/io/case_setup.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/dcel/stress_free.hpp"
#include "libfield/io/checkpoint.hpp"
#include "libfield/io/node_data.hpp"
#include "libfield/io/section_table.hpp"
#include "libfield/io/shape_polyline.hpp"
#include "libfield/io/static_setup.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/io/tip_strain.hpp"
#include "libfield/lie/so3.hpp"

namespace field::io {

namespace {

std::string six(const Vec6& v) {
  std::ostringstream out;
  out.precision(6);
  out << "(" << v(0) << ", " << v(1) << ", " << v(2) << ", " << v(3) << ", " << v(4) << ", " << v(5)
      << ")";
  return out.str();
}

// Numbers derived from the case that the march divides by or multiplies with: finite, and the
// laws' diagonals normal doubles (a subnormal or zero entry makes the node problem singular).
void check_derived_numbers(const CaseSpec& c, const model::BeamDensity& density,
                           const march::StabilityNumbers& n) {
  const std::string file = c.file.string();
  FIELD_CHECK(std::isfinite(c.duration()) && std::isfinite(c.length()),
              file << ": [grid] T = J dt = " << c.duration() << " s and L = " << c.length()
                   << " m must be finite: smaller dt or ds");
  const auto normal = [](const Vec6& v) { return v.allFinite() && (v.array() >= DBL_MIN).all(); };
  FIELD_CHECK(
      normal(density.inertia()) && normal(density.stiffness()),
      file << ": [beam] the section and material give the inertia J = " << six(density.inertia())
           << " and the stiffness C = " << six(density.stiffness())
           << ", which must be positive, finite and above " << DBL_MIN
           << " (double precision): the section or the material is too small or too large");
  FIELD_CHECK(
      std::isfinite(n.cfl_time) && std::isfinite(n.cutoff_term) && std::isfinite(n.cfl_space) &&
          n.cfl_time > 0 && n.cutoff_term > 0 && n.cfl_space > 0 &&
          std::isfinite(n.max_stable_dt) && std::isfinite(n.min_stable_dt) && n.max_stable_dt > 0 &&
          n.min_stable_dt > 0,
      file << ": the stability numbers of theory §6 are not finite and positive (c_E dt/ds = "
           << n.cfl_time << ", dt omega_c/2 = " << n.cutoff_term << ", ds/(c_G dt) = "
           << n.cfl_space << ", dt limits " << n.max_stable_dt << " and " << n.min_stable_dt
           << " s): [beam] E, rho and the section, or [grid] dt and ds, are too far apart "
              "for double precision");
}

}  // namespace

namespace {
// A per-segment list whose entries are all equal becomes one entry (theory §1.6: the uniform
// model, bit for bit).
template <class T, class Equal>
void collapse(std::vector<T>& v, Equal equal) {
  if (v.size() > 1 && std::all_of(v.begin(), v.end(), [&](const T& x) { return equal(x, v[0]); }))
    v.resize(1);
}
}  // namespace

SegmentLaws segment_laws(const CaseSpec& c) {
  SegmentLaws s;
  if (c.section_table.empty()) {
    s.laws = {c.section_law()};
    s.speeds = c.wave_speeds();
  } else {
    const mesh::SpacetimeMesh grid(c.J, c.A, c.dt, c.ds);
    std::vector<double> midpoints;
    for (int a = 0; a < c.A; ++a)
      midpoints.push_back(0.5 * (grid.s(a, c.left_side()) + grid.s(a + 1, c.left_side())));
    s.laws =
        named(c, c.section_table, [&] { return read_section_table(c.section_table, midpoints); });
    s.speeds = model::wave_speeds(s.laws[0]);
    for (const model::SectionLaw& law : s.laws) {  // the extremes over the segments (theory §6.4)
      const model::WaveSpeeds w = model::wave_speeds(law);
      s.speeds.c_E = std::max(s.speeds.c_E, w.c_E);
      s.speeds.c_G = std::min(s.speeds.c_G, w.c_G);
      s.speeds.omega_c = std::max(s.speeds.omega_c, w.omega_c);
    }
  }
  switch (c.shape.kind) {
    case ShapeSpec::Kind::straight:
      s.reference_strains = {model::BeamDensity::E6()};
      break;
    case ShapeSpec::Kind::uniform:
      s.reference_strains = {c.shape.strain};
      break;
    case ShapeSpec::Kind::file:
      s.reference_strains =
          named(c, c.shape.file, [&] { return read_segment_strains(c.shape.file, c.A); });
      break;
    case ShapeSpec::Kind::polyline: {  // theory (1.6.4)
      const mesh::SpacetimeMesh grid(c.J, c.A, c.dt, c.ds);
      std::vector<double> node_s;
      for (int a = 0; a <= c.A; ++a) node_s.push_back(grid.s(a, c.left_side()));
      const PolylineShape shape = named(c, c.shape.file, [&] {
        return read_shape_polyline(c.shape.file, node_s, c.ds, c.retraction,
                                   c.right.kind == EndSpec::Kind::free);
      });
      s.reference_strains = shape.strains;
      s.shape_base = shape.nodes.front();
      break;
    }
  }
  collapse(s.laws, [](const model::SectionLaw& x, const model::SectionLaw& y) {
    return x.J == y.J && x.C == y.C && x.mass_per_length == y.mass_per_length;
  });
  collapse(s.reference_strains, [](const Vec6& x, const Vec6& y) { return x == y; });
  return s;
}

void Problem::make_segments() {
  if (segment_data.uniform()) return;
  const auto at = [](const auto& v, int a) { return v[v.size() == 1 ? 0 : a]; };
  segment_densities.reserve(static_cast<size_t>(spec.A));  // `segments` points into it
  for (int a = 0; a < spec.A; ++a)
    segment_densities.emplace_back(at(segment_data.laws, a), spec.gravity,
                                   at(segment_data.reference_strains, a), segment_data.speeds);
  for (const model::BeamDensity& d : segment_densities) segments.push_back(&d);
}

Problem::Problem(CaseSpec case_spec)
    : spec(std::move(case_spec)),
      segment_data(segment_laws(spec)),
      density(segment_data.laws[0], spec.gravity, segment_data.reference_strains[0],
              segment_data.speeds),
      loads(spec.loads),
      mesh(spec.J, spec.A, spec.dt, spec.ds) {
  for (const model::SectionLaw& law : segment_data.laws)
    check_derived_numbers(
        spec, model::BeamDensity(law, spec.gravity, model::BeamDensity::E6(), segment_data.speeds),
        stability());
  make_segments();
}

Problem::Problem(const Problem& other, int J, int A)
    : spec(other.spec),
      segment_data(other.segment_data),
      density(other.density),
      loads(spec.loads),
      mesh(J, A, spec.dt, spec.ds) {
  spec.J = J;
  spec.A = A;
  // The first A segments of a non-uniform beam.
  if (segment_data.reference_strains.size() > 1)
    segment_data.reference_strains.resize(static_cast<size_t>(A));
  if (segment_data.laws.size() > 1) segment_data.laws.resize(static_cast<size_t>(A));
  make_segments();
}

mesh::Boundary Problem::boundary() const {
  using mesh::Side;
  if (spec.march == MarchKind::time) {
    const auto side = [](const EndSpec& e) {
      return e.kind == EndSpec::Kind::free ? Side::natural : Side::prescribed;
    };
    return mesh::Boundary::time_evolution(side(spec.left), side(spec.right));
  }
  if (spec.reconstruct.method == ReconstructSpec::Method::driven)  // the tip prescribed, a = 0
    return mesh::Boundary::time_evolution(
        Side::prescribed,
        spec.reconstruct.far_end == EndSpec::Kind::free ? Side::natural : Side::prescribed);
  const auto side = [](const RowSpec& r) {
    return r.kind == RowSpec::Kind::zero_momentum ? Side::natural : Side::prescribed;
  };
  return mesh::Boundary::space_evolution(side(spec.first), side(spec.last));
}

lie::SE3 Problem::stress_free_base() const {
  if (segment_data.shape_base) return *segment_data.shape_base;
  return lie::SE3{rotation_to_axis(spec.initial.axis), spec.initial.origin};
}

march::StabilityNumbers Problem::stability() const {
  return stability(density.wave_speeds());
}

march::StabilityNumbers Problem::stability(const model::WaveSpeeds& speeds) const {
  march::StabilityNumbers n = march::stability_numbers(speeds, spec.dt, spec.ds);
  n.rigid_body =
      spec.march == MarchKind::time && spec.A == 1 && spec.right.kind == EndSpec::Kind::free;
  return n;
}

// Not in the theory: the project's choice of the initial frame for a given d3 axis, the smallest
// rotation taking e3 to it (meshes/README.md, [initial] axis).
Mat3 rotation_to_axis(const Vec3& axis) {
  const Vec3 e3 = Vec3::UnitZ();
  const Vec3 n = axis.stableNormalized();  // also for huge or tiny components
  const Vec3 c = e3.cross(n);
  const double angle = std::atan2(c.norm(), e3.dot(n));
  if (c.norm() < 1e-15)
    return n.z() > 0 ? Mat3::Identity() : lie::rotation_about(Vec3::UnitX(), M_PI);
  return lie::rotation_about(c.normalized(), angle);
}

std::vector<Vec6> initial_velocities(const CaseSpec& c) {
  const InitialSpec& in = c.initial;
  if (in.velocity == InitialSpec::Velocity::file)
    return named(c, in.velocity_file,
                 [&] { return read_node_velocities(in.velocity_file, c.A + 1); });
  return std::vector<Vec6>(
      c.A + 1, in.velocity == InitialSpec::Velocity::uniform ? in.velocity_value : Vec6::Zero());
}

namespace {

template <class G>
std::vector<lie::SE3> initial_row(const Problem& p) {
  const CaseSpec& c = p.spec;
  const InitialSpec& in = c.initial;
  const int nodes = c.A + 1;
  if (in.configuration == InitialSpec::Configuration::file)
    return named(c, in.file, [&] { return read_node_poses(in.file, nodes, in.row); });
  const lie::SE3 base{rotation_to_axis(in.axis), in.origin};
  if (in.configuration == InitialSpec::Configuration::stress_free)  // theory (1.6.3)
    return dcel::stress_free_row(p.model<G>(), p.stress_free_base());
  if (in.configuration == InitialSpec::Configuration::static_equilibrium)  // theory §4.5
    return static_row<G>(p);
  std::vector<lie::SE3> row(nodes);
  if (in.configuration == InitialSpec::Configuration::straight) {  // node a at s_a, theory §3.4
    for (int a = 0; a < nodes; ++a) {
      row[a] = base;
      row[a].r = in.origin + p.mesh.s(a, c.left_side()) * in.axis.stableNormalized();
    }
  } else {  // uniform arc g_0^a = base tau(ds eta)^a, node 0 at the origin (theory §11.2)
    const lie::SE3 step = G::tau(c.ds * in.strain);
    row[0] = base;
    for (int a = 1; a < nodes; ++a) row[a] = row[a - 1] * step;
  }
  return row;
}

/// An end prescribed by a pose track, sampled at t_j (j = 0..J) up front so that a track that
/// does not cover the run is an input error before the march starts.
march::SideSpec end_spec(const EndSpec& end, const lie::SE3& initial, const CaseSpec& c) {
  switch (end.kind) {
    case EndSpec::Kind::free:
      return march::SideSpec::free();
    case EndSpec::Kind::clamped:
      return march::SideSpec::clamped(initial);
    case EndSpec::Kind::prescribed:
      break;
  }
  auto poses = named(c, end.file, [&] {
    const PoseTrack track = read_pose_track(end.file);
    auto sampled = std::make_shared<std::vector<lie::SE3>>();
    for (int j = 0; j <= c.J; ++j) sampled->push_back(track.pose_at(j * c.dt));
    return sampled;
  });
  return march::SideSpec::prescribed([poses](int j) { return (*poses)[j]; });
}

march::SideSpec row_spec(const RowSpec& row, const CaseSpec& c) {
  if (row.kind == RowSpec::Kind::zero_momentum) return march::SideSpec::free();
  auto poses = std::make_shared<std::vector<lie::SE3>>(
      named(c, row.file, [&] { return read_node_poses(row.file, c.A + 1, row.j); }));
  return march::SideSpec::prescribed([poses](int a) { return (*poses)[a]; });
}

}  // namespace

double position_limit(const Problem& p) {
  return position_limit(p.spec.ds, p.spec.dt, p.density.wave_speeds().c_E);
}

void check_positions(const Problem& p, const std::vector<lie::SE3>& poses,
                     const std::string& what) {
  check_positions(position_limit(p), poses, what);
}

void check_checkpoint_positions(const Problem& p, const march::MarchState<lie::SE3, Vec6>& state) {
  const std::string key = p.spec.file.string() + ": [initial] checkpoint";
  check_positions(p, state.prev, key + "'s row before its last, node a =");
  check_positions(p, state.cur, key + " row, node a =");
}

template <class G>
march::TimeMarchInput time_march_input(const Problem& p) {
  const CaseSpec& c = p.spec;
  FIELD_CHECK(c.march == MarchKind::time,
              c.file.string() << ": march = \"space\": run it with `field reconstruct`");
  march::TimeMarchInput in;
  const std::string file = c.file.string() + ": ";
  if (!c.initial.checkpoint.empty()) {  // continue a run from its state (io/checkpoint.hpp)
    const Checkpoint checkpoint = read_fitting_checkpoint(c);
    in.resume = checkpoint.march;
    // A clamped end keeps the pose of row 0, which every row since holds exactly.
    in.left = end_spec(c.left, in.resume.cur.front(), c);
    in.right = end_spec(c.right, in.resume.cur.back(), c);
    check_checkpoint_positions(p, in.resume);
    return in;
  }
  in.row0 = initial_row<G>(p);
  const std::vector<Vec6> xi = initial_velocities(c);
  // g_1 = g_0 tau(dt xi(0)): first order, exact for rigid motions (theory §6.1 step 2 remark);
  // for the second-order start, row 1 to O(dt^2) (checked against the magnitude rule below).
  std::vector<lie::SE3> step_row;
  for (int a = 0; a <= c.A; ++a) step_row.push_back(in.row0[a] * G::tau(c.dt * xi[a]));
  if (c.initial.start == InitialSpec::Start::first_order)
    in.row1 = step_row;
  else
    in.velocities = xi;
  in.left = end_spec(c.left, in.row0.front(), c);
  in.right = end_spec(c.right, in.row0.back(), c);
  check_positions(p, in.row0, file + "[initial] row 0, node a =");
  check_positions(p, step_row, file + "[initial] row 1 (row 0 moved by dt xi(0)), node a =");
  for (const auto& [end, side] : {std::pair{&in.left, "left"}, std::pair{&in.right, "right"}})
    if (!end->is_free()) {
      std::vector<lie::SE3> track;
      for (int j = 0; j <= c.J; ++j) track.push_back(end->motion(j));
      check_positions(p, track, file + "[boundary] " + side + " end at row j =");
    }
  return in;
}

namespace {

void check_space_case(const CaseSpec& c) {
  FIELD_CHECK(c.march == MarchKind::space,
              c.file.string() << ": march = \"time\": run it with `field simulate`");
}

/// The SpaceSetup of the tip data `data` read from `from` (a file or a table).
SpaceSetup space_setup(const Problem& p, TipOnGrid data, const std::string& from) {
  const CaseSpec& c = p.spec;
  SpaceSetup setup;
  if (c.tip_data.strain_at == TipDataSpec::StrainAt::tip_point) {  // theory §6.6
    data.eta0 = p.with_model(
        [&](const auto& model) { return segment_strain_from_point(model, data.g0, data.eta0); });
    data.note += "; tip strains at the point s = 0 converted to the first segment's (theory §6.6)";
  }
  setup.input.column0 = std::move(data.g0);
  setup.input.strain0 = std::move(data.eta0);
  setup.note = data.note;
  setup.input.first = row_spec(c.first, c);
  setup.input.last = row_spec(c.last, c);
  check_positions(p, setup.input.column0, from + ": the tip at row j =");
  for (const auto& [row, name] :
       {std::pair{&setup.input.first, "first"}, std::pair{&setup.input.last, "last"}})
    if (!row->is_free()) {
      std::vector<lie::SE3> poses;
      for (int a = 0; a <= c.A; ++a) poses.push_back(row->motion(a));
      check_positions(p, poses, c.file.string() + ": [boundary] " + name + " row at node a =");
    }
  return setup;
}

}  // namespace

SpaceSetup space_march_input(const Problem& p, const std::filesystem::path& tip) {
  const CaseSpec& c = p.spec;
  check_space_case(c);
  const std::filesystem::path& file = tip.empty() ? c.tip : tip;
  FIELD_CHECK(!file.empty(), c.file.string()
                                 << ": [tip] file is not given: a space march reconstructs the "
                                    "beam from the tip's data: name its CSV file in the case "
                                    "([tip] file = \"tip.csv\", docs/input-data.md) or give "
                                    "`field reconstruct --tip FILE`");
  TipOnGrid data =
      named(c, file, [&] { return read_tip(file, c.dt, c.J, c.tip_data.time_offset); });
  return space_setup(p, std::move(data), file.string());
}

SpaceSetup space_march_input(const Problem& p, const CsvTable& tip) {
  const CaseSpec& c = p.spec;
  check_space_case(c);
  return space_setup(p, tip_on_grid(tip, c.dt, c.J, c.tip_data.time_offset), tip.path.string());
}

template <class G>
march::TimeMarchInput driven_march_input(const Problem& p, const SpaceSetup& setup) {
  const CaseSpec& c = p.spec;
  FIELD_CHECK(c.march == MarchKind::space && c.reconstruct.method != ReconstructSpec::Method::space,
              c.file.string() << ": driven_march_input needs [reconstruct] method = \"driven\" (or "
                                 "\"estimate\", which starts from it)");
  // Start at rest (docs/reconstruction.md): row 0 straight and unstressed along the tip's d3 at
  // t = 0 (node a at s_a = a ds from the prescribed tip, theory §3.4), zero velocity, the
  // second-order start of theory §6.1.
  march::TimeMarchInput in;
  const lie::SE3& tip0 = setup.input.column0.front();
  const Vec3 axis = tip0.R.col(2);
  if (c.shape.kind == ShapeSpec::Kind::straight)
    for (int a = 0; a <= c.A; ++a) in.row0.push_back(lie::SE3{tip0.R, tip0.r + (a * c.ds) * axis});
  else  // a curved beam starts unstressed in its own shape (theory (1.6.3))
    in.row0 = dcel::stress_free_row(p.model<G>(), tip0);
  in.velocities = std::vector<Vec6>(c.A + 1, Vec6::Zero());
  auto tip = std::make_shared<std::vector<lie::SE3>>(setup.input.column0);
  in.left = march::SideSpec::prescribed([tip](int j) { return (*tip)[j]; });
  in.right = c.reconstruct.far_end == EndSpec::Kind::clamped
                 ? march::SideSpec::clamped(in.row0.back())
                 : march::SideSpec::free();
  check_positions(p, in.row0, c.file.string() + ": the driven reconstruction's row 0, node a =");
  return in;
}

#define FIELD_INSTANTIATE(G)                                            \
  template march::TimeMarchInput time_march_input<G>(const Problem& p); \
  template march::TimeMarchInput driven_march_input<G>(const Problem& p, const SpaceSetup& setup);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::io
