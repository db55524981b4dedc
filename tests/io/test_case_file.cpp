// Case files (libfield/io/case_file): the shipped cases resolve to the theory's parameters, the
// resolved form written to run.toml loads back to the same case, and bad values are errors that
// name the file, the line, the key and the value.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/case_file.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path shipped(const std::string& name, const std::string& file = "case.toml") {
  return fs::path(FIELD_SOURCE_DIR) / "meshes" / name / file;
}

TEST(CaseFile, FreeFlightResolvesToTheSpec) {
  const CaseSpec c = load_case(shipped("free_flight"));
  EXPECT_EQ(c.name, "free_flight");
  EXPECT_EQ(c.march, MarchKind::time);
  EXPECT_EQ(c.retraction, lie::RetractionKind::cayley);
  EXPECT_EQ(c.A, 10);
  EXPECT_EQ(c.J, 400);
  EXPECT_EQ(c.ds, 0.1);
  EXPECT_EQ(c.dt, 0.005);
  EXPECT_DOUBLE_EQ(c.length(), 1.0);
  EXPECT_DOUBLE_EQ(c.section.area, 0.01);
  EXPECT_DOUBLE_EQ(c.section.I1, 1e-4 / 12);
  EXPECT_EQ(c.material.E, 1e5);
  EXPECT_EQ(c.material.nu, 0.35);
  EXPECT_EQ(c.left.kind, EndSpec::Kind::free);
  EXPECT_EQ(c.initial.velocity, InitialSpec::Velocity::file);
  EXPECT_EQ(c.initial.velocity_file, shipped("free_flight", "velocities.csv"));
  EXPECT_EQ(c.left_side(), mesh::Side::natural);
}

TEST(CaseFile, CantileverLengthFollowsTheNodePlacement) {
  const CaseSpec c = load_case(shipped("cantilever_gravity"));
  EXPECT_DOUBLE_EQ(c.ds, 1.0 / 9.5);  // L = (A - 1/2) ds, theory §11.3
  EXPECT_EQ(c.left.kind, EndSpec::Kind::clamped);
  EXPECT_EQ(c.gravity, Vec3(0, 0, -9.81));
  EXPECT_EQ(c.dt, 5e-4);
  EXPECT_EQ(c.J, 2000);
  EXPECT_EQ(c.left_side(), mesh::Side::prescribed);
}

TEST(CaseFile, SpaceEvolutionResolvesToTheSpec) {
  const CaseSpec c = load_case(shipped("space_evolution"));
  EXPECT_EQ(c.march, MarchKind::space);
  EXPECT_EQ(c.J, 300);
  EXPECT_DOUBLE_EQ(c.dt, 2.0 / 300);
  EXPECT_DOUBLE_EQ(c.section.area, 0.04);
  EXPECT_EQ(c.first.kind, RowSpec::Kind::zero_momentum);
  EXPECT_EQ(c.tip, shipped("space_evolution", "tip.csv"));
  EXPECT_FALSE(c.output.tip);
  const CaseSpec r = load_case(shipped("roundtrip"));
  EXPECT_EQ(r.first.kind, RowSpec::Kind::prescribed);
  EXPECT_EQ(r.last.j.value(), 100);
}

TEST(CaseFile, ResolvedCaseLoadsBackTheSame) {
  test::TempFolder tmp;
  for (const auto& [name, file] :
       std::vector<std::pair<std::string, std::string>>{{"free_flight", "case.toml"},
                                                        {"rigid_spin", "case.toml"},
                                                        {"static_arc", "case.toml"},
                                                        {"cantilever_gravity", "case.toml"},
                                                        {"space_evolution", "case.toml"},
                                                        {"roundtrip", "case.toml"},
                                                        {"roundtrip", "simulate.toml"},
                                                        {"driven", "case.toml"},
                                                        {"driven", "simulate.toml"}}) {
    CaseSpec c = load_case(shipped(name, file));
    model::DistributedLoad d;
    d.wrench = model::TimeTable({0.0, 0.5}, {Vec6::Ones(), Vec6::Constant(-0.1 / 3)});
    d.a_first = 1;
    d.a_last = 2;
    c.loads.distributed.push_back(d);
    model::PointLoad p;
    p.a = 2;
    p.frame = model::LoadFrame::body;
    p.wrench = model::TimeTable::constant(Vec6::Constant(1.0 / 7));
    c.loads.point.push_back(p);
    std::ostringstream text;
    write_case(text, c);
    const fs::path again = tmp.write(name + "_" + file, text.str());
    const CaseSpec b = load_case(again);
    EXPECT_EQ(b.march, c.march) << name;
    EXPECT_EQ(b.A, c.A);
    EXPECT_EQ(b.J, c.J);
    EXPECT_EQ(b.ds, c.ds) << name;  // 17 digits: exact
    EXPECT_EQ(b.dt, c.dt) << name;
    EXPECT_EQ(b.section.area, c.section.area);
    EXPECT_EQ(b.section.torsion, c.section.torsion);
    EXPECT_EQ(b.material.nu, c.material.nu);
    EXPECT_EQ(b.gravity, c.gravity);
    EXPECT_EQ(b.left.kind, c.left.kind);
    EXPECT_EQ(b.right.kind, c.right.kind);
    EXPECT_EQ(b.first.kind, c.first.kind);
    EXPECT_EQ(b.first.file, c.first.file);
    EXPECT_EQ(b.tip, c.tip);
    EXPECT_EQ(b.initial.configuration, c.initial.configuration);
    EXPECT_EQ(b.initial.origin, c.initial.origin);
    EXPECT_EQ(b.initial.strain, c.initial.strain);
    EXPECT_EQ(b.initial.velocity_value, c.initial.velocity_value);
    EXPECT_EQ(b.initial.start, c.initial.start);
    ASSERT_EQ(b.loads.distributed.size(), 1u);
    EXPECT_EQ(b.loads.distributed[0].wrench.values()[1], d.wrench.values()[1]);
    EXPECT_EQ(b.loads.distributed[0].a_last, 2);
    ASSERT_EQ(b.loads.point.size(), 1u);
    EXPECT_EQ(b.loads.point[0].frame, model::LoadFrame::body);
    EXPECT_EQ(b.loads.point[0].wrench.values()[0], p.wrench.values()[0]);
    EXPECT_EQ(b.output.tip, c.output.tip);
    EXPECT_EQ(b.tip_data.time_offset, c.tip_data.time_offset) << name;
    EXPECT_EQ(b.tip_data.strain_at, c.tip_data.strain_at) << name;
    EXPECT_EQ(b.reconstruct.method, c.reconstruct.method) << name;
    EXPECT_EQ(b.reconstruct.far_end, c.reconstruct.far_end) << name;
    EXPECT_EQ(b.length(), c.length()) << name;
  }
}

TEST(CaseFile, DrivenReconstructionKeysResolveAndLoadBack) {
  const CaseSpec c = load_case(shipped("driven"));
  EXPECT_EQ(c.march, MarchKind::space);
  EXPECT_EQ(c.reconstruct.method, ReconstructSpec::Method::driven);
  EXPECT_EQ(c.reconstruct.far_end, EndSpec::Kind::free);
  EXPECT_TRUE(c.marches_in_time());
  EXPECT_DOUBLE_EQ(c.length(), 0.95);  // tip prescribed, far end free: (A - 1/2) ds
  EXPECT_FALSE(c.tip_data.time_offset.has_value());
  EXPECT_EQ(c.tip_data.strain_at, TipDataSpec::StrainAt::segment);
  // Defaults of a space case: the space march, no offset, first-segment strains.
  const CaseSpec s = load_case(shipped("space_evolution"));
  EXPECT_EQ(s.reconstruct.method, ReconstructSpec::Method::space);
  EXPECT_FALSE(s.marches_in_time());
  // Every new key set, written and loaded back.
  test::TempFolder tmp;
  std::string text = read_text(shipped("driven"));
  text.replace(text.find("far_end = \"free\""), 17, "far_end = \"clamped\"");
  text.replace(text.find("[tip]\n"), 6, "[tip]\ntime_offset = -1.25\nstrain_at = \"tip_point\"\n");
  const fs::path edited = tmp.write("case.toml", text);
  fs::copy(shipped("driven", "tip.csv"), tmp.path() / "tip.csv");
  const CaseSpec e = load_case(edited);
  EXPECT_EQ(e.reconstruct.far_end, EndSpec::Kind::clamped);
  EXPECT_DOUBLE_EQ(e.length(), 1.0);
  EXPECT_EQ(e.tip_data.time_offset.value(), -1.25);
  EXPECT_EQ(e.tip_data.strain_at, TipDataSpec::StrainAt::tip_point);
  std::ostringstream out;
  write_case(out, e);
  const CaseSpec b = load_case(tmp.write("run.toml", out.str()));
  EXPECT_EQ(b.reconstruct.far_end, EndSpec::Kind::clamped);
  EXPECT_EQ(b.tip_data.time_offset.value(), -1.25);
  EXPECT_EQ(b.tip_data.strain_at, TipDataSpec::StrainAt::tip_point);
}

// [reconstruct] method = "estimate" (theory §6.7): defaults, every key set, written and loaded
// back; the lengths of the far-end choices.
TEST(CaseFile, EstimateKeysResolveAndLoadBack) {
  test::TempFolder tmp;
  fs::copy(shipped("driven", "tip.csv"), tmp.path() / "tip.csv");
  std::string text = read_text(shipped("driven"));
  text.replace(text.find("method = \"driven\""), 17, "method = \"estimate\"");
  const CaseSpec d = load_case(tmp.write("case.toml", text));
  EXPECT_EQ(d.reconstruct.method, ReconstructSpec::Method::estimate);
  EXPECT_FALSE(d.marches_in_time());
  EXPECT_TRUE(d.reconstruct.first_at_rest);
  EXPECT_FALSE(d.reconstruct.first_straight);
  EXPECT_TRUE(d.reconstruct.last_at_rest);
  EXPECT_FALSE(d.reconstruct.far_end_none);
  EXPECT_EQ(d.reconstruct.model_error, 1e-3);
  EXPECT_EQ(d.reconstruct.max_iterations, 50);
  EXPECT_DOUBLE_EQ(d.length(), 0.95);  // far end free: (A - 1/2) ds
  text.replace(text.find("far_end = \"free\""), 17,
               "far_end = \"none\"\nfirst_row = \"straight\"\nlast_row = \"free\"\n"
               "model_error = 0.25\nmax_iterations = 7\ncovariance = false");
  const CaseSpec e = load_case(tmp.write("case.toml", text));
  EXPECT_TRUE(e.reconstruct.far_end_none);
  EXPECT_TRUE(e.reconstruct.first_straight);
  EXPECT_FALSE(e.reconstruct.last_at_rest);
  EXPECT_EQ(e.reconstruct.model_error, 0.25);
  EXPECT_EQ(e.reconstruct.max_iterations, 7);
  EXPECT_DOUBLE_EQ(e.length(), 1.0);  // nothing at a = A: A ds
  std::ostringstream out;
  write_case(out, e);
  const CaseSpec b = load_case(tmp.write("run.toml", out.str()));
  EXPECT_EQ(b.reconstruct.method, ReconstructSpec::Method::estimate);
  EXPECT_TRUE(b.reconstruct.far_end_none);
  EXPECT_TRUE(b.reconstruct.first_straight);
  EXPECT_TRUE(b.reconstruct.first_at_rest);
  EXPECT_FALSE(b.reconstruct.last_at_rest);
  EXPECT_EQ(b.reconstruct.model_error, 0.25);
  EXPECT_EQ(b.reconstruct.max_iterations, 7);
  EXPECT_FALSE(b.reconstruct.covariance);
  EXPECT_TRUE(d.reconstruct.covariance);
}

/// A minimal valid time-march case; `beam_extra` goes into [beam], `tail` after [grid].
std::string minimal(const std::string& beam_extra = "", const std::string& tail = "") {
  return "format = 1\nmarch = \"time\"\n[beam]\nsection = \"square\"\nside = 0.1\nE = 1e5\n"
         "nu = 0.3\nrho = 1000.0\n" +
         beam_extra + "[grid]\nA = 4\nds = 0.25\ndt = 0.01\nJ = 10\n" + tail;
}

/// `minimal()` with the first `from` replaced by `to`.
std::string minimal_with(const std::string& from, const std::string& to) {
  std::string s = minimal();
  s.replace(s.find(from), from.size(), to);
  return s;
}

TEST(CaseFile, ResolvedCaseKeepsAnyDescription) {
  // write_case escapes TOML basic strings: quotes, backslashes, newlines, tabs and other
  // control characters read back unchanged (run.toml stays valid TOML).
  test::TempFolder tmp;
  CaseSpec c = load_case(tmp.write("case.toml", minimal()));
  c.description = "two\nlines\twith \"quotes\", a back\\slash and \x01";
  std::ostringstream out;
  write_case(out, c);
  const CaseSpec back = load_case(tmp.write("run.toml", out.str()));
  EXPECT_EQ(back.description, c.description);
}

TEST(CaseFile, MinimalCaseHasDocumentedDefaults) {
  test::TempFolder tmp;
  const CaseSpec c = load_case(tmp.write("case.toml", minimal()));
  EXPECT_EQ(c.retraction, lie::RetractionKind::cayley);
  EXPECT_EQ(c.left.kind, EndSpec::Kind::free);
  EXPECT_EQ(c.initial.configuration, InitialSpec::Configuration::straight);
  EXPECT_EQ(c.initial.axis, Vec3::UnitZ());
  EXPECT_EQ(c.initial.velocity, InitialSpec::Velocity::zero);
  EXPECT_EQ(c.newton.tolerance, 1e-14);
  EXPECT_EQ(c.output.stride, 1);
  EXPECT_TRUE(c.output.csv && c.output.vtk && c.output.tip);
  EXPECT_EQ(c.section.shear_k, 1.0);
}

// [[loads.end]] (theory §4.6) is the end wrench at the physical free end: a point load on node A
// marked `end` (the time march shares it between nodes A-1 and A). `node = A` is a plain point
// load on node A, distinct from it; write_case keeps the difference.
TEST(CaseFile, EndWrenchIsAPointLoadOnTheFreeEnd) {
  test::TempFolder tmp;
  const CaseSpec c = load_case(
      tmp.write("case.toml", minimal("",
                                     "[[loads.end]]\nframe = \"body\"\ntimes = [0.0, 1.0]\n"
                                     "wrenches = [[0,0,0,0,0,0], [6.28,0,0,0,0,0]]\n"
                                     "[[loads.point]]\nnode = 4\nwrench = [0,0,0,0,0,1]\n")));
  ASSERT_EQ(c.loads.point.size(), 2u);
  EXPECT_EQ(c.loads.point[0].a, c.A);  // [[loads.point]] are read first
  EXPECT_EQ(c.loads.point[0].frame, model::LoadFrame::world);
  EXPECT_FALSE(c.loads.point[0].end);
  EXPECT_EQ(c.loads.point[1].a, c.A);
  EXPECT_EQ(c.loads.point[1].frame, model::LoadFrame::body);
  EXPECT_TRUE(c.loads.point[1].end);
  EXPECT_EQ(c.loads.point[1].wrench.at(0.5)(0), 3.14);
  std::ostringstream text;
  write_case(text, c);
  const CaseSpec b = load_case(tmp.write("again.toml", text.str()));
  ASSERT_EQ(b.loads.point.size(), 2u);
  EXPECT_FALSE(b.loads.point[0].end);
  EXPECT_TRUE(b.loads.point[1].end);
  EXPECT_EQ(b.loads.point[1].wrench.at(0.5)(0), 3.14);
}

struct Bad {
  const char* name;
  std::string text;
  std::vector<std::string> words;  // the message must contain each
  friend void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }
};

class BadCaseFile : public ::testing::TestWithParam<Bad> {};

TEST_P(BadCaseFile, NamesFileLineKeyAndValue) {
  test::TempFolder tmp;
  const fs::path file = tmp.write("bad.toml", GetParam().text);
  const std::string message = test::error_message([&] { load_case(file); });
  EXPECT_TRUE(test::contains(message, "bad.toml:")) << message;
  for (const auto& w : GetParam().words) EXPECT_TRUE(test::contains(message, w)) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BadCaseFile,
    ::testing::Values(
        Bad{"format", "format = 2\n", {"bad.toml:1:", "format = 2"}},
        Bad{"nu", minimal_with("nu = 0.3", "nu = 0.5"), {":7:", "[beam] nu = 0.5", "(-1, 0.5)"}},
        Bad{"negative_E", minimal_with("E = 1e5", "E = -1"), {"[beam] E = -1", "> 0"}},
        Bad{"dt_and_T", minimal("", "T = 0.1\n"), {"exactly two of dt, J and T"}},
        Bad{"unknown", minimal("color = \"red\"\n"), {":9:", "unknown key [beam] color", "rho"}},
        Bad{"type", minimal_with("A = 4", "A = 4.5"), {"[grid] A = 4.5", "integer"}},
        Bad{"missing_table", "format = 1\nmarch = \"time\"\n", {"[beam]"}},
        Bad{"section", minimal_with("\"square\"", "\"hexagon\""), {"\"hexagon\"", "\"circle\""}},
        Bad{"axis", minimal("", "[initial]\naxis = [0, 0, 0]\n"), {"[initial] axis", "zero"}},
        Bad{"vector_size",
            minimal("", "[loads]\ngravity = [0, -9.81]\n"),
            {"[loads] gravity", "3 numbers"}},
        Bad{"load_nodes",
            minimal("", "[[loads.distributed]]\nwrench = [0,0,0,0,0,1]\nnodes = [2, 9]\n"),
            {"nodes", "A-1 = 3"}},
        Bad{"table_times",
            minimal("",
                    "[[loads.point]]\nnode = 1\ntimes = [0.0, 0.0]\nwrenches = "
                    "[[0,0,0,0,0,1], [0,0,0,0,0,2]]\n"),
            {"times", "increasing"}},
        Bad{"syntax", "format = 1\n[beam\n", {"bad.toml:2:", "TOML"}},
        Bad{"name_path", "name = \"../x\"\n" + minimal(""), {":1:", "name", "../x", "'/'"}},
        Bad{"name_empty", "name = \"\"\n" + minimal(""), {":1:", "name", "plain name"}},
        Bad{"point_beyond_end",
            minimal("", "[[loads.point]]\nnode = 5\nwrench = [0,0,0,0,0,1]\n"),
            {"node = 5", "solved node or a free end 0..4"}},
        Bad{"point_on_held_end",
            minimal("",
                    "[boundary]\nright = \"clamped\"\n[[loads.point]]\nnode = 4\n"
                    "wrench = [0,0,0,0,0,1]\n"),
            {":17:", "node = 4", "0..3", "held end"}},
        Bad{"end_wrench_on_held_end",
            minimal("",
                    "[boundary]\nright = \"clamped\"\n[[loads.end]]\n"
                    "wrench = [0,0,0,0,0,1]\n"),
            {":16:", "[loads] end", "free right end"}},
        Bad{"end_wrench_unknown_key",
            minimal("", "[[loads.end]]\nnode = 4\nwrench = [0,0,0,0,0,1]\n"),
            {"unknown key", "node"}},
        Bad{"big_integer", minimal_with("A = 4", "A = 4000000000"), {"A", "2000000000"}},
        // The message read "expected write the VTK files ...".
        Bad{"vtk_stride_text",
            minimal("", "[output]\nvtk_stride = \"Auto\"\n"),
            {"[output] vtk_stride = \"Auto\": expected \"auto\" (lower case) or an integer >= 1"}},
        Bad{"strain_at",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\nstrain_at = \"middle\"\n",
            {":16:", "[tip] strain_at = \"middle\"", "\"segment\", \"tip_point\""}},
        Bad{"time_offset",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\ntime_offset = \"0\"\n",
            {":16:", "[tip] time_offset", "expected a number"}},
        Bad{"method",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"batch\"\n",
            {":17:", "[reconstruct] method = \"batch\"", "\"space\", \"driven\""}},
        Bad{"far_end_space",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nfar_end = \"clamped\"\n",
            {":17:", "far_end", "only a driven reconstruction"}},
        Bad{"end_wrench_space_march",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[[loads.end]]\nwrench = [0,0,0,0,0,1]\n",
            {"[loads] end", "method = \"estimate\" or \"driven\"", "far_end = \"free\""}},
        Bad{"end_wrench_estimate_clamped",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"estimate\"\nfar_end = "
                "\"clamped\"\n[[loads.end]]\nwrench = [0,0,0,0,0,1]\n",
            {"[loads] end", "a clamped end reports its reaction"}},
        Bad{"point_on_far_end_space_march",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[[loads.point]]\nnode = 4\nwrench = [0,0,0,0,0,1]\n",
            {"node = 4", "1..3", "untouched end of a space march"}},
        Bad{"far_end_value",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"driven\"\nfar_end = "
                "\"pinned\"\n",
            {":18:", "far_end = \"pinned\"", "\"free\", \"clamped\""}},
        Bad{"estimate_model_error",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"estimate\"\nmodel_error = "
                "-1\n",
            {":18:", "[reconstruct] model_error = -1", "must be > 0"}},
        Bad{"estimate_first_row",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"estimate\"\nfirst_row = "
                "\"moving\"\n",
            {":18:", "first_row = \"moving\"", "\"rest\", \"straight\", \"free\""}},
        Bad{"estimate_iterations",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"estimate\"\nmax_iterations = "
                "0\n",
            {":18:", "max_iterations"}},
        Bad{"estimate_unknown",
            minimal_with("\"time\"", "\"space\"") +
                "[tip]\nfile = \"t.csv\"\n[reconstruct]\nmethod = \"estimate\"\nsigma = 1\n",
            {":18:", "sigma"}},
        Bad{"driven_rows",
            minimal_with("\"time\"", "\"space\"") +
                "[boundary]\nfirst = { prescribed = \"rows.csv\" }\n[tip]\nfile = \"t.csv\"\n"
                "[reconstruct]\nmethod = \"driven\"\n",
            {"method = \"driven\"", "prescribes no rows"}},
        Bad{"reconstruct_in_time",
            minimal("", "[reconstruct]\nmethod = \"driven\"\n"),
            {"[reconstruct]", "march = \"space\""}},
        Bad{"space_initial",
            minimal_with("\"time\"", "\"space\"") + "[initial]\nvelocity = \"zero\"\n",
            {"initial", "[tip]"}}),
    [](const ::testing::TestParamInfo<Bad>& p) { return std::string(p.param.name); });

TEST(CaseFile, MissingFileIsAnIoError) {
  EXPECT_THROW(load_case("/nonexistent/case.toml"), IoError);
}

}  // namespace
}  // namespace field::io
