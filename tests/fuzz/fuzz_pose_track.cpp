// Fuzz target: the motion of a prescribed end (PoseTrack::from_table on the columns of
// read_pose_track), resampled at its ends, its middle and between samples.
#include "libfield/io/node_data.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace field;
  return fuzz::run([&] {
    const io::PoseTrack track =
        io::PoseTrack::from_table(fuzz::csv_of(data, size, io::pose_track_columns()), "t", {});
    const double a = track.first(), b = track.last();
    for (const double t : {a, b, 0.5 * (a + b), a + 0.25 * (b - a)}) track.pose_at(t);
    track.on_grid(a, (b - a) / 8, 9);
  });
}
