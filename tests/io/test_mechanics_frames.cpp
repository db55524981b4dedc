// io/mechanics_frames: a frame read back by VTK's vtkXMLPolyDataReader, points bit for bit.
#include <gtest/gtest.h>
#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include "libfield/io/mechanics_frames.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

TEST(MechanicsFrames, ReadBackByVtk) {
  const test::TempFolder folder;
  MechanicsFrames frames(folder.path());
  PolylineFrame frame;
  frame.points = {Vec3::Zero(), Vec3(0.1, -0.7, 1.0 / 3.0), Vec3(1e-300, 2.5, -4.0)};
  frame.segments = {{0, 1}, {1, 2}};
  frames.add(0.0, frame);
  frames.add(0.125, frame);
  ASSERT_EQ(frames.size(), 2);
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName((folder.path() / "frames/frame_000001.vtp").string().c_str());
  reader->Update();
  ASSERT_EQ(reader->GetErrorCode(), 0u);
  vtkPolyData* data = reader->GetOutput();
  ASSERT_EQ(data->GetNumberOfPoints(), 3);
  ASSERT_EQ(data->GetNumberOfLines(), 2);
  for (vtkIdType i = 0; i < 3; ++i) {
    double p[3];
    data->GetPoint(i, p);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(p[k], frame.points[static_cast<std::size_t>(i)](k));
  }
  EXPECT_EQ(data->GetFieldData()->GetArray("TimeValue")->GetTuple1(0), 0.125);
  const std::vector<PvdEntry> index = read_pvd(folder.path() / "mechanics.pvd");
  ASSERT_EQ(index.size(), 2u);
  EXPECT_EQ(index[1].file, "frames/frame_000001.vtp");
}

}  // namespace
}  // namespace field::io
