#include "libfield/io/case_setup.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/io/node_data.hpp"
#include "libfield/io/tip_data.hpp"
#include "libfield/lie/so3.hpp"

namespace field::io {

Problem::Problem(CaseSpec case_spec)
    : spec(std::move(case_spec)),
      density(spec.section, spec.material, spec.gravity),
      loads(spec.loads),
      mesh(spec.J, spec.A, spec.dt, spec.ds),
      model(density, loads, lie::Retraction(spec.retraction), mesh) {}

Problem::Problem(const Problem& other, int J, int A)
    : spec(other.spec),
      density(spec.section, spec.material, spec.gravity),
      loads(spec.loads),
      mesh(J, A, spec.dt, spec.ds),
      model(density, loads, lie::Retraction(spec.retraction), mesh) {
  spec.J = J;
  spec.A = A;
}

mesh::Boundary Problem::boundary() const {
  using mesh::Side;
  if (spec.march == MarchKind::time) {
    const auto side = [](const EndSpec& e) {
      return e.kind == EndSpec::Kind::free ? Side::natural : Side::prescribed;
    };
    return mesh::Boundary::time_evolution(side(spec.left), side(spec.right));
  }
  const auto side = [](const RowSpec& r) {
    return r.kind == RowSpec::Kind::zero_momentum ? Side::natural : Side::prescribed;
  };
  return mesh::Boundary::space_evolution(side(spec.first), side(spec.last));
}

march::StabilityNumbers Problem::stability() const {
  return march::stability_numbers(model::wave_speeds(spec.section, spec.material), spec.dt,
                                  spec.ds);
}

// Not in the SPEC: the project's choice of the initial frame for a given d3 axis, the smallest
// rotation taking e3 to it (meshes/README.md, [initial] axis).
Mat3 rotation_to_axis(const Vec3& axis) {
  const Vec3 e3 = Vec3::UnitZ();
  const Vec3 n = axis.normalized();
  const Vec3 c = e3.cross(n);
  const double angle = std::atan2(c.norm(), e3.dot(n));
  if (c.norm() < 1e-15)
    return n.z() > 0 ? Mat3::Identity() : lie::rotation_about(Vec3::UnitX(), M_PI);
  return lie::rotation_about(c.normalized(), angle);
}

namespace {

/// Runs `read` (a reader of the data file `file`); an error it throws gets the case line and key
/// that named the file added, before FIELD_CHECK's " [check ...]" suffix, keeping its type.
template <class Read>
auto named(const CaseSpec& c, const std::filesystem::path& file, Read read) -> decltype(read()) {
  const std::string key = c.named_by(file);
  const auto with_key = [&key](const std::string& message) {
    if (key.empty()) return message;
    const std::size_t at = std::min(message.rfind(" [check '"), message.size());
    return message.substr(0, at) + " (the file of " + key + ")" + message.substr(at);
  };
  try {
    return read();
  } catch (const IoError& e) {
    throw IoError(with_key(e.what()));
  } catch (const Error& e) {
    throw Error(with_key(e.what()));
  }
}

std::vector<lie::SE3> initial_row(const Problem& p) {
  const CaseSpec& c = p.spec;
  const InitialSpec& in = c.initial;
  const int nodes = c.A + 1;
  if (in.configuration == InitialSpec::Configuration::file)
    return named(c, in.file, [&] { return read_node_poses(in.file, nodes); });
  const lie::SE3 base{rotation_to_axis(in.axis), in.origin};
  std::vector<lie::SE3> row(nodes);
  if (in.configuration == InitialSpec::Configuration::straight) {  // node a at s_a, SPEC [S4.3]
    for (int a = 0; a < nodes; ++a) {
      row[a] = base;
      row[a].r = in.origin + p.mesh.s(a, c.left_side()) * in.axis.normalized();
    }
  } else {  // uniform arc g_0^a = base tau(ds eta)^a, node 0 at the origin (SPEC [S11.2])
    const lie::SE3 step = p.model.tau().tau(c.ds * in.strain);
    row[0] = base;
    for (int a = 1; a < nodes; ++a) row[a] = row[a - 1] * step;
  }
  return row;
}

std::vector<Vec6> initial_velocities(const CaseSpec& c) {
  const InitialSpec& in = c.initial;
  if (in.velocity == InitialSpec::Velocity::file)
    return named(c, in.velocity_file,
                 [&] { return read_node_velocities(in.velocity_file, c.A + 1); });
  return std::vector<Vec6>(
      c.A + 1, in.velocity == InitialSpec::Velocity::uniform ? in.velocity_value : Vec6::Zero());
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

march::TimeMarchInput time_march_input(const Problem& p) {
  const CaseSpec& c = p.spec;
  FIELD_CHECK(c.march == MarchKind::time,
              c.file.string() << ": march = \"space\": run it with `field reconstruct`");
  march::TimeMarchInput in;
  in.row0 = initial_row(p);
  const std::vector<Vec6> xi = initial_velocities(c);
  if (c.initial.start == InitialSpec::Start::first_order) {
    // g_1 = g_0 tau(dt xi(0)): first order, exact for rigid motions (SPEC [S7.1] step 2 remark).
    for (int a = 0; a <= c.A; ++a) in.row1.push_back(in.row0[a] * p.model.tau().tau(c.dt * xi[a]));
  } else {
    in.velocities = xi;
  }
  in.left = end_spec(c.left, in.row0.front(), c);
  in.right = end_spec(c.right, in.row0.back(), c);
  return in;
}

SpaceSetup space_march_input(const Problem& p, const std::filesystem::path& tip) {
  const CaseSpec& c = p.spec;
  FIELD_CHECK(c.march == MarchKind::space,
              c.file.string() << ": march = \"time\": run it with `field simulate`");
  SpaceSetup setup;
  const std::filesystem::path& file = tip.empty() ? c.tip : tip;
  TipOnGrid data = named(c, file, [&] { return read_tip(file, c.dt, c.J); });
  setup.input.column0 = std::move(data.g0);
  setup.input.strain0 = std::move(data.eta0);
  setup.note = data.note;
  setup.input.first = row_spec(c.first, c);
  setup.input.last = row_spec(c.last, c);
  return setup;
}

}  // namespace field::io
