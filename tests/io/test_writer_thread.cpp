// io::WriterThread: the writers behind it receive exactly the calls the march makes (same slabs,
// same order, then finish()), a writer's exception reaches the march's next call unchanged, and
// the destructor delivers every slab received (an exception unwinding the run loses no row).
#include "libfield/io/writer_thread.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/io/field_csv.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::test {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Records every call as text: "slab j n r0x mean" and "finish".
struct Recorder final : march::SlabObserver {
  std::vector<std::string> calls;
  int throw_at = -1;  // slab index whose call throws an IoError
  void slab(int index, const std::vector<lie::SE3>& values,
            const march::SlabStats& stats) override {
    if (index == throw_at) throw IoError("disk full at slab " + std::to_string(index));
    calls.push_back("slab " + std::to_string(index) + " " + std::to_string(values.size()) + " " +
                    std::to_string(values.back().r.x()) + " " +
                    std::to_string(stats.mean_iterations));
  }
  void finish() override { calls.push_back("finish"); }
};

/// Slab j: `size` poses, the last one at x = j; mean iterations j / 2.
std::vector<lie::SE3> slab_of(int j, int size) {
  std::vector<lie::SE3> values(static_cast<size_t>(size));
  values.back().r.x() = j;
  return values;
}
march::SlabStats stats_of(int j) {
  march::SlabStats s;
  s.mean_iterations = j / 2.0;
  return s;
}

/// Hands slabs 0..count-1 of `size` poses to `o`.
void march_slabs(march::SlabObserver& o, int count, int size) {
  for (int j = 0; j < count; ++j) o.slab(j, slab_of(j, size), stats_of(j));
}

TEST(WriterThread, WritersSeeTheMarchsCallsInOrder) {
  // Small slabs (many in a batch), slabs of a batch's size and larger than a batch.
  for (int size :
       {3, 11, int(io::WriterThread::kBatchNodes), 3 * int(io::WriterThread::kBatchNodes)}) {
    Recorder direct, first, second;
    march_slabs(direct, 1000, size);
    direct.finish();
    io::WriterThread writer({&first, &second});
    march_slabs(writer, 1000, size);
    writer.finish();
    EXPECT_EQ(first.calls, direct.calls) << size;
    EXPECT_EQ(second.calls, direct.calls) << size;
  }
}

TEST(WriterThread, AWritersErrorReachesTheMarchUnchanged) {
  Recorder recorder;
  recorder.throw_at = 500;
  io::WriterThread writer({&recorder});
  std::string message;
  int j = 0;
  try {
    for (; j < 100000; ++j) writer.slab(j, slab_of(j, 11), stats_of(j));
    writer.finish();
  } catch (const IoError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("disk full at slab 500"), std::string::npos) << message;
  EXPECT_GT(j, 500);                       // thrown by a later call of the march ...
  EXPECT_LT(j, 100000);                    // ... not only at the end
  ASSERT_EQ(recorder.calls.size(), 500u);  // slabs 0..499, then nothing more
  EXPECT_EQ(recorder.calls.back().rfind("slab 499 ", 0), 0u);
  // finish() (march_safely finishes the observers after an error) throws the same error again.
  EXPECT_THROW(writer.finish(), IoError);
}

TEST(WriterThread, DestructorDeliversEverySlabReceived) {
  Recorder recorder;
  {
    io::WriterThread writer({&recorder});
    march_slabs(writer, 777, 11);
  }  // no finish(): an exception unwound the run
  ASSERT_EQ(recorder.calls.size(), 777u);
  EXPECT_EQ(recorder.calls.back().rfind("slab 776 ", 0), 0u);
}

TEST(WriterThread, FieldCsvSameBytesAsOnTheCallersThread) {
  // A time march's rows with distinct poses, every row and every 7th row (the last slab written
  // at finish()).
  TempFolder tmp;
  const mesh::SpacetimeMesh mesh(999, 20, 0.0025, 0.05);  // J, A, dt, ds
  for (int stride : {1, 7}) {
    const auto path = [&](const char* name) { return tmp / (name + std::to_string(stride)); };
    io::FieldCsvWriter direct(path("direct"), mesh, true, mesh::Side::natural, stride);
    io::FieldCsvWriter behind(path("thread"), mesh, true, mesh::Side::natural, stride);
    {
      io::WriterThread writer({&behind});
      for (int j = 0; j <= mesh.J(); ++j) {
        std::vector<lie::SE3> row(static_cast<size_t>(mesh.A()) + 1);
        for (int a = 0; a <= mesh.A(); ++a) {
          row[a].r = Vec3(0.1 * a + 1e-3 * j, std::sin(0.01 * j * a), 1.0 / (1 + j + a));
          row[a].R = Eigen::AngleAxisd(0.001 * j + 0.1 * a, Vec3(1, 2, 3).normalized()).matrix();
        }
        direct.slab(j, row, {});
        writer.slab(j, row, {});
      }
      direct.finish();
      writer.finish();
    }
    const std::string a = read_text(path("direct")), b = read_text(path("thread"));
    EXPECT_GT(a.size(), 100000u);
    EXPECT_TRUE(a == b) << stride;
  }
}

}  // namespace
}  // namespace field::test
