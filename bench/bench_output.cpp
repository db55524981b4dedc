// The text of the output files (docs/performance.md, "Whole runs"): write_double on the values of
// field.csv (positions of order 10-100 m, quaternion components in [-1, 1], 16-17 digits), against
// std::to_chars, whose bytes it writes; write_doubles on field.csv's lines of 7 values; the
// coordinates of a pose (its quaternion); and field.csv's formatting of one time row of 21 nodes.
#include <benchmark/benchmark.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "libfield/io/atomic_file.hpp"
#include "libfield/io/field_csv.hpp"
#include "libfield/io/number_text.hpp"

namespace {

using namespace field;

std::vector<double> pose_values(std::size_t count) {
  std::mt19937_64 bits(18);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> values(count);
  for (std::size_t k = 0; k < count; ++k)
    values[k] = k % 7 < 3 ? 60.0 * unit(bits) : unit(bits);  // x, y, z, then qw, qx, qy, qz
  return values;
}

void BM_write_double(benchmark::State& state) {
  const std::vector<double> values = pose_values(4096);
  char text[4096 * (io::kMaxDoubleChars + 1)];
  for (auto _ : state) {
    char* out = text;
    for (const double v : values) {
      out = io::write_double(out, v);
      *out++ = ',';
    }
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(values.size()));
}
BENCHMARK(BM_write_double);

// write_doubles on lines of 7 values (field.csv's x, y, z, qw, qx, qy, qz; items: values).
void BM_write_doubles(benchmark::State& state) {
  const std::vector<double> values = pose_values(4096 - 4096 % 7);
  char text[4096 * (io::kMaxDoubleChars + 1)];
  for (auto _ : state) {
    char* out = text;
    for (std::size_t k = 0; k < values.size(); k += 7)
      out = io::write_doubles(out, &values[k], 7, '\n');
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(values.size()));
}
BENCHMARK(BM_write_doubles);

// field.csv's coordinates of a pose, lie::Coordinates<SE3>::write: the position and the rotation's
// quaternion (lie::quat_from_rotation), on random rotations (items: poses).
void BM_pose_coordinates(benchmark::State& state) {
  std::mt19937_64 bits(18);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<lie::SE3> poses(4096);
  for (lie::SE3& g : poses)
    g = lie::SE3::from_quat(Vec4(unit(bits), unit(bits), unit(bits), unit(bits)).normalized(),
                            Vec3(60.0 * unit(bits), 60.0 * unit(bits), unit(bits)));
  std::vector<double> coordinates(poses.size() * 7);
  for (auto _ : state) {
    for (std::size_t k = 0; k < poses.size(); ++k)
      lie::Coordinates<lie::SE3>::write(poses[k], &coordinates[7 * k]);
    benchmark::DoNotOptimize(coordinates.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(poses.size()));
}
BENCHMARK(BM_pose_coordinates);

void BM_std_to_chars(benchmark::State& state) {
  const std::vector<double> values = pose_values(4096);
  char text[4096 * (io::kMaxDoubleChars + 1)];
  for (auto _ : state) {
    char* out = text;
    for (const double v : values) {
      out = std::to_chars(out, out + io::kMaxDoubleChars, v).ptr;
      *out++ = ',';
    }
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(values.size()));
}
BENCHMARK(BM_std_to_chars);

// FieldCsvWriter::slab on time rows of A + 1 = 21 nodes (10^4 rows, 36 MB written to a file in
// the temporary folder, then removed): per node the copies of j, a, t, s, the quaternion and 7
// numbers, and the writes (items: nodes).
void BM_field_csv_row(benchmark::State& state) {
  const int A = 20, J = 1 << 30;
  const mesh::SpacetimeMesh mesh(J, A, 0.0025, 0.05);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "bench_output_field.csv";
  auto writer = std::make_unique<io::FieldCsvWriter>(path, mesh, true, mesh::Side::natural, 1);
  std::mt19937_64 bits(18);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<lie::SE3> row(A + 1);
  for (lie::SE3& g : row)
    g = lie::SE3::from_quat(Vec4(unit(bits), unit(bits), unit(bits), unit(bits)).normalized(),
                            Vec3(60.0 * unit(bits), 60.0 * unit(bits), unit(bits)));
  int j = 0;
  for (auto _ : state) writer->slab(j++, row, march::SlabStats{});
  state.SetItemsProcessed(state.iterations() * (A + 1));
  writer.reset();  // keeps path.part: removed
  std::filesystem::remove(io::part_path(path));
}
BENCHMARK(BM_field_csv_row)->Iterations(10000);

}  // namespace
