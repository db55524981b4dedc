// Fuzz target: node data (io::node_poses with and without a j column, io::node_velocities), the
// content of read_node_poses / read_node_velocities, for a beam of 4 nodes.
#include "libfield/io/node_data.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace field;
  fuzz::run([&] { io::node_poses(fuzz::csv_of(data, size, io::node_pose_columns(false)), 4); });
  fuzz::run([&] { io::node_poses(fuzz::csv_of(data, size, io::node_pose_columns(true)), 4, 1); });
  fuzz::run([&] { io::node_velocities(fuzz::csv_of(data, size, io::node_velocity_columns()), 4); });
  return 0;
}
